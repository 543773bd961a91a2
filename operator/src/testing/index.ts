export * from './kube-api-server.js';
export * from './patch.js';
