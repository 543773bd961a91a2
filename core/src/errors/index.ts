export * from './catalogue.js';
export * from './palisade-error.js';
export * from './render.js';
export * from './localize.js';
export * from './zod-issues.js';
