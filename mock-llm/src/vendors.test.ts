// One test per vendor format: response shape and the echo of the prompt that was sent.
import t from 'tap';
import { call, startMock } from './testing/index.js';

t.test('vendor_a chat completions', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/v1/chat/completions`, {
    body: { model: 'gpt-x', messages: [{ role: 'system', content: 'be nice' }, { role: 'user', content: 'hello there' }] },
  });
  t.equal(r.status, 200);
  t.match(r.headers.get('content-type'), /application\/json/);
  t.equal(r.json.object, 'chat.completion');
  t.type(r.json.id, 'string');
  t.type(r.json.created, 'number');
  t.equal(r.json.model, 'gpt-x');
  t.same(r.json.choices[0].message, { role: 'assistant', content: 'Echo: hello there', refusal: null });
  t.equal(r.json.choices[0].finish_reason, 'stop');
  t.type(r.json.usage.total_tokens, 'number');
});

t.test('vendor_a chat reads content parts of the last user message', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/v1/chat/completions`, {
    body: { messages: [{ role: 'user', content: 'first' }, { role: 'assistant', content: 'x' }, { role: 'user', content: [{ type: 'text', text: 'second' }] }] },
  });
  t.equal(r.json.choices[0].message.content, 'Echo: second');
  t.equal(r.json.model, 'mock-model');
});

t.test('vendor_a legacy completions', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/v1/completions`, { body: { model: 'davinci', prompt: 'complete me' } });
  t.equal(r.json.object, 'text_completion');
  t.equal(r.json.choices[0].text, 'Echo: complete me');
});

t.test('vendor_h (vLLM) is vendor_a compatible, also under /vendor_h', async (t) => {
  const { url, mock } = await startMock(t);
  for (const path of ['/v1/chat/completions', '/vendor_h/v1/chat/completions']) {
    const r = await call(`${url}${path}`, { body: { model: 'llama', messages: [{ role: 'user', content: 'hi vllm' }] } });
    t.equal(r.json.choices[0].message.content, 'Echo: hi vllm', path);
  }
  t.same(mock.requests.map((q) => q.route), ['vendor_a.chat', 'vendor_h.chat']);
  const models = await call(`${url}/vendor_h/v1/models`);
  t.equal(models.json.object, 'list');
});

t.test('vendor_b messages with top-level system', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/v1/messages`, {
    body: { model: 'claude-x', max_tokens: 100, system: 'sys', messages: [{ role: 'user', content: [{ type: 'text', text: 'bonjour' }] }] },
  });
  t.equal(r.status, 200);
  t.equal(r.json.type, 'message');
  t.equal(r.json.role, 'assistant');
  t.equal(r.json.model, 'claude-x');
  t.same(r.json.content, [{ type: 'text', text: 'Echo: bonjour' }]);
  t.equal(r.json.stop_reason, 'end_turn');
  t.type(r.json.usage.input_tokens, 'number');
});

