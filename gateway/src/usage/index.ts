export { createUsageRecorder, type CallUsage, type UsageRecorder, type UsageRecorderOptions, type UsageRoute, type UsageSlot } from './recorder.js';
export { createUsageRollups, type UsageRollups, type UsageSample } from './rollups.js';
export { requestModelOf, tokenUsageOf, usageOfFrame, type TokenUsage } from './tokens.js';
