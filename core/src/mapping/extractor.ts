// The JSONPath extractor: turns a vendor request/response body into the texts the detectors inspect,
// and remembers where each text lives so that a masked text can be written back (SANITIZE).
// It runs on every proxied call: mappings are resolved and compiled once per provider, and one
// jsonpath-plus instance per compiled mapping evaluates them (parsed path arrays and filter scripts
// are cached by jsonpath-plus itself, keyed by the path string).
import { JSONPath } from 'jsonpath-plus';
import type { ToolArgumentsEncoding, ToolArgumentsPath } from '../vendors/types.js';
import {
  FIELD_MAPPING_KEYS,
  MAPPING_PRESETS,
  TOOL_ARGUMENT_PATHS,
  isMappingPresetName,
  toFullJsonPath,
  type FieldMapping,
} from './presets.js';

/** The log line the gateway writes when a mapping finds no prompt (spec wording). */
export const EXTRACTION_EMPTY_WARNING = 'failed to extract prompt';

/** Exact location of a value in a JSON body: object keys and array indexes from the root. */
export type JsonPointer = (string | number)[];

export interface TextPart {
  pointer: JsonPointer;
  text: string;
}

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

/** A mapping with every path resolved to full JSONPath; absent optional paths are null. */
export interface ResolvedMapping {
  prompt_path: string;
  system_prompt_path: string | null;
  user_messages_path: string | null;
  model_path: string | null;
  response_path: string | null;
  /** The preset's places of tool-call arguments in answers; absent or empty for a custom-only mapping. */
  tool_arguments?: readonly ToolArgumentsPath[];
}

export type FieldMappingErrorReason = 'missing' | 'unknown_preset' | 'missing_prompt_path';

/** Thrown when a provider has no usable mapping; the gateway answers MISSING_FIELD_MAPPING (500). */
export class FieldMappingError extends Error {
  readonly code = 'MISSING_FIELD_MAPPING';
  constructor(
    readonly reason: FieldMappingErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'FieldMappingError';
  }
}

type PartialMapping = Partial<Record<keyof FieldMapping, string | null | undefined>>;

/**
 * The effective mapping of a provider: the preset's paths, overwritten field by field by the custom
 * paths (empty or null custom paths do not overwrite). Throws FieldMappingError when neither is given,
 * when the preset name is unknown, or when no prompt_path results.
 */
export function resolveMapping(preset?: string | null, custom?: PartialMapping | null): ResolvedMapping {
  if (!preset && !custom) {
    throw new FieldMappingError('missing', 'provider has neither mapping_preset nor mapping_custom');
  }
  let base: Partial<FieldMapping> = {};
  if (preset) {
    if (!isMappingPresetName(preset)) {
      throw new FieldMappingError('unknown_preset', `unknown mapping preset "${preset}"`);
    }
    base = MAPPING_PRESETS[preset];
  }
  const pick = (key: keyof FieldMapping): string | null => {
    const own = custom?.[key];
    const path = typeof own === 'string' && own.trim() !== '' ? own : base[key];
    return path ? toFullJsonPath(path) : null;
  };
  const prompt_path = pick('prompt_path');
  if (!prompt_path) {
    throw new FieldMappingError('missing_prompt_path', 'field mapping has no prompt_path');
  }
  // Tool-call arguments come with the preset: custom paths override the five fields, not these.
  const toolArguments = preset && isMappingPresetName(preset) ? TOOL_ARGUMENT_PATHS[preset] : undefined;
  return {
    prompt_path,
    system_prompt_path: pick('system_prompt_path'),
    user_messages_path: pick('user_messages_path'),
    model_path: pick('model_path'),
    response_path: pick('response_path'),
    ...(toolArguments ? { tool_arguments: toolArguments } : {}),
  };
}

export interface CompiledMapping {
  readonly mapping: ResolvedMapping;
  extractRequest(body: unknown): RequestExtraction;
  extractResponse(body: unknown): ResponseExtraction;
  /** The tool-call arguments of an answer, at the preset's paths (none for a custom-only mapping). */
  extractToolArguments(body: unknown): ToolArgumentsMatch[];
}

