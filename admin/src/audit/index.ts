export * from './mapping.js';
export * from './audit-hook.js';
export * from './routes.js';
export * from './secret-masking.js';
