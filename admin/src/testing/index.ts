export * from './oidc.js';