t.test('vendor_b legacy complete', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/v1/complete`, { body: { model: 'claude-2', prompt: '\n\nHuman: old style\n\nAssistant:', max_tokens_to_sample: 10 } });
  t.equal(r.json.type, 'completion');
  t.equal(r.json.completion, 'Echo: old style');
});

t.test('vendor_c (Azure-style) deployment URL with api-key', async (t) => {
  const { url } = await startMock(t);
  const path = `${url}/openai/deployments/my-gpt/chat/completions?api-version=2024-02-01`;
  const body = { messages: [{ role: 'user', content: 'azure hi' }] };
  const ok = await call(path, { body, headers: { 'api-key': 'k1' } });
  t.equal(ok.status, 200);
  t.equal(ok.json.object, 'chat.completion');
  t.equal(ok.json.model, 'my-gpt');
  t.equal(ok.json.choices[0].message.content, 'Echo: azure hi');

  const noKey = await call(path, { body });
  t.equal(noKey.status, 401);
  t.equal(noKey.json.error.code, '401');
  t.type(noKey.json.error.message, 'string');

  const noVersion = await call(`${url}/openai/deployments/my-gpt/chat/completions`, { body, headers: { 'api-key': 'k1' } });
  t.equal(noVersion.status, 400);
  t.equal(noVersion.json.error.code, 'MissingApiVersionParameter');

  const completions = await call(`${url}/openai/deployments/my-gpt/completions?api-version=2024-02-01`, { body: { prompt: 'p' }, headers: { 'api-key': 'k1' } });
  t.equal(completions.json.choices[0].text, 'Echo: p');
});

t.test('vendor_c with a configured api-key rejects other keys', async (t) => {
  const { url } = await startMock(t, { vendorCApiKey: 'right' });
  const path = `${url}/openai/deployments/d/chat/completions?api-version=1`;
  const body = { messages: [{ role: 'user', content: 'x' }] };
  t.equal((await call(path, { body, headers: { 'api-key': 'wrong' } })).status, 401);
  t.equal((await call(path, { body, headers: { 'api-key': 'right' } })).status, 200);
});

t.test('vendor_d gemini generateContent', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/v1beta/models/gemini-1.5-pro:generateContent`, {
    body: { systemInstruction: { parts: [{ text: 'sys' }] }, contents: [{ role: 'user', parts: [{ text: 'hola ' }, { text: 'gemini' }] }] },
  });
  t.equal(r.status, 200);
  t.same(r.json.candidates[0].content, { parts: [{ text: 'Echo: hola gemini' }], role: 'model' });
  t.equal(r.json.candidates[0].finishReason, 'STOP');
  t.equal(r.json.modelVersion, 'gemini-1.5-pro');
  t.type(r.json.usageMetadata.totalTokenCount, 'number');

  const unknown = await call(`${url}/v1beta/models/gemini-1.5-pro:countTokens`, { body: { contents: [] } });
  t.equal(unknown.status, 404);
  t.equal(unknown.json.error.status, 'NOT_FOUND');
});

t.test('vendor_d palm generateText', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/v1beta2/models/text-bison-001:generateText`, { body: { prompt: { text: 'old palm' } } });
  t.equal(r.status, 200);
  t.equal(r.json.candidates[0].output, 'Echo: old palm');
});

t.test('vendor_e generate and chat', async (t) => {
  const { url } = await startMock(t);
  const gen = await call(`${url}/v1/generate`, { body: { model: 'command', prompt: 'cohere gen' } });
  t.equal(gen.json.generations[0].text, 'Echo: cohere gen');
  const chat = await call(`${url}/v2/chat`, { body: { model: 'command-r', messages: [{ role: 'user', content: 'cohere chat' }] } });
  t.same(chat.json.message.content, [{ type: 'text', text: 'Echo: cohere chat' }]);
  t.equal(chat.json.message.role, 'assistant');
  t.equal(chat.json.finish_reason, 'COMPLETE');
  const v1 = await call(`${url}/v1/chat`, { body: { message: 'v1 chat' } });
  t.equal(v1.json.text, 'Echo: v1 chat');
});

t.test('vendor_f HF inference with an owner/name model', async (t) => {
  const { url, mock } = await startMock(t);
  const r = await call(`${url}/models/mistralai/Mistral-7B`, { body: { inputs: 'hub prompt', parameters: {} } });
  t.equal(r.status, 200);
  t.same(r.json, [{ generated_text: 'Echo: hub prompt' }]);
  t.equal(mock.requests[0]?.route, 'vendor_f.inference');
});

t.test('vendor_g ollama chat and generate', async (t) => {
  const { url } = await startMock(t);
  const chat = await call(`${url}/api/chat`, { body: { model: 'llama3', messages: [{ role: 'user', content: 'local' }], stream: false } });
  t.equal(chat.json.model, 'llama3');
  t.same(chat.json.message, { role: 'assistant', content: 'Echo: local' });
  t.equal(chat.json.done, true);
  const gen = await call(`${url}/api/generate`, { body: { model: 'llama3', prompt: 'gen local', stream: false } });
  t.equal(gen.json.response, 'Echo: gen local');
  const tags = await call(`${url}/api/tags`);
  t.equal(tags.status, 200);
});

t.test('vendor_j yandex completion', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/foundationModels/v1/completion`, {
    body: { modelUri: 'gpt://folder/yandexgpt/latest', completionOptions: { stream: false }, messages: [{ role: 'system', text: 's' }, { role: 'user', text: 'privet' }] },
  });
  t.equal(r.status, 200);
  t.same(r.json.result.alternatives[0], { message: { role: 'assistant', text: 'Echo: privet' }, status: 'ALTERNATIVE_STATUS_FINAL' });
  t.type(r.json.result.usage.totalTokens, 'string');
  t.type(r.json.result.modelVersion, 'string');
});

