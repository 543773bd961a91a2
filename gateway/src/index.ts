export * from './upstream/index.js';
export * from './config/index.js';
export * from './server/index.js';
