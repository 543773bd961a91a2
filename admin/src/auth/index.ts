export * from './contract.js';
export * from './permissions.js';
export * from './principal.js';
export * from './access-control.js';
export * from './proxy-proof.js';
export * from './me-route.js';
