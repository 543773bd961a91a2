export * from './env.js';
export * from './common.js';
export * from './ports.js';
