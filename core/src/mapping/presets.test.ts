import t from 'tap';
import {
  MAPPING_PRESETS,
  MAPPING_PRESET_NAMES,
  PROVIDER_TYPES,
  RECOMMENDED_PRESET_BY_PROVIDER_TYPE,
  isMappingPresetName,
  toFullJsonPath,
} from './presets.js';

// The spec's preset table, in its own short notation (no `$.`): prompt, system, model, response.
const SPEC_TABLE: Record<string, [string, string | null, string | null, string]> = {
  vendor_a_chat_completions: ['messages[*].content', "messages[?(@.role=='system')].content", 'model', 'choices[0].message.content'],
  vendor_b_messages: ['messages[*].content', 'system', 'model', 'content[0].text'],
  vendor_c_chat: ['messages[*].content', "messages[?(@.role=='system')].content", 'model', 'choices[0].message.content'],
  vendor_i_chat: ['messages[*].content', "messages[?(@.role=='system')].content", 'model', 'choices[0].message.content'],
  vendor_j_gpt: ['messages[*].text', "messages[?(@.role=='system')].text", 'modelUri', 'result.alternatives[0].message.text'],
  vendor_a_completions: ['prompt', null, 'model', 'choices[0].text'],
  vendor_b_completions: ['prompt', null, 'model', 'completion'],
  vendor_d_palm: ['prompt.text', null, 'model', 'candidates[0].output'],
  vendor_e_generate: ['prompt', null, 'model', 'generations[0].text'],
  vendor_f_inference: ['inputs', null, 'model', '[0].generated_text'],
  custom_simple: ['prompt', null, 'model', 'response'],
  image_vendor_k: ['prompt', null, 'model', 'images[0].url'],
  image_vendor_a_compatible: ['prompt', null, 'model', 'data[0].url'],
  image_vendor_l: ['input.prompt', null, 'version', 'output[0]'],
  serving_vendor_m_inference: ["inputs[?(@.name=='prompt')].data[0]", null, null, "outputs[?(@.name=='generated_image')].data[0]"],
  serving_vendor_m_text_generation: [
    "inputs[?(@.name=='prompt')].data[0]",
    null,
    "inputs[?(@.name=='model')].data[0]",
    "outputs[?(@.name=='text')].data[0]",
  ],
};
const WITH_USER_MESSAGES = ['vendor_a_chat_completions', 'vendor_b_messages', 'vendor_c_chat', 'vendor_i_chat', 'vendor_j_gpt'];

t.test('the 16 presets of the spec table, path for path', async (t) => {
  for (const [name, [prompt, system, model, response]] of Object.entries(SPEC_TABLE)) {
    const p = MAPPING_PRESETS[name as keyof typeof MAPPING_PRESETS];
    t.equal(p.prompt_path, toFullJsonPath(prompt), `${name} prompt`);
    t.equal(p.system_prompt_path, system ? toFullJsonPath(system) : undefined, `${name} system`);
    t.equal(p.model_path, model ? toFullJsonPath(model) : undefined, `${name} model`);
    t.equal(p.response_path, toFullJsonPath(response), `${name} response`);
    const user = WITH_USER_MESSAGES.includes(name) ? "$.messages[?(@.role=='user')]" : undefined;
    t.equal(p.user_messages_path, user, `${name} user messages`);
  }
});

t.test('21 presets, every path full JSONPath', async (t) => {
  t.equal(MAPPING_PRESET_NAMES.length, 21);
  t.same(Object.keys(MAPPING_PRESETS).sort(), [...MAPPING_PRESET_NAMES].sort());
  for (const [name, p] of Object.entries(MAPPING_PRESETS)) {
    for (const path of Object.values(p)) t.match(path, /^\$[.[]/, `${name}: ${path}`);
  }
  t.equal(MAPPING_PRESETS.vendor_f_inference.response_path, '$[0].generated_text');
  t.equal(MAPPING_PRESETS.vendor_a_chat_completions.prompt_path, '$.messages[*].content');
});

t.test('the four presets the spec gives no paths for', async (t) => {
  t.same(MAPPING_PRESETS.vendor_d_gemini, {
    prompt_path: '$.contents[*].parts[*].text',
    system_prompt_path: '$.systemInstruction.parts[*].text',
    user_messages_path: "$.contents[?(@.role=='user')]",
    response_path: '$.candidates[0].content.parts[0].text',
  });
  t.equal(MAPPING_PRESETS.vendor_e_chat.prompt_path, '$.messages[*].content');
  t.equal(MAPPING_PRESETS.vendor_e_chat.response_path, '$.message.content[*].text');
  t.equal(MAPPING_PRESETS.vendor_g_chat.response_path, '$.message.content');
  t.same(MAPPING_PRESETS.vendor_h_chat, MAPPING_PRESETS.vendor_a_chat_completions, 'vendor_h is vendor_a compatible');
});

t.test('recommended preset per provider type', async (t) => {
  t.same(RECOMMENDED_PRESET_BY_PROVIDER_TYPE, {
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
  });
  for (const type of PROVIDER_TYPES) t.ok(isMappingPresetName(RECOMMENDED_PRESET_BY_PROVIDER_TYPE[type]), type);
});

t.test('toFullJsonPath and isMappingPresetName', async (t) => {
  t.equal(toFullJsonPath('messages[*].content'), '$.messages[*].content');
  t.equal(toFullJsonPath('[0].generated_text'), '$[0].generated_text');
  t.equal(toFullJsonPath('$.model'), '$.model');
  t.equal(toFullJsonPath(' prompt '), '$.prompt');
  t.ok(isMappingPresetName('custom_simple'));
  t.notOk(isMappingPresetName('vendor_x'));
  t.notOk(isMappingPresetName(undefined));
});
