// The OPA-format policy bundle: build from records, read and verify.
export * from './canonical-json.js';
export * from './data.js';
export * from './tar.js';
export * from './bundle.js';
export * from './publisher.js';
export * from './local-appliers.js';
export * from './store/index.js';
