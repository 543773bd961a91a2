export * from './registry/index.js';
export * from './api-keys/index.js';
