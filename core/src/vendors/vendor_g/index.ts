// vendor_g (Ollama-style local runner): /api/chat and /api/generate, NDJSON when `stream` is true, and
// the /api/tags listing health checks call.
import { CHAT_REQUEST } from '../chat-paths.js';
import { chatExchangeRequest, EXCHANGE } from '../samples.js';
import { namesBeside } from '../tool-slots.js';
import type { ErrorBody, StreamCodec, StreamRefusal, ToolArgumentsChannel, Vendor } from '../types.js';

export const ollamaError: ErrorBody = (_status, message) => ({ error: message });

/** A refused stream's last line: the runner's own error line (its clients raise on `error`), with the code and trace id. */
const refusal = (e: StreamRefusal) => [{ data: JSON.stringify({ error: e.message, code: e.code, trace_id: e.traceId }) }];

/** Tool calls come whole in a line, their arguments an object; `function.index` tells parallel calls apart where the runner sends it. */
const toolCalls: ToolArgumentsChannel = { slot: [], calls: ['message', 'tool_calls'], callSlot: ['function', 'index'], parent: ['function'], key: 'arguments', encoding: 'object' };

/** The runner's NDJSON deltas, ended by the `done: true` line (which may still carry text). */
const ndjsonCodec = (name: string, path: string, textParent: readonly string[], textKey: string, toolArguments?: readonly ToolArgumentsChannel[]): StreamCodec => ({
  name,
  format: 'ndjson',
  pathSuffixes: [path],
  streamFlag: { path: ['stream'], byDefault: true },
  slot: [],
  textParent,
  textKey,
  end: { path: ['done'], equals: true },
  ...(toolArguments ? { toolArguments } : {}),
  refusal,
});

export const vendorG = {
  id: 'vendor_g',
  providerTypes: ['vendor_g'],
  presets: {
    // Local model runner chat: messages role/content in, {message: {role, content}} out.
    vendor_g_chat: { ...CHAT_REQUEST, response_path: '$.message.content' },
  },
  recommendedPresets: { vendor_g: 'vendor_g_chat' },
  toolArguments: {
    vendor_g_chat: [
      { path: '$.message.tool_calls[*].function.arguments', encoding: 'object' },
      { path: '$.message.tool_calls[*].function.name', encoding: 'name' },
    ],
  },
  // One sample exchange per preset: the console's mapping tester starts from it (mapping/samples.ts).
  presetSamples: {
    vendor_g_chat: { request: chatExchangeRequest('model-g-local'), response: { message: { role: 'assistant', content: EXCHANGE.answer } } },
  },
  apis: {
    // The runner streams unless told not to.
    chat: { method: 'POST', paths: ['/api/chat'], required: ['messages'], preset: 'vendor_g_chat', sample: { path: '/api/chat', with: { stream: false } } },
    generate: { method: 'POST', paths: ['/api/generate'], required: ['prompt'] },
    tags: { method: 'GET', paths: ['/api/tags'] },
  },
  streams: {
    deltaRules: [
      { name: 'ollama chat', vendors: ['vendor_g'], format: 'ndjson', text: ['message', 'content'] },
      { name: 'ollama generate', vendors: ['vendor_g'], format: 'ndjson', text: ['response'] },
    ],
    endMarkers: [{ name: 'vendor_g done line', format: 'ndjson', path: ['done'], equals: true }],
    // Tools are a chat feature; /api/generate has none.
    codecs: [ndjsonCodec('ollama chat', '/api/chat', ['message'], 'content', [toolCalls, namesBeside(toolCalls)]), ndjsonCodec('ollama generate', '/api/generate', [], 'response')],
  },
  usage: { counts: [{ at: [], input: 'prompt_eval_count', output: 'eval_count' }], markers: ['eval_count'] },
  errorBody: ollamaError,
} as const satisfies Vendor;
