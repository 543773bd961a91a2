export * from './kube-api-server.js';
export * from './crd-validation.js';
