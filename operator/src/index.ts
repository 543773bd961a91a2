export * from './bundle-store/index.js';
