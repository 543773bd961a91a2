// vendor_e (Cohere-style): v1 generate, v1 chat (one `message`) and v2 chat (messages); v2 chat
// streams SSE events named by their `type` (message-start, content-delta, tool-call-delta, message-end).
import { CHAT_REQUEST } from '../chat-paths.js';
import { chatExchangeRequest, EXCHANGE } from '../samples.js';
import { namesBeside } from '../tool-slots.js';
import type { ErrorBody, ToolArgumentsChannel, Vendor } from '../types.js';

/** A v2 chat stream's tool call: tool-call-start and tool-call-delta carry it as one object per frame. */
const TOOL_CALL: ToolArgumentsChannel = { slot: ['index'], parent: ['delta', 'message', 'tool_calls', 'function'], key: 'arguments', encoding: 'json_text' };

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
  toolArguments: {
    vendor_e_chat: [
      { path: '$.message.tool_calls[*].function.arguments', encoding: 'json_text' },
      { path: '$.message.tool_calls[*].function.name', encoding: 'name' },
    ],
  },
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
  streams: {
    deltaRules: [
      {
        name: 'v2 chat content-delta',
        vendors: ['vendor_e'],
        format: 'sse',
        when: { path: ['type'], equals: 'content-delta' },
        text: ['delta', 'message', 'content', 'text'],
      },
    ],
    endMarkers: [
      { name: 'vendor_e message-end event', format: 'sse', event: 'message-end' },
      { name: 'vendor_e message-end frame', format: 'sse', path: ['type'], equals: 'message-end' },
    ],
    codecs: [
      {
        name: 'v2 chat content-delta',
        pathSuffixes: ['/v2/chat'],
        when: { path: ['type'], equals: 'content-delta' },
        slot: ['index'],
        textParent: ['delta', 'message', 'content'],
        textKey: 'text',
        // The frame's type, not its SSE event name: the type is in every frame's data.
        end: { path: ['type'], equals: 'message-end' },
        // tool-call-start carries the call's name and (empty) arguments, tool-call-delta the argument
        // fragments, both as one `tool_calls` object per frame; `index` is the call's.
        toolArguments: [TOOL_CALL, namesBeside(TOOL_CALL)],
        // The API has no error event in a stream: a generation that fails ends with message-end, its
        // finish_reason ERROR and the message in `delta.error`. That one frame is the error and the end.
        refusal: (e) => [
          {
            event: 'message-end',
            data: JSON.stringify({ type: 'message-end', delta: { finish_reason: 'ERROR', error: e.message, code: e.code, error_type: e.type, trace_id: e.traceId } }),
          },
        ],
      },
    ],
  },
  // v1 answers carry `meta.billed_units`, v2 answers `usage.billed_units`, a v2 stream its message-end's `delta.usage.billed_units`.
  usage: { objects: [['meta', 'billed_units'], ['usage', 'billed_units'], ['delta', 'usage', 'billed_units']], input: ['input_tokens'], output: ['output_tokens'], markers: ['billed_units'] },
  errorBody: cohereError,
} as const satisfies Vendor;
