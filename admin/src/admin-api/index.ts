export * from './route-schema.js';
export * from './build-admin-api.js';
export * from './resource-access.js';
export * from './docs.js';
export * from './component.js';
export * from './standard-modules.js';
export * from './openapi-document.js';
