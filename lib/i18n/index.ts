export * from './messages';
export * from './format';
export * from './sentences';
