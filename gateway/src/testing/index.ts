export * from './stack.js';
export * from './redis-server.js';
