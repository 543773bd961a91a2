export * from './server/ui-server.js';
