export * from './overview';
export * from './line-item-categories';
