export * from './registry/index.js';
