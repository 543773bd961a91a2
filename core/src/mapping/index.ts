export * from './presets.js';
export * from './extractor.js';
