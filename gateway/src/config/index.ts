export * from './snapshot.js';
export * from './loader.js';
