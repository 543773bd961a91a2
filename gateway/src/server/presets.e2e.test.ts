// Every mapping preset against its vendor's real request and answer: the call goes through the
// gateway to the mock's route for that vendor, and the preset's paths are checked on the body the
// backend received and on the answer the client got. vendor_c uses its api-key header and vendor_i
// OAuth 2.0 client credentials, both from sealed upstream_auth secrets.
import t from 'tap';
import { compileProviderMapping, MAPPING_PRESET_NAMES, type MappingPresetName } from '@palisade/core';
import { forOneDatabase } from '@palisade/core/testing';
import { startStack } from '../testing/stack.js';

interface PresetCase {
  path: string;
  body: Record<string, unknown>;
  prompt: string;
  /** The answer text the response path must yield (a substring); null: any non-empty text (image URLs). */
  response: string | null;
  provider_type?: string;
  upstream_auth?: Record<string, unknown>;
}

const user = (content: unknown) => ({ role: 'user', content });

function cases(mockUrl: string): Record<MappingPresetName, PresetCase> {
  return {
    vendor_a_chat_completions: {
      path: '/v1/chat/completions',
      body: { model: 'gpt-x', messages: [{ role: 'system', content: 'be brief' }, user('chat a')] },
      prompt: 'chat a',
      response: 'Echo: chat a',
      provider_type: 'vendor_a',
    },
    vendor_b_messages: {
      path: '/v1/messages',
      body: { model: 'claude-x', max_tokens: 64, system: 'be brief', messages: [user([{ type: 'text', text: 'chat b' }])] },
      prompt: 'chat b',
      response: 'Echo: chat b',
      provider_type: 'vendor_b',
    },
    vendor_c_chat: {
      path: '/openai/deployments/gpt4/chat/completions?api-version=2024-02-01',
      body: { messages: [user('chat c')] },
      prompt: 'chat c',
      response: 'Echo: chat c',
      provider_type: 'vendor_c',
      upstream_auth: { type: 'api_key_header', header: 'api-key', key: 'azure-secret' },
    },
    vendor_i_chat: {
      path: '/api/v1/chat/completions',
      body: { model: 'GigaChat', messages: [user('chat i')] },
      prompt: 'chat i',
      response: 'Echo: chat i',
      provider_type: 'vendor_i',
      upstream_auth: { type: 'oauth2_client_credentials', token_url: `${mockUrl}/api/v2/oauth`, client_id: 'mock-client', client_secret: 'mock-secret', scope: 'GIGACHAT_API_PERS' },
    },
    vendor_j_gpt: {
      path: '/foundationModels/v1/completion',
      body: { modelUri: 'gpt://folder/yandexgpt/latest', messages: [{ role: 'system', text: 's' }, { role: 'user', text: 'chat j' }] },
      prompt: 'chat j',
      response: 'Echo: chat j',
    },
    vendor_a_completions: { path: '/v1/completions', body: { model: 'davinci', prompt: 'legacy a' }, prompt: 'legacy a', response: 'Echo: legacy a' },
    vendor_a_responses: {
      path: '/v1/responses',
      body: { model: 'gpt-4.1', instructions: 'sys', input: [{ role: 'user', content: [{ type: 'input_text', text: 'responses a' }] }] },
      prompt: 'responses a',
      response: 'Echo: responses a',
    },
    vendor_b_completions: {
      path: '/v1/complete',
      body: { model: 'claude-2', prompt: '\n\nHuman: legacy b\n\nAssistant:', max_tokens_to_sample: 10 },
      prompt: 'legacy b',
      response: 'Echo: legacy b',
    },
    vendor_d_palm: { path: '/v1beta2/models/text-bison-001:generateText', body: { prompt: { text: 'palm d' } }, prompt: 'palm d', response: 'Echo: palm d' },
    vendor_d_gemini: {
      path: '/v1beta/models/gemini-1.5-pro:generateContent',
      body: { systemInstruction: { parts: [{ text: 'sys' }] }, contents: [{ role: 'user', parts: [{ text: 'gemini d' }] }] },
      prompt: 'gemini d',
      response: 'Echo: gemini d',
      provider_type: 'vendor_d',
    },
    vendor_e_generate: { path: '/v1/generate', body: { model: 'command', prompt: 'gen e' }, prompt: 'gen e', response: 'Echo: gen e' },
    vendor_e_chat: { path: '/v2/chat', body: { model: 'command-r', messages: [user('chat e')] }, prompt: 'chat e', response: 'Echo: chat e', provider_type: 'vendor_e' },
    vendor_f_inference: { path: '/models/mistralai/Mistral-7B', body: { inputs: 'hub f', parameters: {} }, prompt: 'hub f', response: 'Echo: hub f', provider_type: 'vendor_f' },
    vendor_g_chat: { path: '/api/chat', body: { model: 'llama3', messages: [user('local g')], stream: false }, prompt: 'local g', response: 'Echo: local g', provider_type: 'vendor_g' },
    vendor_h_chat: { path: '/vendor_h/v1/chat/completions', body: { model: 'llama', messages: [user('vllm h')] }, prompt: 'vllm h', response: 'Echo: vllm h', provider_type: 'vendor_h' },
    custom_simple: { path: '/custom', body: { prompt: 'simple', model: 'm1' }, prompt: 'simple', response: 'Echo: simple' },
    image_vendor_k: { path: '/image_vendor_k/v1/generate', body: { model: 'k1', prompt: 'blue dog' }, prompt: 'blue dog', response: null },
    image_vendor_a_compatible: { path: '/v1/images/generations', body: { model: 'dall-e', prompt: 'red cat' }, prompt: 'red cat', response: null },
    image_vendor_l: { path: '/v1/predictions', body: { version: 'abc123', input: { prompt: 'green owl' } }, prompt: 'green owl', response: null },
    serving_vendor_m_inference: {
      path: '/v2/models/stable-diffusion/infer',
      body: { inputs: [{ name: 'prompt', datatype: 'BYTES', shape: [1], data: ['a castle'] }] },
      prompt: 'a castle',
      response: null,
    },
    serving_vendor_m_text_generation: {
      path: '/v2/models/llm/infer',
      body: {
        inputs: [
          { name: 'prompt', datatype: 'BYTES', shape: [1], data: ['triton text'] },
          { name: 'model', datatype: 'BYTES', shape: [1], data: ['llama'] },
        ],
      },
      prompt: 'triton text',
      response: 'Echo: triton text',
    },
  };
}

