export { createEventWriter, EVENT_WRITER_GROUP, MAX_EVENT_BATCH_SIZE, SECURITY_EVENTS_STREAM, type EventWriter, type EventWriterOptions, type EventWriterStats } from './writer.js';
export { createEventWriterComponent, EVENT_WRITER_ENV, type EventWriterComponent, type EventWriterComponentDeps, type EventWriterConfig } from './component.js';
export { DEAD_LETTER_SUFFIX, deadLetterStream, deadLetterRecord, type DeadLetter } from './dead-letter.js';
export { registerEventWriterMetrics, EVENT_WRITER_METRICS } from './metrics.js';
export { parseBatch, storable, type ParsedBatch } from './batch.js';
export { createUsageWriter, USAGE_WRITER_GROUP, type UsageWriter, type UsageWriterOptions } from './usage-writer.js';
