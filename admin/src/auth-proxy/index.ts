export * from './component.js';
export * from './config.js';
