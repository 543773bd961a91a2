export * from './errors/index.js';
export * from './config/index.js';
export * from './service/index.js';
export * from './store/index.js';
export * from './stream/index.js';
export * from './model/index.js';
export * from './mapping/index.js';
export * from './crypto/index.js';
