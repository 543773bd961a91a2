// vendor_j (YandexGPT-style): foundationModels completion with `text` message fields. No provider
// type of its own: it is reached as `custom` with its preset.
import { USER_MESSAGES } from '../chat-paths.js';
import { EXCHANGE } from '../samples.js';
import { namesBeside } from '../tool-slots.js';
import type { ErrorBody, ToolArgumentsChannel, Vendor } from '../types.js';

const GRPC_CODES: Record<number, number> = { 400: 3, 401: 16, 403: 7, 404: 5, 429: 8, 500: 13, 503: 14, 504: 4 };

const errorOf = (status: number, message: string) => ({
  error: { grpcCode: GRPC_CODES[status] ?? 2, httpCode: status, message, httpStatus: String(status), details: [] as unknown[] },
});

export const yandexError: ErrorBody = errorOf;

const ALTERNATIVES = ['result', 'alternatives'];
/** Tool calls of an alternative, their arguments an object; a cumulative stream repeats them in each line. */
const TOOL_CALLS = ['message', 'toolCallList', 'toolCalls'];
const toolCalls: ToolArgumentsChannel = { items: ALTERNATIVES, slot: [], calls: TOOL_CALLS, parent: ['functionCall'], key: 'arguments', encoding: 'object', cumulative: true };

export const vendorJ = {
  id: 'vendor_j',
  providerTypes: [],
  presets: {
    vendor_j_gpt: {
      prompt_path: '$.messages[*].text',
      system_prompt_path: "$.messages[?(@.role=='system')].text",
      user_messages_path: USER_MESSAGES,
      model_path: '$.modelUri',
      response_path: '$.result.alternatives[0].message.text',
    },
  },
  toolArguments: {
    vendor_j_gpt: [
      { path: '$.result.alternatives[*].message.toolCallList.toolCalls[*].functionCall.arguments', encoding: 'object' },
      { path: '$.result.alternatives[*].message.toolCallList.toolCalls[*].functionCall.name', encoding: 'name' },
    ],
  },
  // One sample exchange per preset: the console's mapping tester starts from it (mapping/samples.ts).
  presetSamples: {
    vendor_j_gpt: {
      request: { modelUri: 'gpt://catalog/model-j/latest', messages: [{ role: 'system', text: EXCHANGE.system }, { role: 'user', text: EXCHANGE.prompt }] },
      response: { result: { alternatives: [{ message: { role: 'assistant', text: EXCHANGE.answer }, status: 'FINAL' }] } },
    },
  },
  apis: {
    completion: {
      method: 'POST',
      paths: ['/foundationModels/v1/completion'],
      required: ['messages'],
      preset: 'vendor_j_gpt',
      sample: { path: '/foundationModels/v1/completion' },
    },
  },
  // `completionOptions.stream: true`: NDJSON lines, each repeating the whole text so far.
  streams: {
    deltaRules: [{ name: 'foundationModels completion', vendors: ['vendor_j'], format: 'ndjson', items: ALTERNATIVES, text: ['message', 'text'], cumulative: true }],
    codecs: [
      {
        name: 'foundationModels completion',
        format: 'ndjson',
        pathSuffixes: ['/foundationModels/v1/completion'],
        streamFlag: { path: ['completionOptions', 'stream'] },
        cumulative: true,
        items: ALTERNATIVES,
        slot: [],
        textParent: ['message'],
        textKey: 'text',
        end: {},
        toolArguments: [toolCalls, namesBeside(toolCalls)],
        // The API's error body as the stream's last line (451: refused for its content), with the trace id.
        refusal: (e) => {
          const body = errorOf(451, e.message);
          return [{ data: JSON.stringify({ error: { ...body.error, code: e.code, trace_id: e.traceId } }) }];
        },
      },
    ],
  },
  // Token counts are written as strings (int64 in JSON); cumulative in a stream.
  usage: { counts: [{ at: ['result', 'usage'], input: 'inputTextTokens', output: 'completionTokens' }], markers: ['usage'] },
  errorBody: yandexError,
} as const satisfies Vendor;
