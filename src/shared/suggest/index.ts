export * from './normalize';
export * from './learner';
