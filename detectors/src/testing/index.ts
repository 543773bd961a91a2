// Test support for the detectors' users (never shipped in a service's code path).
export * from './tiny-classifier.js';
