export * from './operations.js';
export * from './tester.js';
export * from './test-route.js';
