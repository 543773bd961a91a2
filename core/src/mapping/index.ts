export * from './presets.js';
export * from './extractor.js';
export { FieldMappingError, resolveMapping, type FieldMappingErrorReason, type ResolvedMapping } from './resolve-mapping.js';
export { replaceAllAt, replaceAt, type JsonPointer } from './json-pointer.js';
export type { TextPart } from './text-parts.js';
export * from './string-walk.js';
export * from './samples.js';