interface Match {
  pointer: JsonPointer;
  value: unknown;
}

/** Compiles a mapping once; the returned object is reused for every request of the provider. */
export function compileMapping(mapping: ResolvedMapping | FieldMapping): CompiledMapping {
  const toolArguments = 'tool_arguments' in mapping ? (mapping.tool_arguments ?? []) : [];
  const resolved: ResolvedMapping = { ...resolveMapping(null, mapping), ...(toolArguments.length ? { tool_arguments: toolArguments } : {}) };
  // Parse every path now (fills jsonpath-plus's path cache, fails early on a broken path string).
  for (const key of FIELD_MAPPING_KEYS) {
    const path = resolved[key];
    if (path) JSONPath.toPathArray(path);
  }
  for (const { path } of toolArguments) JSONPath.toPathArray(path);
  const engine = JSONPath({
    path: '$',
    json: null,
    autostart: false,
    resultType: 'all',
    wrap: true,
    eval: 'safe', // the built-in restricted evaluator for filters: no code execution
    ignoreEvalErrors: true, // a filter that throws on one element skips that element
  });

  // The published typings require callback arguments that the engine does not need.
  const evaluate = engine.evaluate.bind(engine) as unknown as (o: { path: string; json: unknown }) => unknown;

  const query = (path: string | null, body: unknown): Match[] => {
    if (!path || body === null || body === undefined) return [];
    (engine as unknown as { json: unknown }).json = body; // read by `@root` in filters
    let found: unknown;
    try {
      found = evaluate({ path, json: body });
    } catch {
      return []; // a path the engine cannot evaluate extracts nothing, like a wrong preset
    }
    if (!Array.isArray(found)) return [];
    return found.map((r: { pointer: string; value: unknown }) => ({
      pointer: decodePointer(r.pointer, body),
      value: r.value,
    }));
  };

  const partsOf = (matches: Match[]): TextPart[] => {
    const out: TextPart[] = [];
    const seen = new Set<string>();
    for (const m of matches) collectText(m.value, m.pointer, out, 0);
    return out.filter((p) => {
      const key = JSON.stringify(p.pointer);
      if (seen.has(key)) return false; // overlapping paths (e.g. `..`) must not double a text
      seen.add(key);
      return true;
    });
  };

  return {
    mapping: resolved,
    extractRequest(body) {
      const prompt_parts = partsOf(query(resolved.prompt_path, body));
      const system_parts = partsOf(query(resolved.system_prompt_path, body));
      const user_messages = query(resolved.user_messages_path, body)
        .map((m) => joinText(partsOf([m])))
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
      const parts = partsOf(query(resolved.response_path, body));
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

// Content-part types that carry user-visible text (vendor_a multimodal, vendor_b blocks, responses API).
const TEXT_PART_TYPES = new Set(['text', 'input_text', 'output_text']);
// Bounds the walk into nested content (tool results inside messages and the like).
const MAX_DEPTH = 8;

/**
 * Collects the texts of a matched value: a string; an array of strings or content parts; a part
 * `{type:"text", text}`; a message `{role, content}` / `{role, text}` / `{role, parts}`.
 * Non-text values (numbers, images, tool calls) are ignored.
 */
function collectText(value: unknown, pointer: JsonPointer, out: TextPart[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    if (value !== '') out.push({ pointer, text: value });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => collectText(item, [...pointer, i], out, depth + 1));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const o = value as Record<string, unknown>;
  const type = typeof o.type === 'string' ? o.type : undefined;
  if (typeof o.text === 'string' && (type === undefined || TEXT_PART_TYPES.has(type))) {
    collectText(o.text, [...pointer, 'text'], out, depth + 1);
  } else if ('content' in o) {
    collectText(o.content, [...pointer, 'content'], out, depth + 1);
  } else if (type === 'function_call_output' && 'output' in o) {
    // A tool's result sent back in a Responses API input: text the model will read.
    collectText(o.output, [...pointer, 'output'], out, depth + 1);
  } else if (Array.isArray(o.parts)) {
    collectText(o.parts, [...pointer, 'parts'], out, depth + 1);
  }
}

function joinText(parts: TextPart[]): string {
  return parts.map((p) => p.text).join('\n');
}

function firstScalar(matches: Match[]): string | null {
  for (const m of matches) {
    if (typeof m.value === 'string' && m.value !== '') return m.value;
    if (typeof m.value === 'number' && Number.isFinite(m.value)) return String(m.value);
  }
  return null;
}

/** JSON Pointer string (RFC 6901) → segments, typed by walking the body (array → numeric index). */
function decodePointer(pointer: string, body: unknown): JsonPointer {
  if (pointer === '') return [];
  const out: JsonPointer = [];
  let node: unknown = body;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) {
      const i = Number(seg);
      out.push(i);
      node = node[i];
    } else {
      out.push(seg);
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[seg] : undefined;
    }
  }
  return out;
}

/**
 * Writes `newText` at `pointer` and returns a new body; the input is not changed (containers on the
 * path are copied, the rest is shared). Throws RangeError when the pointer does not exist.
 */
export function replaceAt<T>(body: T, pointer: JsonPointer, newText: string): T {
  if (pointer.length === 0) return newText as unknown as T;
  const [head, ...rest] = pointer as [string | number, ...JsonPointer];
  if (Array.isArray(body)) {
    if (typeof head !== 'number' || head < 0 || head >= body.length) {
      throw new RangeError(`no array element at ${JSON.stringify(head)}`);
    }
    const copy = body.slice();
    copy[head] = replaceAt(body[head], rest, newText);
    return copy as T;
  }
  if (body !== null && typeof body === 'object' && Object.hasOwn(body, head)) {
    const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
    // defineProperty, not assignment: a JSON key named "__proto__" must stay a plain own property.
    Object.defineProperty(copy, String(head), {
      value: replaceAt((body as Record<string, unknown>)[String(head)], rest, newText),
      writable: true,
      enumerable: true,
      configurable: true,
    });
    return copy as T;
  }
  throw new RangeError(`no property ${JSON.stringify(head)} on the path`);
}

/**
 * Applies several replacements (e.g. every masked prompt part; a value other than a string, e.g. a
 * tool call's masked arguments object, goes in as it is) and returns the new body; the input is
 * not changed. Each container on the way is copied once, however many replacements it holds, and the
 * walk is a loop: linear in the body, whatever the number of parts or the depth.
 */
export function replaceAllAt<T>(body: T, replacements: readonly { pointer: JsonPointer; text: unknown }[]): T {
  const copies = new WeakSet<object>();
  const writable = (value: unknown): Record<string | number, unknown> => {
    if (value === null || typeof value !== 'object') throw new RangeError('no container on the path');
    if (copies.has(value)) return value as Record<string | number, unknown>;
    const copy = Array.isArray(value) ? value.slice() : { ...(value as Record<string, unknown>) };
    copies.add(copy);
    return copy as Record<string | number, unknown>;
  };
  let root: unknown = body;
  for (const { pointer, text } of replacements) {
    if (pointer.length === 0) {
      root = text;
      continue;
    }
    root = writable(root);
    let node = root as Record<string | number, unknown>;
    for (let i = 0; i < pointer.length; i++) {
      const key = pointer[i]!;
      if (Array.isArray(node) ? typeof key !== 'number' || key < 0 || key >= node.length : !Object.hasOwn(node, key)) {
        throw new RangeError(`no property ${JSON.stringify(key)} on the path`);
      }
      const value = i === pointer.length - 1 ? text : writable(node[key]);
      // defineProperty, not assignment: a JSON key named "__proto__" must stay a plain own property.
      Object.defineProperty(node, String(key), { value, writable: true, enumerable: true, configurable: true });
      if (i < pointer.length - 1) node = value as Record<string | number, unknown>;
    }
  }
  return root as T;
}
