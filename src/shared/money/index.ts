export * from './money';
export * from './read-amount';
export * from './locale-notation';
export * from './bounds';
export * from './display';
