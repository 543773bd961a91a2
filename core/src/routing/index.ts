// Provider routing: pattern compilation, the per-tenant router and its result cache.
export * from './pattern-error.js';
export * from './url-pattern.js';
export * from './host-pattern.js';
export * from './router.js';
export * from './match-cache.js';
