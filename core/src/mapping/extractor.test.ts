import t from 'tap';
import { EXTRACTION_EMPTY_WARNING, compileMapping, compileProviderMapping, isExtractionEmpty } from './extractor.js';
import { replaceAllAt, replaceAt } from './json-pointer.js';
import { FieldMappingError, resolveMapping } from './resolve-mapping.js';
import { MAPPING_PRESET_NAMES, TOOL_ARGUMENT_PATHS, type MappingPresetName } from './presets.js';

interface Case {
  request: unknown;
  response: unknown;
  prompt: string;
  system: string;
  user: string[];
  model: string | null;
  answer: string;
}

const chatRequest = (model: string | undefined) => ({
  ...(model ? { model } : {}),
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'What is the capital of France?' },
    { role: 'assistant', content: 'Paris.' },
    { role: 'user', content: 'And of Spain?' },
  ],
  temperature: 0.2,
  stream: false,
});
const chatResponse = (content: string) => ({
  id: 'chatcmpl-9x',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 30, completion_tokens: 2, total_tokens: 32 },
});
const chatCase = (model: string | undefined, answer: string): Case => ({
  request: chatRequest(model),
  response: chatResponse(answer),
  prompt: 'You are a helpful assistant.\nWhat is the capital of France?\nParis.\nAnd of Spain?',
  system: 'You are a helpful assistant.',
  user: ['What is the capital of France?', 'And of Spain?'],
  model: model ?? null,
  answer,
});

