// vendor_d (Google-style): Gemini generateContent / streamGenerateContent (SSE with ?alt=sse, else a
// JSON array of chunks) and the legacy PaLM generateText. Paths are `/models/<model>:<action>`.
import { EXCHANGE } from '../samples.js';
import { namesBeside } from '../tool-slots.js';
import type { ErrorBody, ToolArgumentsChannel, Vendor } from '../types.js';

/** A streamed chunk's function call, whole: its args object (and its name beside it), per candidate. */
const FUNCTION_CALL: ToolArgumentsChannel = { items: ['candidates'], slot: ['index'], parent: ['content', 'parts', '*', 'functionCall'], key: 'args', encoding: 'object' };

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export const googleError: ErrorBody = (status, message) => ({
  error: { code: status, message, status: STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') },
});

const GEMINI_PATHS = ['/v1beta/models/:modelAction', '/v1/models/:modelAction'];
const PALM_PATHS = ['/v1beta2/models/:modelAction', '/v1beta3/models/:modelAction'];

export const vendorD = {
  id: 'vendor_d',
  providerTypes: ['vendor_d'],
  presets: {
    vendor_d_palm: { prompt_path: '$.prompt.text', model_path: '$.model', response_path: '$.candidates[0].output' },
    // contents[].parts[].text format; the model is part of the URL (…/models/{model}:generateContent).
    vendor_d_gemini: {
      prompt_path: '$.contents[*].parts[*].text',
      system_prompt_path: '$.systemInstruction.parts[*].text',
      user_messages_path: "$.contents[?(@.role=='user')]",
      response_path: '$.candidates[0].content.parts[0].text',
    },
  },
  recommendedPresets: { vendor_d: 'vendor_d_gemini' },
  toolArguments: {
    vendor_d_gemini: [
      { path: '$.candidates[*].content.parts[*].functionCall.args', encoding: 'object' },
      { path: '$.candidates[*].content.parts[*].functionCall.name', encoding: 'name' },
    ],
  },
  // One sample exchange per preset: the console's mapping tester starts from it (mapping/samples.ts).
  presetSamples: {
    vendor_d_palm: { request: { model: 'model-d-text', prompt: { text: EXCHANGE.prompt } }, response: { candidates: [{ output: EXCHANGE.answer }] } },
    vendor_d_gemini: {
      request: { systemInstruction: { parts: [{ text: EXCHANGE.system }] }, contents: [{ role: 'user', parts: [{ text: EXCHANGE.prompt }] }] },
      response: { candidates: [{ content: { role: 'model', parts: [{ text: EXCHANGE.answer }] }, finishReason: 'STOP' }] },
    },
  },
  apis: {
    generateContent: {
      method: 'POST',
      paths: GEMINI_PATHS,
      action: 'generateContent',
      required: ['contents'],
      preset: 'vendor_d_gemini',
      sample: { path: '/v1beta/models/m:generateContent' },
    },
    streamGenerateContent: { method: 'POST', paths: GEMINI_PATHS, action: 'streamGenerateContent', required: ['contents'], preset: 'vendor_d_gemini' },
    generateText: {
      method: 'POST',
      paths: PALM_PATHS,
      action: 'generateText',
      required: ['prompt'],
      preset: 'vendor_d_palm',
      sample: { path: '/v1beta2/models/m:generateText' },
    },
  },
  streams: {
    deltaRules: [
      {
        name: 'gemini streamGenerateContent',
        vendors: ['vendor_d'],
        format: 'sse',
        text: ['candidates', 0, 'content', 'parts', '*', 'text'],
      },
    ],
    codecs: [
      {
        name: 'gemini streamGenerateContent (alt=sse)',
        pathSuffixes: [':streamGenerateContent'],
        streamingPath: true,
        items: ['candidates'],
        slot: ['index'],
        textParent: ['content', 'parts', '*'],
        textKey: 'text',
        end: {},
        // A function call arrives whole in one chunk: its args object and its name, per candidate.
        toolArguments: [FUNCTION_CALL, namesBeside(FUNCTION_CALL)],
        // The Gemini API's error body, as one stream frame; its stream has no end marker.
        refusal: (e) => [{ data: JSON.stringify({ error: { code: 451, message: e.message, status: e.code, trace_id: e.traceId } }) }],
      },
    ],
  },
  usage: { counts: [{ at: ['usageMetadata'], input: 'promptTokenCount', output: 'candidatesTokenCount' }], markers: ['TokenCount'] },
  errorBody: googleError,
} as const satisfies Vendor;
