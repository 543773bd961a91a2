export * from './run-detector.js';
export * from './text-parts.js';
export * from './detectors.js';
export * from './request-inspector.js';
export * from './response-scanner.js';
export * from './profile-policies.js';
export * from './inspection-timings.js';
