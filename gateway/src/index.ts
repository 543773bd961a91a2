export * from './upstream/index.js';
