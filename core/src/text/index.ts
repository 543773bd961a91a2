export * from './code-units.js';
export * from './int32-list.js';
