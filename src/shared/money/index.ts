export * from './money';
export * from './parse-amount';
export * from './bounds';
