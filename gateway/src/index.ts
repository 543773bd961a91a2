export * from './upstream/index.js';
export * from './config/index.js';
export * from './server/index.js';
export * from './decision/index.js';
export * from './normalizer/index.js';
export * from './pipeline/index.js';
export * from './events/index.js';
export * from './usage/index.js';
