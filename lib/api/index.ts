/** The API client core: operation lookup, the HTTP client and its rules, the table of writes and the read cache. */
export * from './errors';
export * from './schemas';
export * from './operations';
export * from './routes';
export * from './urls';
export * from './rateLimit';
export * from './retry';
export * from './validate';
export * from './deprecations';
export * from './writeOperations';
export * from './client';
