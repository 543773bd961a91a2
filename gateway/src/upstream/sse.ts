// Streamed answers: the SSE / NDJSON parser, the vendor stream rules and the assembler, each in its
// own file; this module gathers them for the upstream client's callers.
export { createFrameReader, NdjsonLineReader, parseFrames, parseSse, SseParser, streamFormatOf, type FrameReader, type SseEvent, type StreamFormat } from './stream-parser.js';
export { DELTA_RULES, END_MARKERS, extractDelta, isEndMarker, valuesAt, type DeltaRule, type EndMarker, type JsonPath, type PathStep } from './stream-rules.js';
export { assembleJsonChunks, assembleStream, createStreamAssembler, jsonChunksToolArguments, jsonChunksToolCalls, type StreamAssembler } from './stream-assembler.js';
