import t from 'tap';
import { MAPPING_PRESETS, MAPPING_PRESET_NAMES, PROVIDER_TYPES, RECOMMENDED_PRESET_BY_PROVIDER_TYPE } from '../mapping/presets.js';
import { DELTA_RULES, END_MARKERS, STREAM_CODECS, USAGE_FIELDS, VENDORS, type Vendor } from './index.js';

const vendors: readonly Vendor[] = VENDORS;

t.test('one folder per vendor; its provider types in the spec order', async (t) => {
  t.equal(new Set(vendors.map((v) => v.id)).size, vendors.length, 'ids are unique');
  t.same(vendors.flatMap((v) => v.providerTypes), PROVIDER_TYPES);
  for (const v of vendors) {
    for (const [type, preset] of Object.entries(v.recommendedPresets ?? {})) {
      t.ok((v.providerTypes as readonly string[]).includes(type), `${v.id} recommends only for its own types`);
      t.equal(RECOMMENDED_PRESET_BY_PROVIDER_TYPE[type as keyof typeof RECOMMENDED_PRESET_BY_PROVIDER_TYPE], preset);
    }
  }
});

t.test('each preset name is given by exactly one folder, and the tables hold it unchanged', async (t) => {
  const given = vendors.flatMap((v) => Object.keys(v.presets));
  t.same([...given].sort(), [...MAPPING_PRESET_NAMES].sort());
  for (const v of vendors) {
    for (const [name, preset] of Object.entries(v.presets)) t.equal(MAPPING_PRESETS[name as keyof typeof MAPPING_PRESETS], preset, name);
  }
  t.same(Object.keys(MAPPING_PRESETS), MAPPING_PRESET_NAMES, 'in the spec order');
});

t.test("an API's preset exists; its paths are patterns", async (t) => {
  for (const v of vendors) {
    for (const [name, api] of Object.entries(v.apis)) {
      if (api.preset !== undefined) t.ok(MAPPING_PRESET_NAMES.includes(api.preset), `${v.id}.${name}`);
      t.ok(api.paths.length > 0 && api.paths.every((p) => p.startsWith('/')), `${v.id}.${name} paths`);
      t.ok(api.errorBody !== undefined || v.errorBody !== undefined, `${v.id}.${name} has an error body`);
    }
  }
});

t.test('stream tables: conditional rules first, every streaming vendor present', async (t) => {
  t.same(
    DELTA_RULES.map((r) => r.name),
    ['messages content_block_delta', 'v2 chat content-delta', 'chat.completion.chunk', 'legacy completions', 'gemini streamGenerateContent', 'ollama chat', 'ollama generate', 'foundationModels completion'],
  );
  t.same(END_MARKERS.map((m) => m.name), ['data: [DONE]', 'vendor_b message_stop event', 'vendor_b message_stop frame', 'vendor_e message-end event', 'vendor_e message-end frame', 'vendor_g done line']);
  t.same(STREAM_CODECS.map((c) => c.pathSuffixes[0]), ['/chat/completions', '/responses', '/messages', ':streamGenerateContent', '/v2/chat', '/api/chat', '/api/generate', '/foundationModels/v1/completion']);
});

t.test('usage fields: every vendor name in every usage object, own-name places after', async (t) => {
  t.same(USAGE_FIELDS.objects, [['usage'], ['message', 'usage'], ['meta', 'billed_units'], ['usage', 'billed_units'], ['delta', 'usage', 'billed_units']]);
  t.same(USAGE_FIELDS.input, ['prompt_tokens', 'input_tokens', 'inputTokens', 'promptTokens']);
  t.same(USAGE_FIELDS.output, ['completion_tokens', 'output_tokens', 'outputTokens', 'completionTokens']);
  t.same(USAGE_FIELDS.counts.map((c) => c.input), ['promptTokenCount', 'prompt_eval_count', 'inputTextTokens']);
  t.same([...USAGE_FIELDS.markers].sort(), ['TokenCount', 'billed_units', 'eval_count', 'usage']);
});
