// The field-mapping presets: where each vendor format keeps the prompt, system prompt, user messages,
// model name and answer text. Each vendor folder (core/src/vendors/<vendor>) gives its own; this
// gathers them into the tables the gateway, the admin UI and the CRD generator read.
//
// The spec writes paths without the `$.` prefix; they are stored here as full JSONPath.
// The provider types and preset names live here (not in model/ or the vendor folders): they are the
// spec's enums, whose order the generated CRDs and the OpenAPI document keep, and mapping/ must not
// import model/ (model/provider.ts imports from here).
import { VENDORS } from '../vendors/all.js';
import type { ToolArgumentsPath, Vendor } from '../vendors/types.js';

/** Provider types of the spec; `custom` uses custom_simple plus mapping_custom. */
export const PROVIDER_TYPES = [
  'vendor_a',
  'vendor_b',
  'vendor_c',
  'vendor_d',
  'vendor_e',
  'vendor_f',
  'vendor_g',
  'vendor_h',
  'vendor_i',
  'custom',
] as const;
export type ProviderTypeName = (typeof PROVIDER_TYPES)[number];

/** The five JSONPath strings of a field mapping; only prompt_path is required. */
export interface FieldMapping {
  prompt_path: string;
  system_prompt_path?: string;
  user_messages_path?: string;
  model_path?: string;
  response_path?: string;
}

/** The keys of a field mapping, in the order of the spec's table. */
export const FIELD_MAPPING_KEYS = [
  'prompt_path',
  'system_prompt_path',
  'user_messages_path',
  'model_path',
  'response_path',
] as const satisfies readonly (keyof FieldMapping)[];

export const MAPPING_PRESET_NAMES = [
  'vendor_a_chat_completions',
  'vendor_b_messages',
  'vendor_c_chat',
  'vendor_i_chat',
  'vendor_j_gpt',
  'vendor_a_completions',
  'vendor_a_responses',
  'vendor_b_completions',
  'vendor_d_palm',
  'vendor_e_generate',
  'vendor_f_inference',
  'custom_simple',
  'image_vendor_k',
  'image_vendor_a_compatible',
  'image_vendor_l',
  'serving_vendor_m_inference',
  'serving_vendor_m_text_generation',
  // Recommended by provider type; their paths are ours (the spec gives only request shapes).
  'vendor_d_gemini',
  'vendor_e_chat',
  'vendor_g_chat',
  'vendor_h_chat',
] as const;
export type MappingPresetName = (typeof MAPPING_PRESET_NAMES)[number];

type PresetNamesOf<V> = V extends { presets: infer P } ? keyof P : never;
type RecommendedOf<V> = V extends { recommendedPresets: infer R } ? keyof R : never;
type Vendors = (typeof VENDORS)[number];
// Compile-time completeness: every preset name and provider type is given by some vendor folder.
const everyPresetDefined: [Exclude<MappingPresetName, PresetNamesOf<Vendors>>] extends [never] ? true : never = true;
const everyProviderTypeRecommended: [Exclude<ProviderTypeName, RecommendedOf<Vendors>>] extends [never] ? true : never = true;
void [everyPresetDefined, everyProviderTypeRecommended];

/** One entry per name, in the names' order; a name given twice or never is a vendor folder's mistake. */
export function gatherFromVendorFolders<K extends string, V>(names: readonly K[], entries: Array<[string, V]>, what: string): Record<K, V> {
  const found = new Map<string, V>();
  for (const [name, value] of entries) {
    if (found.has(name)) throw new Error(`${what} ${name} is given by two vendor folders`);
    found.set(name, value);
  }
  const missing = names.filter((name) => !found.has(name));
  if (missing.length > 0 || found.size !== names.length) {
    throw new Error(`the vendor folders do not give exactly the ${what}s ${names.join(', ')}`);
  }
  return Object.fromEntries(names.map((name) => [name, found.get(name) as V])) as Record<K, V>;
}

const vendors: readonly Vendor[] = VENDORS;

/** Every vendor folder's presets (core/src/vendors/<vendor>), in the spec's order of names. */
export const MAPPING_PRESETS: Readonly<Record<MappingPresetName, Readonly<FieldMapping>>> = gatherFromVendorFolders(
  MAPPING_PRESET_NAMES,
  vendors.flatMap((v) => Object.entries(v.presets) as Array<[string, FieldMapping]>),
  'mapping preset',
);

/** The preset the UI proposes for each provider type (spec's list), from the vendor folders. */
export const RECOMMENDED_PRESET_BY_PROVIDER_TYPE: Readonly<Record<ProviderTypeName, MappingPresetName>> = gatherFromVendorFolders(
  PROVIDER_TYPES,
  vendors.flatMap((v) => Object.entries(v.recommendedPresets ?? {}) as Array<[string, MappingPresetName]>),
  'provider type',
);

/** Where each preset's answers carry tool-call arguments (presets without tool calls have none). */
export const TOOL_ARGUMENT_PATHS: Readonly<Partial<Record<MappingPresetName, readonly ToolArgumentsPath[]>>> = Object.fromEntries(
  vendors.flatMap((v) => Object.entries(v.toolArguments ?? {})),
);

export function isMappingPresetName(name: unknown): name is MappingPresetName {
  return typeof name === 'string' && (MAPPING_PRESET_NAMES as readonly string[]).includes(name);
}

/**
 * Full JSONPath for a path given in the spec's short form: `messages[*].content` → `$.messages[*].content`,
 * `[0].generated_text` → `$[0].generated_text`. Paths that already start with `$` are kept.
 */
export function toFullJsonPath(path: string): string {
  const p = path.trim();
  if (p.startsWith('$')) return p;
  return p.startsWith('[') ? `$${p}` : `$.${p}`;
}
