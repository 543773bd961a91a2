// Incremental scanning of streamed answers (docs/streaming.md).
export * from './codecs.js';
export * from './holdback.js';
export * from './holdback-size.js';
export * from './stream-guard.js';
export * from './stream-scanning.js';
export * from './window-check.js';
