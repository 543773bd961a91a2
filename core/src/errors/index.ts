export * from './catalogue.js';
export * from './palisade-error.js';
export * from './render.js';
export * from './localize.js';
