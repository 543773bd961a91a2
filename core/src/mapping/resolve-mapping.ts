// A provider's effective field mapping: its preset's paths, overwritten field by field by its custom
// paths, every path in full JSONPath; or the reason it has none (MISSING_FIELD_MAPPING).
import type { ToolArgumentsPath } from '../vendors/types.js';
import { MAPPING_PRESETS, TOOL_ARGUMENT_PATHS, isMappingPresetName, toFullJsonPath, type FieldMapping } from './presets.js';

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

export type PartialMapping = Partial<Record<keyof FieldMapping, string | null | undefined>>;

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
