// The decision point (PDP): decide() in-process, the 8086 service, its HTTP client (README.md).
export * from './types.js';
export { decide, decideFailSafe } from './decide.js';
export { filterEvents } from './filter-events.js';
export { DECISION_BODY_LIMIT_BYTES, DECISION_PATH, DECISION_POINT_PORT, buildDecisionService, type DecisionServiceOptions } from './service.js';
export { DECISION_CLIENT_DEFAULTS, createDecisionClient, createInProcessDecisionPoint, type DecisionClientOptions } from './client.js';
