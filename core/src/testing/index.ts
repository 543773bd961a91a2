export * from './services.js';
export * from './databases.js';
export * from './otlp-receiver.js';
export * from './user-agent.js';
export * from './flooding-peer.js';
