// vendor_b (Anthropic-style): the Messages API (top-level `system`, its SSE event sequence) and the
// legacy Text Completions API.
import { USER_MESSAGES } from '../chat-paths.js';
import { EXCHANGE } from '../samples.js';
import type { ErrorBody, Vendor } from '../types.js';

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

export const anthropicError: ErrorBody = (status, message) => ({
  type: 'error',
  error: { type: ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message },
});

export const vendorB = {
  id: 'vendor_b',
  providerTypes: ['vendor_b'],
  presets: {
    vendor_b_messages: {
      prompt_path: '$.messages[*].content',
      system_prompt_path: '$.system',
      user_messages_path: USER_MESSAGES,
      model_path: '$.model',
      response_path: '$.content[0].text',
    },
    vendor_b_completions: { prompt_path: '$.prompt', model_path: '$.model', response_path: '$.completion' },
  },
  recommendedPresets: { vendor_b: 'vendor_b_messages' },
  toolArguments: {
    vendor_b_messages: [
      { path: "$.content[?(@.type=='tool_use')].input", encoding: 'object' },
      { path: "$.content[?(@.type=='tool_use')].name", encoding: 'name' },
    ],
  },
  // One sample exchange per preset: the console's mapping tester starts from it (mapping/samples.ts).
  presetSamples: {
    vendor_b_messages: {
      request: { model: 'model-b-large', max_tokens: 256, system: EXCHANGE.system, messages: [{ role: 'user', content: EXCHANGE.prompt }] },
      response: { role: 'assistant', content: [{ type: 'text', text: EXCHANGE.answer }] },
    },
    vendor_b_completions: { request: { model: 'model-b-instant', prompt: `\n\nHuman: ${EXCHANGE.prompt}\n\nAssistant:` }, response: { completion: EXCHANGE.answer } },
  },
  apis: {
    messages: {
      method: 'POST',
      paths: ['/v1/messages'],
      required: ['messages'],
      preset: 'vendor_b_messages',
      sample: { path: '/v1/messages', with: { max_tokens: 16 } },
    },
    complete: {
      method: 'POST',
      paths: ['/v1/complete'],
      required: ['prompt'],
      preset: 'vendor_b_completions',
      sample: { path: '/v1/complete', with: { max_tokens_to_sample: 16 } },
    },
  },
  streams: {
    deltaRules: [
      {
        name: 'messages content_block_delta',
        vendors: ['vendor_b'],
        format: 'sse',
        when: { path: ['type'], equals: 'content_block_delta' },
        text: ['delta', 'text'],
      },
    ],
    endMarkers: [
      { name: 'vendor_b message_stop event', format: 'sse', event: 'message_stop' },
      { name: 'vendor_b message_stop frame', format: 'sse', path: ['type'], equals: 'message_stop' },
    ],
    codecs: [
      {
        name: 'messages content_block_delta',
        pathSuffixes: ['/messages'],
        when: { path: ['type'], equals: 'content_block_delta' },
        slot: ['index'],
        textParent: ['delta'],
        textKey: 'text',
        end: { event: 'message_stop' },
        // A tool_use block streams its input as JSON text fragments (input_json_delta), per block index;
        // its start carries an input object (empty from the API), read too so nothing in it goes unread,
        // and the tool's name.
        toolArguments: [
          { when: { path: ['type'], equals: 'content_block_start' }, slot: ['index'], parent: ['content_block'], key: 'input', encoding: 'object' },
          { when: { path: ['type'], equals: 'content_block_start' }, slot: ['index'], parent: ['content_block'], key: 'name', encoding: 'name' },
          { when: { path: ['delta', 'type'], equals: 'input_json_delta' }, slot: ['index'], parent: ['delta'], key: 'partial_json', encoding: 'json_text' },
        ],
        refusal: (e) => [
          { event: 'error', data: JSON.stringify({ type: 'error', error: { type: e.type, message: e.message, code: e.code, trace_id: e.traceId } }) },
          { event: 'message_stop', data: JSON.stringify({ type: 'message_stop' }) },
        ],
      },
    ],
  },
  // A streamed message_start carries the usage inside the message.
  usage: { objects: [['usage'], ['message', 'usage']], input: ['input_tokens'], output: ['output_tokens'], markers: ['usage'] },
  errorBody: anthropicError,
} as const satisfies Vendor;
