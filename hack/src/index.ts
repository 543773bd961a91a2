export * from './mock-llm/index.js';
export * from './kafka-broker/index.js';
