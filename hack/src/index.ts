export * from './kafka-broker/index.js';
