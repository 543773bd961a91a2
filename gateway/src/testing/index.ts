export * from './stack.js';
export * from './one-database.js';
