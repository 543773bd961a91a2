export * from './services.js';
export * from './databases.js';
