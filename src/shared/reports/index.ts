export * from './monthly';
export * from './payees';
export * from './charts';
export * from './links';
export * from './ranges';
