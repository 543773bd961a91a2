export { createUsageRecorder, type UsageRecorder, type UsageRecorderOptions, type UsageRoute } from './recorder.js';
export { createUsageRollups, type UsageRollups, type UsageSample } from './rollups.js';
export { requestModelOf, tokenUsageOf, usageOfFrame, type TokenUsage } from './tokens.js';
