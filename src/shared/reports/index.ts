export * from './monthly';
export * from './payees';
