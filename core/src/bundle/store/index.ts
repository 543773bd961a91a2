// The policy bundle store (port 9000) and its bundle sources.
export * from './source.js';
export * from './server.js';
