export * from './overview';
export * from './line-item-categories';
export * from './overview-groups';
export * from './labels';
