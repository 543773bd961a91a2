// vendor_a (OpenAI-style): chat completions, legacy completions and the Responses API. Its chat
// format is the one vendor_c, vendor_h and vendor_i copied.
import type { FieldMapping } from '../../mapping/presets.js';
import { CHAT_REQUEST } from '../chat-paths.js';
import { CHAT_EXCHANGE_RESPONSE, chatExchangeRequest, EXCHANGE } from '../samples.js';
import { namesBeside } from '../tool-slots.js';
import type { ErrorBody, ToolArgumentsChannel, ToolArgumentsPath, Vendor } from '../types.js';
import { responsesRepeats } from './responses-stream.js';

/** The vendor_a chat format, shared by its compatible APIs (vendor_c, vendor_i, vendor_h). */
export const VENDOR_A_CHAT: FieldMapping = { ...CHAT_REQUEST, response_path: '$.choices[0].message.content' };

/** Where the vendor_a chat format's answers carry tool-call arguments (a JSON text) and names: tool_calls and the legacy function_call. */
export const VENDOR_A_CHAT_TOOL_ARGUMENTS: readonly ToolArgumentsPath[] = [
  { path: '$.choices[*].message.tool_calls[*].function.arguments', encoding: 'json_text' },
  { path: '$.choices[*].message.function_call.arguments', encoding: 'json_text' },
  { path: '$.choices[*].message.tool_calls[*].function.name', encoding: 'name' },
  { path: '$.choices[*].message.function_call.name', encoding: 'name' },
];
const CHAT_TOOL_CALLS: ToolArgumentsChannel = { items: ['choices'], slot: ['index'], calls: ['delta', 'tool_calls'], callSlot: ['index'], parent: ['function'], key: 'arguments', encoding: 'json_text' };
const CHAT_FUNCTION_CALL: ToolArgumentsChannel = { items: ['choices'], slot: ['index'], parent: ['delta', 'function_call'], key: 'arguments', encoding: 'json_text' };
const RESPONSES_FUNCTION_CALL: ToolArgumentsChannel = { when: { path: ['type'], equals: 'response.function_call_arguments.delta' }, slot: ['item_id'], parent: [], key: 'delta', encoding: 'json_text' };

export const openAiError: ErrorBody = (status, message) => {
  const type =
    status === 401 ? 'invalid_api_key' : status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: status === 401 ? 'invalid_api_key' : null } };
};

export const vendorA = {
  id: 'vendor_a',
  providerTypes: ['vendor_a'],
  presets: {
    vendor_a_chat_completions: VENDOR_A_CHAT,
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
  },
  recommendedPresets: { vendor_a: 'vendor_a_chat_completions' },
  toolArguments: {
    vendor_a_chat_completions: VENDOR_A_CHAT_TOOL_ARGUMENTS,
    vendor_a_responses: [
      { path: "$.output[?(@.type=='function_call')].arguments", encoding: 'json_text' },
      { path: "$.output[?(@.type=='function_call')].name", encoding: 'name' },
    ],
  },
  // One sample exchange per preset: the console's mapping tester starts from it (mapping/samples.ts).
  presetSamples: {
    vendor_a_chat_completions: { request: chatExchangeRequest('model-a-mini'), response: CHAT_EXCHANGE_RESPONSE },
    vendor_a_completions: { request: { model: 'model-a-instruct', prompt: EXCHANGE.prompt }, response: { choices: [{ index: 0, text: EXCHANGE.answer }] } },
    vendor_a_responses: {
      request: { model: 'model-a-mini', instructions: EXCHANGE.system, input: [{ role: 'user', content: [{ type: 'input_text', text: EXCHANGE.prompt }] }] },
      response: { output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: EXCHANGE.answer }] }] },
    },
  },
  apis: {
    chat: {
      method: 'POST',
      paths: ['/v1/chat/completions'],
      required: ['messages'],
      preset: 'vendor_a_chat_completions',
      sample: { path: '/v1/chat/completions' },
    },
    completions: {
      method: 'POST',
      paths: ['/v1/completions'],
      required: ['prompt'],
      preset: 'vendor_a_completions',
      sample: { path: '/v1/completions' },
    },
    responses: {
      method: 'POST',
      paths: ['/v1/responses'],
      required: ['input'],
      preset: 'vendor_a_responses',
      sample: { path: '/v1/responses' },
    },
    models: { method: 'GET', paths: ['/v1/models'] },
  },
  streams: {
    deltaRules: [
      {
        name: 'chat.completion.chunk',
        vendors: ['vendor_a', 'vendor_c', 'vendor_h', 'vendor_i'],
        format: 'sse',
        items: ['choices'],
        slot: ['index'],
        text: ['delta', 'content'],
      },
      {
        name: 'legacy completions',
        vendors: ['vendor_a', 'vendor_c', 'vendor_h'],
        format: 'sse',
        items: ['choices'],
        slot: ['index'],
        text: ['text'],
      },
    ],
    endMarkers: [{ name: 'data: [DONE]', format: 'sse', data: '[DONE]' }],
    codecs: [
      {
        name: 'chat.completion.chunk',
        pathSuffixes: ['/chat/completions'],
        items: ['choices'],
        slot: ['index'],
        textParent: ['delta'],
        textKey: 'content',
        end: { data: '[DONE]' },
        // Tool calls stream their arguments as JSON text fragments, per choice and call index; the
        // call's first chunk carries its name whole.
        toolArguments: [CHAT_TOOL_CALLS, CHAT_FUNCTION_CALL, namesBeside(CHAT_TOOL_CALLS), namesBeside(CHAT_FUNCTION_CALL)],
        // The OpenAI SDKs raise an APIError for a stream frame carrying `error`.
        refusal: (e) => [
          { data: JSON.stringify({ error: { message: e.message, type: e.type, code: e.code, trace_id: e.traceId } }) },
          { data: '[DONE]' },
        ],
      },
      {
        name: 'responses output_text.delta',
        pathSuffixes: ['/responses'],
        when: { path: ['type'], equals: 'response.output_text.delta' },
        slot: ['item_id'],
        slotPart: ['content_index'],
        textParent: [],
        textKey: 'delta',
        end: { event: 'response.completed' },
        // The OpenAI SDKs raise an APIError for an `error` event of a Responses stream.
        refusal: (e) => [{ event: 'error', data: JSON.stringify({ type: 'error', code: e.code, message: e.message, param: null, trace_id: e.traceId }) }],
        repeats: responsesRepeats,
        // A function call's name comes whole in its output_item.added (the later events repeat it).
        toolArguments: [
          RESPONSES_FUNCTION_CALL,
          { when: { path: ['type'], equals: 'response.output_item.added' }, slot: ['item', 'id'], parent: ['item'], key: 'name', encoding: 'name' },
        ],
      },
    ],
  },
  usage: { objects: [['usage']], input: ['prompt_tokens'], output: ['completion_tokens'], markers: ['usage'] },
  errorBody: openAiError,
} as const satisfies Vendor;
