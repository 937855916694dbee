export * from './reserved';
