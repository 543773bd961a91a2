export * from './stack.js';
export * from './redis-server.js';
export * from './one-database.js';
