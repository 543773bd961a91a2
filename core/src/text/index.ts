export * from './code-units.js';
