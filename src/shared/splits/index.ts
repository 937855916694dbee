export * from './splits';
