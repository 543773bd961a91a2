export * from './operations.js';
export * from './routes.js';
export * from './secrets.js';
