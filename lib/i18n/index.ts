export * from './messages';
export * from './format';
