// vendor_j (YandexGPT-style): foundationModels completion with `text` message fields. No provider
// type of its own: it is reached as `custom` with its preset.
import { USER_MESSAGES } from '../chat-paths.js';
import { EXCHANGE } from '../samples.js';
import type { ErrorBody, Vendor } from '../types.js';

const GRPC_CODES: Record<number, number> = { 400: 3, 401: 16, 403: 7, 404: 5, 429: 8, 500: 13, 503: 14, 504: 4 };

export const yandexError: ErrorBody = (status, message) => ({
  error: { grpcCode: GRPC_CODES[status] ?? 2, httpCode: status, message, httpStatus: String(status), details: [] },
});

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
  errorBody: yandexError,
} as const satisfies Vendor;
