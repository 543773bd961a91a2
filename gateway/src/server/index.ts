export * from './env.js';
export * from './request-info.js';
export * from './api-keys.js';
export * from './proxy.js';
export * from './build-gateway.js';
export * from './component.js';
