/** The API client core: operation lookup, the HTTP client and its rules, confirmations and the read cache. */
export * from './errors';
export * from './schemas';
export * from './operations';
export * from './rateLimit';
export * from './retry';
export * from './validate';
export * from './deprecations';
export * from './confirmations';
export * from './readCache';
export * from './client';
