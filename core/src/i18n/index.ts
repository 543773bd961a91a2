export * from './language.js';
