export * from './oidc.js';
export * from './stack.js';
