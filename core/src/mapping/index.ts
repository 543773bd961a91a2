export * from './presets.js';
export * from './extractor.js';
export * from './string-walk.js';
export * from './samples.js';
