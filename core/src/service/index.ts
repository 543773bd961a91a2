export * from './create-service.js';
export * from './errors.js';
export * from './health.js';
export * from './metrics.js';
export * from './run.js';
export * from './trace.js';
export * from './request-stats.js';
export { clientErrorOf, rawErrorResponse } from './client-errors.js';
export * from './detector-service.js';
