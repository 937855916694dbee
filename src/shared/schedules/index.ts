export * from './recurrence';
export * from './patterns';
export * from './schema';
export * from './occurrences';
export * from './match';
export * from './suggest';