t.test('image_vendor_a_compatible generations', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/v1/images/generations`, { body: { model: 'dall-e', prompt: 'a red cat', n: 2 } });
  t.equal(r.status, 200);
  t.type(r.json.created, 'number');
  t.equal(r.json.data.length, 2);
  const imageUrl = new URL(r.json.data[0].url);
  t.equal(imageUrl.searchParams.get('prompt'), 'a red cat');
  const png = await fetch(imageUrl);
  t.equal(png.headers.get('content-type'), 'image/png');
  t.ok((await png.arrayBuffer()).byteLength > 0);
  const b64 = await call(`${url}/v1/images/generations`, { body: { prompt: 'x', response_format: 'b64_json' } });
  t.type(b64.json.data[0].b64_json, 'string');
});

t.test('image_vendor_k generate', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/image_vendor_k/v1/generate`, { body: { model: 'k1', prompt: 'blue dog' } });
  t.equal(new URL(r.json.images[0].url).searchParams.get('prompt'), 'blue dog');
});

t.test('image_vendor_l predictions', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/v1/predictions`, { body: { version: 'abc123', input: { prompt: 'green owl' } } });
  t.equal(r.status, 200);
  t.equal(r.json.status, 'succeeded');
  t.type(r.json.id, 'string');
  t.equal(r.json.version, 'abc123');
  t.equal(new URL(r.json.output[0]).searchParams.get('prompt'), 'green owl');
  const again = await call(`${url}/v1/predictions/${r.json.id}`);
  t.same(again.json.output, r.json.output);
  t.equal((await call(`${url}/v1/predictions/nope`)).status, 404);
});

t.test('serving_vendor_m text model', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/v2/models/llm/infer`, {
    body: {
      id: 'req-1',
      inputs: [
        { name: 'prompt', datatype: 'BYTES', shape: [1], data: ['triton text'] },
        { name: 'model', datatype: 'BYTES', shape: [1], data: ['llama'] },
      ],
    },
  });
  t.equal(r.status, 200);
  t.equal(r.json.model_name, 'llm');
  t.equal(r.json.id, 'req-1');
  t.same(r.json.outputs, [{ name: 'text', datatype: 'BYTES', shape: [1], data: ['Echo: triton text'] }]);
  t.equal((await call(`${url}/v2/health/ready`)).status, 200);
});

t.test('serving_vendor_m image model', async (t) => {
  const { url } = await startMock(t);
  const input = [{ name: 'prompt', datatype: 'BYTES', shape: [1], data: ['a castle'] }];
  const byName = await call(`${url}/v2/models/stable-diffusion/versions/2/infer`, { body: { inputs: input } });
  t.equal(byName.json.outputs[0].name, 'generated_image');
  t.equal(byName.json.model_version, '2');
  t.equal(new URL(byName.json.outputs[0].data[0]).searchParams.get('prompt'), 'a castle');
  const byOutput = await call(`${url}/v2/models/m/infer`, { body: { inputs: input, outputs: [{ name: 'generated_image' }] } });
  t.equal(byOutput.json.outputs[0].name, 'generated_image');
});

t.test('custom_simple /custom and /generate', async (t) => {
  const { url } = await startMock(t);
  for (const path of ['/custom', '/generate']) {
    const r = await call(`${url}${path}`, { body: { prompt: 'simple', model: 'm1' } });
    t.same(r.json, { response: 'Echo: simple', model: 'm1' }, path);
  }
});
