export { buildSecurityEvents, EventPrompt, sideEventContext, type BuildSecurityEventsOptions, type CallEventContext, type SecurityEventContext, type SecurityEventPart } from './build-events.js';
export { createEventEmitter, SECURITY_EVENTS_STREAM, type EventEmitter, type EventEmitterOptions, type EventEmitterStats } from './emitter.js';
export { emitOperationalEvent, operationalEventOf, upstreamStatusEvent } from './operational-events.js';