t.test('every preset on its vendor, through the gateway', async (t) => {
  await forOneDatabase(t, async (t, db) => {
    const stack = await startStack({ db, mock: { vendorCApiKey: 'azure-secret' } });
    t.teardown(() => stack.close());
    const table = cases(stack.mockUrl);
    t.same(Object.keys(table).sort(), [...MAPPING_PRESET_NAMES].sort(), 'one case per preset');

    for (const preset of MAPPING_PRESET_NAMES) {
      t.test(preset, async (t) => {
        const c = table[preset];
        const [targetPath] = c.path.split('?');
        const provider = await stack.provider({
          provider_type: c.provider_type ?? 'custom',
          match_value: `/presets/${preset}`,
          target_path: c.path.includes('?') ? c.path : targetPath,
          mapping_preset: preset,
          ...(c.upstream_auth ? { upstream_auth: c.upstream_auth } : {}),
        });
        const stored = await stack.registry.store.providers.get(provider.id);
        if (c.upstream_auth) t.match(JSON.stringify(stored!.upstream_auth), /enc:v1:/, 'the secret is sealed at rest');
        stack.mock.reset();
        const logsBefore = stack.logs.length;
        const res = await stack.call('POST', '/chat', { body: c.body, headers: { 'x-original-uri': `/presets/${preset}` } });
        t.equal(res.status, 200, res.text.slice(0, 200));
        t.equal(res.headers['x-provider-id'], provider.id);
        t.notOk(stack.logs.slice(logsBefore).some((l) => l.msg === 'failed to extract prompt'), 'the preset fits: no warning');

        const received = stack.mock.requests.filter((r) => r.route !== 'vendor_i.oauth').at(-1)!;
        const mapping = compileProviderMapping({ mapping_preset: preset });
        t.match(mapping.extractRequest(received.body).prompt, c.prompt, 'prompt_path on the body the backend received');
        const answer = mapping.extractResponse(res.json).text;
        if (c.response === null) t.ok(answer.length > 0, `response_path finds the answer (${answer.slice(0, 40)})`);
        else t.match(answer, c.response, 'response_path on the answer the client got');
        if (preset === 'vendor_c_chat') t.equal(received.headers['api-key'], 'azure-secret', 'vendor_c: api-key header, decrypted');
        if (preset === 'vendor_i_chat') t.match(received.headers.authorization, /^Bearer \S+/, 'vendor_i: an OAuth access token');
      });
    }
  });
});
