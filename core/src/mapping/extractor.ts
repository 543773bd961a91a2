// The extractor: turns a vendor request/response body into the texts the detectors inspect, and
// remembers where each text lives so that a masked text can be written back (SANITIZE). It runs on
// every proxied call: mappings are resolved (resolve-mapping.ts) and compiled once per provider, and
// each compiled mapping evaluates its paths with its own JSONPath engine (path-query.ts).
import type { ToolArgumentsEncoding } from '../vendors/types.js';
import type { JsonPointer } from './json-pointer.js';
import { createPathQuery, type Match } from './path-query.js';
import { FIELD_MAPPING_KEYS, type FieldMapping } from './presets.js';
import { resolveMapping, type PartialMapping, type ResolvedMapping } from './resolve-mapping.js';
import { joinText, textParts, type TextPart } from './text-parts.js';

/** The log line the gateway writes when a mapping finds no prompt (spec wording). */
export const EXTRACTION_EMPTY_WARNING = 'failed to extract prompt';

export interface RequestExtraction {
  prompt: string;
  system_prompt: string;
  user_messages: string[];
  model: string | null;
  /** Every text that makes up `prompt`, with its location, for writing masked text back. */
  prompt_parts: TextPart[];
}

export interface ResponseExtraction {
  text: string;
  parts: TextPart[];
}

/** One tool call's arguments in an answer: where they are, and their value (a JSON text, or a JSON value). */
export interface ToolArgumentsMatch {
  pointer: JsonPointer;
  value: unknown;
  encoding: ToolArgumentsEncoding;
}

export interface CompiledMapping {
  readonly mapping: ResolvedMapping;
  extractRequest(body: unknown): RequestExtraction;
  extractResponse(body: unknown): ResponseExtraction;
  /** The tool-call arguments of an answer, at the preset's paths (none for a custom-only mapping). */
  extractToolArguments(body: unknown): ToolArgumentsMatch[];
}

/** Compiles a mapping once; the returned object is reused for every request of the provider. */
export function compileMapping(mapping: ResolvedMapping | FieldMapping): CompiledMapping {
  const toolArguments = 'tool_arguments' in mapping ? (mapping.tool_arguments ?? []) : [];
  const resolved: ResolvedMapping = { ...resolveMapping(null, mapping), ...(toolArguments.length ? { tool_arguments: toolArguments } : {}) };
  const fieldPaths = FIELD_MAPPING_KEYS.map((key) => resolved[key]).filter((path): path is string => !!path);
  const query = createPathQuery([...fieldPaths, ...toolArguments.map(({ path }) => path)]);
  return {
    mapping: resolved,
    extractRequest(body) {
      const prompt_parts = textParts(query(resolved.prompt_path, body));
      const system_parts = textParts(query(resolved.system_prompt_path, body));
      const user_messages = query(resolved.user_messages_path, body)
        .map((m) => joinText(textParts([m])))
        .filter((t) => t !== '');
      return {
        prompt: joinText(prompt_parts),
        system_prompt: joinText(system_parts),
        user_messages,
        model: firstScalar(query(resolved.model_path, body)),
        prompt_parts,
      };
    },
    extractResponse(body) {
      const parts = textParts(query(resolved.response_path, body));
      return { text: joinText(parts), parts };
    },
    extractToolArguments(body) {
      const out: ToolArgumentsMatch[] = [];
      for (const { path, encoding } of toolArguments) {
        for (const m of query(path, body)) if (m.value !== undefined && m.value !== null) out.push({ pointer: m.pointer, value: m.value, encoding });
      }
      return out;
    },
  };
}

/** Resolves and compiles a provider's mapping in one step. */
export function compileProviderMapping(provider: {
  mapping_preset?: string | null;
  mapping_custom?: PartialMapping | null;
}): CompiledMapping {
  return compileMapping(resolveMapping(provider.mapping_preset, provider.mapping_custom));
}

/** True when the mapping found no prompt text: the caller logs EXTRACTION_EMPTY_WARNING. */
export function isExtractionEmpty(result: Pick<RequestExtraction, 'prompt'>): boolean {
  return result.prompt.trim() === '';
}

function firstScalar(matches: Match[]): string | null {
  for (const m of matches) {
    if (typeof m.value === 'string' && m.value !== '') return m.value;
    if (typeof m.value === 'number' && Number.isFinite(m.value)) return String(m.value);
  }
  return null;
}
