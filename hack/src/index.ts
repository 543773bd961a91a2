export * from './mock-llm/index.js';
