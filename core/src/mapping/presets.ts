// The field-mapping presets: where each vendor format keeps the prompt, system prompt, user messages,
// model name and answer text. Data only (a vendor is data, not a class), so the gateway, the admin UI,
// the mock LLM and the CRD generator all read the same table.
//
// The spec writes paths without the `$.` prefix; they are stored here as full JSONPath.
// The provider types live here too (not in model/) because the recommended-preset table is keyed by
// them and mapping/ must not import model/ (model/provider.ts imports from here).

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

const USER_MESSAGES = "$.messages[?(@.role=='user')]";
const SYSTEM_CONTENT = "$.messages[?(@.role=='system')].content";

/** The vendor_a chat format, shared by its compatible APIs (vendor_c, vendor_i, vendor_h). */
const VENDOR_A_CHAT: FieldMapping = {
  prompt_path: '$.messages[*].content',
  system_prompt_path: SYSTEM_CONTENT,
  user_messages_path: USER_MESSAGES,
  model_path: '$.model',
  response_path: '$.choices[0].message.content',
};

export const MAPPING_PRESETS: Readonly<Record<MappingPresetName, Readonly<FieldMapping>>> = {
  vendor_a_chat_completions: VENDOR_A_CHAT,
  vendor_b_messages: {
    prompt_path: '$.messages[*].content',
    system_prompt_path: '$.system',
    user_messages_path: USER_MESSAGES,
    model_path: '$.model',
    response_path: '$.content[0].text',
  },
  vendor_c_chat: VENDOR_A_CHAT,
  vendor_i_chat: VENDOR_A_CHAT,
  vendor_j_gpt: {
    prompt_path: '$.messages[*].text',
    system_prompt_path: "$.messages[?(@.role=='system')].text",
    user_messages_path: USER_MESSAGES,
    model_path: '$.modelUri',
    response_path: '$.result.alternatives[0].message.text',
  },
  vendor_a_completions: { prompt_path: '$.prompt', model_path: '$.model', response_path: '$.choices[0].text' },
  // The Responses API: `input` is a string or a list of items (messages whose content is a string or
  // input_text parts, function_call_output items), `instructions` the system prompt; the answer's text
  // is in every content part of the `output` items (all taken, so no part hides text from scanning).
  vendor_a_responses: {
    prompt_path: '$.input',
    system_prompt_path: '$.instructions',
    user_messages_path: "$.input[?(@.role=='user')]",
    model_path: '$.model',
    response_path: '$.output[*].content[*].text',
  },
  vendor_b_completions: { prompt_path: '$.prompt', model_path: '$.model', response_path: '$.completion' },
  vendor_d_palm: { prompt_path: '$.prompt.text', model_path: '$.model', response_path: '$.candidates[0].output' },
  vendor_e_generate: { prompt_path: '$.prompt', model_path: '$.model', response_path: '$.generations[0].text' },
  vendor_f_inference: { prompt_path: '$.inputs', model_path: '$.model', response_path: '$[0].generated_text' },
  custom_simple: { prompt_path: '$.prompt', model_path: '$.model', response_path: '$.response' },
  image_vendor_k: { prompt_path: '$.prompt', model_path: '$.model', response_path: '$.images[0].url' },
  image_vendor_a_compatible: { prompt_path: '$.prompt', model_path: '$.model', response_path: '$.data[0].url' },
  image_vendor_l: { prompt_path: '$.input.prompt', model_path: '$.version', response_path: '$.output[0]' },
  // The spec leaves the model path of the inference preset empty: the model is in the URL.
  serving_vendor_m_inference: {
    prompt_path: "$.inputs[?(@.name=='prompt')].data[0]",
    response_path: "$.outputs[?(@.name=='generated_image')].data[0]",
  },
  serving_vendor_m_text_generation: {
    prompt_path: "$.inputs[?(@.name=='prompt')].data[0]",
    model_path: "$.inputs[?(@.name=='model')].data[0]",
    response_path: "$.outputs[?(@.name=='text')].data[0]",
  },
  // contents[].parts[].text format; the model is part of the URL (…/models/{model}:generateContent).
  vendor_d_gemini: {
    prompt_path: '$.contents[*].parts[*].text',
    system_prompt_path: '$.systemInstruction.parts[*].text',
    user_messages_path: "$.contents[?(@.role=='user')]",
    response_path: '$.candidates[0].content.parts[0].text',
  },
  // The vendor's v2 chat API: messages with role/content in, `message.content` as an array of
  // {type:"text", text} blocks out. All text blocks are taken, not only the first, so that a
  // multi-block answer cannot hide text from response scanning.
  vendor_e_chat: {
    prompt_path: '$.messages[*].content',
    system_prompt_path: SYSTEM_CONTENT,
    user_messages_path: USER_MESSAGES,
    model_path: '$.model',
    response_path: '$.message.content[*].text',
  },
  // Local model runner chat: messages role/content in, {message: {role, content}} out.
  vendor_g_chat: {
    prompt_path: '$.messages[*].content',
    system_prompt_path: SYSTEM_CONTENT,
    user_messages_path: USER_MESSAGES,
    model_path: '$.model',
    response_path: '$.message.content',
  },
  // vendor_h serves the vendor_a-compatible API.
  vendor_h_chat: VENDOR_A_CHAT,
};

/** The preset the UI proposes for each provider type (spec's list). */
export const RECOMMENDED_PRESET_BY_PROVIDER_TYPE: Readonly<Record<ProviderTypeName, MappingPresetName>> = {
  vendor_a: 'vendor_a_chat_completions',
  vendor_b: 'vendor_b_messages',
  vendor_c: 'vendor_c_chat',
  vendor_d: 'vendor_d_gemini',
  vendor_e: 'vendor_e_chat',
  vendor_f: 'vendor_f_inference',
  vendor_g: 'vendor_g_chat',
  vendor_h: 'vendor_h_chat',
  vendor_i: 'vendor_i_chat',
  custom: 'custom_simple',
};

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
