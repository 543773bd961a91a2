export * from './build-registry.js';
export * from './providers.js';
export * from './profiles.js';
export * from './routes.js';
export * from './health-checker.js';
export * from './match.js';
export * from './component.js';