// One realistic request and response per preset.
const CASES: Record<MappingPresetName, Case> = {
  vendor_a_chat_completions: {
    request: {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this image?' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
          ],
        },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'tool output' },
      ],
    },
    response: chatResponse('A cat on a sofa.'),
    prompt: 'You are a helpful assistant.\nWhat is in this image?\ntool output',
    system: 'You are a helpful assistant.',
    user: ['What is in this image?'],
    model: 'gpt-4o',
    answer: 'A cat on a sofa.',
  },
  vendor_a_completions: {
    request: { model: 'gpt-3.5-turbo-instruct', prompt: 'Say this is a test', max_tokens: 7 },
    response: { id: 'cmpl-1', object: 'text_completion', choices: [{ text: 'This is a test.', index: 0, finish_reason: 'stop' }] },
    prompt: 'Say this is a test',
    system: '',
    user: [],
    model: 'gpt-3.5-turbo-instruct',
    answer: 'This is a test.',
  },
  vendor_a_responses: {
    request: {
      model: 'gpt-4.1',
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Look up the order' }, { type: 'input_image', image_url: 'https://x/y.png' }] },
        { type: 'function_call', call_id: 'c1', name: 'lookup', arguments: '{"id":7}' },
        { type: 'function_call_output', call_id: 'c1', output: 'order 7 shipped' },
        { role: 'user', content: 'thanks' },
      ],
    },
    response: { id: 'resp_1', object: 'response', output: [{ type: 'reasoning', summary: [] }, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'It shipped.' }] }] },
    prompt: 'Look up the order\norder 7 shipped\nthanks',
    system: 'Be brief.',
    user: ['Look up the order', 'thanks'],
    model: 'gpt-4.1',
    answer: 'It shipped.',
  },
  vendor_b_messages: {
    request: {
      model: 'claude-sonnet-4',
      max_tokens: 1024,
      system: 'Answer in one word.',
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: [{ type: 'text', text: 'Hi' }] },
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'text', text: 'Describe this picture' },
          ],
        },
      ],
    },
    response: {
      id: 'msg_01',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4',
      content: [{ type: 'text', text: 'Sunset.' }],
      stop_reason: 'end_turn',
    },
    prompt: 'Hello\nHi\nDescribe this picture',
    system: 'Answer in one word.',
    user: ['Hello', 'Describe this picture'],
    model: 'claude-sonnet-4',
    answer: 'Sunset.',
  },
  vendor_b_completions: {
    request: { model: 'claude-2.1', prompt: '\n\nHuman: Tell me a joke\n\nAssistant:', max_tokens_to_sample: 256 },
    response: { type: 'completion', completion: ' Why did the chicken cross the road?', stop_reason: 'stop_sequence' },
    prompt: '\n\nHuman: Tell me a joke\n\nAssistant:',
    system: '',
    user: [],
    model: 'claude-2.1',
    answer: ' Why did the chicken cross the road?',
  },
  // Deployment-style URLs carry the model; the body usually has none.
  vendor_c_chat: chatCase(undefined, 'Madrid.'),
  vendor_i_chat: {
    ...chatCase('GigaChat', 'Мадрид.'),
    request: {
      model: 'GigaChat',
      messages: [
        { role: 'system', content: 'Ты полезный ассистент.' },
        { role: 'user', content: 'Какая столица Испании?' },
      ],
    },
    prompt: 'Ты полезный ассистент.\nКакая столица Испании?',
    system: 'Ты полезный ассистент.',
    user: ['Какая столица Испании?'],
  },
  vendor_j_gpt: {
    request: {
      modelUri: 'gpt://b1gexample/yandexgpt-lite/latest',
      completionOptions: { stream: false, temperature: 0.6, maxTokens: '2000' },
      messages: [
        { role: 'system', text: 'Ты ассистент-переводчик.' },
        { role: 'user', text: 'Переведи: hello' },
      ],
    },
    response: {
      result: {
        alternatives: [{ message: { role: 'assistant', text: 'Привет' }, status: 'ALTERNATIVE_STATUS_FINAL' }],
        usage: { inputTextTokens: '20', completionTokens: '2', totalTokens: '22' },
        modelVersion: '23.10.2024',
      },
    },
    prompt: 'Ты ассистент-переводчик.\nПереведи: hello',
    system: 'Ты ассистент-переводчик.',
    user: ['Переведи: hello'],
    model: 'gpt://b1gexample/yandexgpt-lite/latest',
    answer: 'Привет',
  },
  vendor_d_palm: {
    request: { model: 'models/text-bison-001', prompt: { text: 'Write a haiku about rain' }, temperature: 0.7 },
    response: { candidates: [{ output: 'Soft rain on the roof', safetyRatings: [] }] },
    prompt: 'Write a haiku about rain',
    system: '',
    user: [],
    model: 'models/text-bison-001',
    answer: 'Soft rain on the roof',
  },
  vendor_d_gemini: {
    request: {
      systemInstruction: { parts: [{ text: 'You are a cat.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Hello there' }] },
        { role: 'model', parts: [{ text: 'Meow' }] },
        { role: 'user', parts: [{ text: 'Who are you?' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
      ],
      generationConfig: { temperature: 1 },
    },
    response: {
      candidates: [{ content: { role: 'model', parts: [{ text: 'I am a cat.' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 5 },
    },
    prompt: 'Hello there\nMeow\nWho are you?',
    system: 'You are a cat.',
    user: ['Hello there', 'Who are you?'],
    model: null,
    answer: 'I am a cat.',
  },
  vendor_e_generate: {
    request: { model: 'command', prompt: 'Write a tagline for a coffee shop', max_tokens: 20 },
    response: { id: 'g1', generations: [{ id: 'g1-0', text: 'Brewed for you.' }], prompt: 'Write a tagline for a coffee shop' },
    prompt: 'Write a tagline for a coffee shop',
    system: '',
    user: [],
    model: 'command',
    answer: 'Brewed for you.',
  },
  vendor_e_chat: {
    request: {
      model: 'command-r-plus',
      messages: [
        { role: 'system', content: 'You are formal.' },
        { role: 'user', content: [{ type: 'text', text: 'Greet me' }] },
      ],
    },
    response: {
      id: 'c-1',
      finish_reason: 'COMPLETE',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Good day.' },
          { type: 'text', text: 'How may I help?' },
        ],
      },
      usage: { tokens: { input_tokens: 10, output_tokens: 6 } },
    },
    prompt: 'You are formal.\nGreet me',
    system: 'You are formal.',
    user: ['Greet me'],
    model: 'command-r-plus',
    answer: 'Good day.\nHow may I help?',
  },
  vendor_f_inference: {
    request: { inputs: 'The answer to the universe is', parameters: { max_new_tokens: 20 } },
    response: [{ generated_text: 'The answer to the universe is 42.' }],
    prompt: 'The answer to the universe is',
    system: '',
    user: [],
    model: null,
    answer: 'The answer to the universe is 42.',
  },
  vendor_g_chat: {
    request: {
      model: 'llama3.1',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Why is the sky blue?' },
      ],
      stream: false,
    },
    response: {
      model: 'llama3.1',
      created_at: '2025-03-01T10:00:00Z',
      message: { role: 'assistant', content: 'Rayleigh scattering.' },
      done: true,
    },
    prompt: 'Be brief.\nWhy is the sky blue?',
    system: 'Be brief.',
    user: ['Why is the sky blue?'],
    model: 'llama3.1',
    answer: 'Rayleigh scattering.',
  },
  vendor_h_chat: chatCase('meta-llama/Llama-3.1-8B-Instruct', 'Madrid.'),
  custom_simple: {
    request: { model: 'house-model-7b', prompt: 'Hello, model' },
    response: { response: 'Hello, human' },
    prompt: 'Hello, model',
    system: '',
    user: [],
    model: 'house-model-7b',
    answer: 'Hello, human',
  },
  image_vendor_k: {
    request: { model: 'flux-pro', prompt: 'A red fox in the snow', width: 1024, height: 768 },
    response: { images: [{ url: 'https://cdn.example.com/gen/fox.png', seed: 42 }] },
    prompt: 'A red fox in the snow',
    system: '',
    user: [],
    model: 'flux-pro',
    answer: 'https://cdn.example.com/gen/fox.png',
  },
  image_vendor_a_compatible: {
    request: { model: 'dall-e-3', prompt: 'A cat astronaut', n: 1, size: '1024x1024' },
    response: { created: 1700000000, data: [{ url: 'https://images.example.com/cat.png', revised_prompt: 'A cat in a suit' }] },
    prompt: 'A cat astronaut',
    system: '',
    user: [],
    model: 'dall-e-3',
    answer: 'https://images.example.com/cat.png',
  },
  image_vendor_l: {
    request: {
      version: '5c7d5dc6dd8bf75c1acaa8565735e7986bc5b66206b55cca93cb72c9bf15ccaa',
      input: { prompt: 'an astronaut riding a horse', num_outputs: 1 },
    },
    response: { id: 'p1', status: 'succeeded', output: ['https://replicate.example/out-0.png'] },
    prompt: 'an astronaut riding a horse',
    system: '',
    user: [],
    model: '5c7d5dc6dd8bf75c1acaa8565735e7986bc5b66206b55cca93cb72c9bf15ccaa',
    answer: 'https://replicate.example/out-0.png',
  },
  serving_vendor_m_inference: {
    request: {
      inputs: [
        { name: 'steps', shape: [1], datatype: 'INT32', data: [30] },
        { name: 'prompt', shape: [1], datatype: 'BYTES', data: ['a watercolor lighthouse'] },
      ],
    },
    response: {
      model_name: 'sdxl',
      outputs: [
        { name: 'seed', datatype: 'INT64', shape: [1], data: [7] },
        { name: 'generated_image', datatype: 'BYTES', shape: [1], data: ['iVBORw0KGgoAAAANSUhEUg=='] },
      ],
    },
    prompt: 'a watercolor lighthouse',
    system: '',
    user: [],
    model: null,
    answer: 'iVBORw0KGgoAAAANSUhEUg==',
  },
  serving_vendor_m_text_generation: {
    request: {
      inputs: [
        { name: 'prompt', shape: [1], datatype: 'BYTES', data: ['What is an inference server?'] },
        { name: 'model', shape: [1], datatype: 'BYTES', data: ['llama-3-8b'] },
      ],
    },
    response: { outputs: [{ name: 'text', datatype: 'BYTES', shape: [1], data: ['A server that runs models.'] }] },
    prompt: 'What is an inference server?',
    system: '',
    user: [],
    model: 'llama-3-8b',
    answer: 'A server that runs models.',
  },
};

t.test('every preset extracts prompt, system prompt, user messages, model and answer', async (t) => {
  t.same(Object.keys(CASES).sort(), [...MAPPING_PRESET_NAMES].sort(), 'one case per preset');
  for (const [name, c] of Object.entries(CASES)) {
    const m = compileMapping(resolveMapping(name));
    const req = m.extractRequest(c.request);
    t.equal(req.prompt, c.prompt, `${name} prompt`);
    t.equal(req.system_prompt, c.system, `${name} system prompt`);
    t.same(req.user_messages, c.user, `${name} user messages`);
    t.equal(req.model, c.model, `${name} model`);
    t.equal(m.extractResponse(c.response).text, c.answer, `${name} response`);
    t.notOk(isExtractionEmpty(req), `${name} found a prompt`);
  }
});

t.test('vendor_b: a system prompt given as blocks', async (t) => {
  const m = compileProviderMapping({ mapping_preset: 'vendor_b_messages' });
  const req = m.extractRequest({
    model: 'claude',
    system: [
      { type: 'text', text: 'Rule one.' },
      { type: 'text', text: 'Rule two.', cache_control: { type: 'ephemeral' } },
    ],
    messages: [{ role: 'user', content: 'Hi' }],
  });
  t.equal(req.system_prompt, 'Rule one.\nRule two.');
});

t.test('prompt_parts point at every text, and round-trip through replaceAt', async (t) => {
  const body = CASES.vendor_a_chat_completions.request as Record<string, unknown>;
  const before = structuredClone(body);
  const m = compileMapping(resolveMapping('vendor_a_chat_completions'));
  const { prompt_parts } = m.extractRequest(body);
  t.same(prompt_parts, [
    { pointer: ['messages', 0, 'content'], text: 'You are a helpful assistant.' },
    { pointer: ['messages', 1, 'content', 0, 'text'], text: 'What is in this image?' },
    { pointer: ['messages', 3, 'content'], text: 'tool output' },
  ]);
  const masked = replaceAt(body, ['messages', 1, 'content', 0, 'text'], 'What is in [IMAGE]?');
  t.same(body, before, 'the input body is not changed');
  t.equal(m.extractRequest(masked).prompt, 'You are a helpful assistant.\nWhat is in [IMAGE]?\ntool output');
  t.same(
    (masked as { messages: { content: unknown }[] }).messages[1]?.content,
    [
      { type: 'text', text: 'What is in [IMAGE]?' },
      { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
    ],
    'siblings are kept',
  );
  t.equal((masked as typeof body).messages === body.messages, false, 'containers on the path are copied');

  const all = replaceAllAt(body, prompt_parts.map((p) => ({ ...p, text: p.text.toUpperCase() })));
  t.equal(m.extractRequest(all).prompt, 'YOU ARE A HELPFUL ASSISTANT.\nWHAT IS IN THIS IMAGE?\nTOOL OUTPUT');

  for (const [name, c] of Object.entries(CASES)) {
    const cm = compileMapping(resolveMapping(name));
    const parts = cm.extractRequest(c.request).prompt_parts;
    const out = replaceAllAt(c.request, parts.map((p) => ({ pointer: p.pointer, text: `<${p.text}>` })));
    t.same(cm.extractRequest(out).prompt_parts.map((p) => p.text), parts.map((p) => `<${p.text}>`), `${name} round-trip`);
    const resp = cm.extractResponse(c.response);
    const outResp = replaceAllAt(c.response, resp.parts.map((p) => ({ pointer: p.pointer, text: 'X' })));
    t.same(cm.extractResponse(outResp).parts.map((p) => p.text), resp.parts.map(() => 'X'), `${name} response round-trip`);
  }
});

t.test('replaceAt edge cases', async (t) => {
  t.same(replaceAt([{ generated_text: 'a' }], [0, 'generated_text'], 'b'), [{ generated_text: 'b' }]);
  t.equal(replaceAt('whole', [], 'new'), 'new');
  t.throws(() => replaceAt({ a: 1 }, ['b', 'c'], 'x'), RangeError);
  t.throws(() => replaceAt({ a: [] }, ['a', 0], 'x'), RangeError);
  const evil = JSON.parse('{"__proto__": {"text": "hi"}}') as Record<string, unknown>;
  const out = replaceAt(evil, ['__proto__', 'text'], 'masked') as Record<string, unknown>;
  t.equal(Object.getPrototypeOf(out), Object.prototype, 'no prototype change');
  t.same(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { text: 'masked' });
  t.equal(({} as Record<string, unknown>).text, undefined, 'Object.prototype untouched');
});

t.test('custom mappings: the spec JSONPath forms', async (t) => {
  const body = {
    field: 'top',
    array: [
      { key: 'other', field: 'first' },
      { key: 'value', field: 'second' },
    ],
    'a/b': { 'c~d': 'escaped' },
  };
  const prompt = (path: string) => compileMapping({ prompt_path: path }).extractRequest(body).prompt;
  t.equal(prompt('$.field'), 'top');
  t.equal(prompt('$.array[0].field'), 'first');
  t.equal(prompt('$.array[*].field'), 'first\nsecond');
  t.equal(prompt("$.array[?(@.key=='value')].field"), 'second');
  t.equal(prompt('array[1].field'), 'second', 'the short form is accepted');
  const escaped = compileMapping({ prompt_path: "$['a/b']['c~d']" }).extractRequest(body);
  t.same(escaped.prompt_parts, [{ pointer: ['a/b', 'c~d'], text: 'escaped' }]);
  t.same(replaceAt(body, escaped.prompt_parts[0]!.pointer, 'E')['a/b'], { 'c~d': 'E' });
  const objectKeys = compileMapping({ prompt_path: "$.inputs['0']" }).extractRequest({ inputs: { '0': 'keyed' } });
  t.same(objectKeys.prompt_parts, [{ pointer: ['inputs', '0'], text: 'keyed' }], 'numeric object keys stay strings');
});

t.test('custom paths overwrite same-named preset paths', async (t) => {
  const resolved = resolveMapping('vendor_a_chat_completions', { prompt_path: "$.messages[?(@.role=='user')].content", response_path: 'output.text', model_path: '' });
  t.same(resolved, {
    prompt_path: "$.messages[?(@.role=='user')].content",
    system_prompt_path: "$.messages[?(@.role=='system')].content",
    user_messages_path: "$.messages[?(@.role=='user')]",
    model_path: '$.model',
    response_path: '$.output.text',
    // The preset's tool-call argument paths stay: custom paths give the five fields only.
    tool_arguments: TOOL_ARGUMENT_PATHS.vendor_a_chat_completions,
  });
  const m = compileMapping(resolved);
  t.equal(m.extractRequest(chatRequest('gpt-4o')).prompt, 'What is the capital of France?\nAnd of Spain?');
  t.equal(m.extractResponse({ output: { text: 'ok' } }).text, 'ok');
  const customOnly = resolveMapping(null, { prompt_path: '$.q' });
  t.same(customOnly, { prompt_path: '$.q', system_prompt_path: null, user_messages_path: null, model_path: null, response_path: null });
});

t.test('missing or unknown mappings throw a typed error', async (t) => {
  const reason = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return e instanceof FieldMappingError ? `${e.code}:${e.reason}` : 'other';
    }
    return 'none';
  };
  t.equal(reason(() => resolveMapping()), 'MISSING_FIELD_MAPPING:missing');
  t.equal(reason(() => resolveMapping(null, null)), 'MISSING_FIELD_MAPPING:missing');
  t.equal(reason(() => resolveMapping('vendor_x_chat')), 'MISSING_FIELD_MAPPING:unknown_preset');
  t.equal(reason(() => resolveMapping(null, { model_path: '$.model' })), 'MISSING_FIELD_MAPPING:missing_prompt_path');
  t.equal(reason(() => compileProviderMapping({ mapping_preset: null, mapping_custom: null })), 'MISSING_FIELD_MAPPING:missing');
});

t.test('a wrong preset yields empty text', async (t) => {
  t.equal(EXTRACTION_EMPTY_WARNING, 'failed to extract prompt');
  const m = compileMapping(resolveMapping('vendor_b_completions'));
  const req = m.extractRequest(chatRequest('gpt-4o'));
  t.same(req, { prompt: '', system_prompt: '', user_messages: [], model: 'gpt-4o', prompt_parts: [] });
  t.ok(isExtractionEmpty(req));
  t.equal(m.extractResponse(chatResponse('x')).text, '');
  const gemini = compileMapping(resolveMapping('vendor_d_gemini'));
  t.ok(isExtractionEmpty(gemini.extractRequest(chatRequest('gpt-4o'))));
  t.ok(isExtractionEmpty({ prompt: '  \n ' }), 'whitespace only counts as empty');
});

t.test('bodies of the wrong kind and non-text values extract nothing', async (t) => {
  const m = compileMapping(resolveMapping('vendor_a_chat_completions'));
  for (const body of [null, undefined, '', 'plain text', 42, [], {}, { messages: 'nope' }]) {
    t.ok(isExtractionEmpty(m.extractRequest(body)), JSON.stringify(body) ?? 'undefined');
    t.equal(m.extractResponse(body).text, '');
  }
  const odd = m.extractRequest({ messages: [{ role: 'user', content: 12 }, { role: 'user', content: [{ type: 'image_url', image_url: {} }] }, { role: 'user', content: true }] });
  t.equal(odd.prompt, '');
  t.same(odd.user_messages, []);
  t.equal(compileMapping({ prompt_path: '$.p', model_path: '$.m' }).extractRequest({ p: 'x', m: { name: 'obj' } }).model, null);
});

t.test('a broken filter expression extracts nothing instead of throwing', async (t) => {
  const m = compileMapping({ prompt_path: '$.a[?(@.x==)]' });
  t.equal(m.extractRequest({ a: [{ x: 1 }] }).prompt, '');
});

t.test('compiled mappings are reusable', async (t) => {
  const m = compileProviderMapping({ mapping_preset: 'vendor_a_chat_completions', mapping_custom: null });
  const a = m.extractRequest(chatRequest('m1'));
  const b = m.extractRequest(chatRequest('m2'));
  t.equal(a.model, 'm1');
  t.equal(b.model, 'm2');
  t.equal(a.prompt, b.prompt);
  t.equal(m.mapping.response_path, '$.choices[0].message.content');
});
