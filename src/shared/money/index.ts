export * from './money';
export * from './read-amount';
export * from './locale-notation';
export * from './bounds';
export * from './currencies';
export * from './decimal';
export * from './display';
