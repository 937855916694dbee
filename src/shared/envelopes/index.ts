export * from './envelopes';
