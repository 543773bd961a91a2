export * from './operations.js';
