export * from './registry/index.js';
export * from './api-keys/index.js';
export * from './event-writer/index.js';
export * from './content-policies/index.js';
