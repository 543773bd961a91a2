export * from './identity-provider.js';
export * from './password.js';
export * from './postgres-identity.js';
export * from './roles.js';
export * from './routes.js';
export * from './external-identity.js';
export * from './sessions.js';
