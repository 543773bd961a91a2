// vendor_e (Cohere-style): v1 generate, v1 chat (one `message`) and v2 chat (messages).
import { CHAT_REQUEST } from '../chat-paths.js';
import { chatExchangeRequest, EXCHANGE } from '../samples.js';
import type { ErrorBody, Vendor } from '../types.js';

export const cohereError: ErrorBody = (_status, message) => ({ message });

export const vendorE = {
  id: 'vendor_e',
  providerTypes: ['vendor_e'],
  presets: {
    vendor_e_generate: { prompt_path: '$.prompt', model_path: '$.model', response_path: '$.generations[0].text' },
    // The vendor's v2 chat API: messages with role/content in, `message.content` as an array of
    // {type:"text", text} blocks out. All text blocks are taken, not only the first, so that a
    // multi-block answer cannot hide text from response scanning.
    vendor_e_chat: { ...CHAT_REQUEST, response_path: '$.message.content[*].text' },
  },
  recommendedPresets: { vendor_e: 'vendor_e_chat' },
  // v2 chat: tool calls as the OpenAI chat format writes them, the arguments a JSON text.
  toolArguments: { vendor_e_chat: [{ path: '$.message.tool_calls[*].function.arguments', encoding: 'json_text' }] },
  // One sample exchange per preset: the console's mapping tester starts from it (mapping/samples.ts).
  presetSamples: {
    vendor_e_generate: { request: { model: 'model-e-command', prompt: EXCHANGE.prompt }, response: { generations: [{ text: EXCHANGE.answer }] } },
    vendor_e_chat: { request: chatExchangeRequest('model-e-chat'), response: { message: { role: 'assistant', content: [{ type: 'text', text: EXCHANGE.answer }] } } },
  },
  apis: {
    generate: {
      method: 'POST',
      paths: ['/v1/generate'],
      required: ['prompt'],
      preset: 'vendor_e_generate',
      sample: { path: '/v1/generate' },
    },
    chat_v1: { method: 'POST', paths: ['/v1/chat'], required: ['message'] },
    chat: { method: 'POST', paths: ['/v2/chat'], required: ['messages'], preset: 'vendor_e_chat', sample: { path: '/v2/chat' } },
  },
  usage: { objects: [['meta', 'billed_units']], input: ['input_tokens'], output: ['output_tokens'], markers: ['billed_units'] },
  errorBody: cohereError,
} as const satisfies Vendor;
