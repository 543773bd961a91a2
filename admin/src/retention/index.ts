export * from './routes.js';
export * from './scrub.js';
export * from './settings.js';
export * from './worker.js';
