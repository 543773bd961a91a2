// vendor_c (Azure-style): the vendor_a format at deployment URLs, an `api-key` header and a required
// `api-version` query parameter. Its streams are vendor_a's.
import { CHAT_EXCHANGE_RESPONSE, chatExchangeRequest, EXCHANGE } from '../samples.js';
import type { ErrorBody, Vendor } from '../types.js';
import { VENDOR_A_CHAT, VENDOR_A_CHAT_TOOL_ARGUMENTS } from '../vendor_a/index.js';

export const azureError: ErrorBody = (status, message) => {
  const code = status === 401 ? '401' : status === 400 && message.includes('api-version') ? 'MissingApiVersionParameter' : String(status);
  return { error: { code, message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null } };
};

/** Every request names the API version it speaks. */
const API_VERSION = 'api-version=2024-02-01';

export const vendorC = {
  id: 'vendor_c',
  providerTypes: ['vendor_c'],
  presets: { vendor_c_chat: VENDOR_A_CHAT },
  toolArguments: { vendor_c_chat: VENDOR_A_CHAT_TOOL_ARGUMENTS },
  recommendedPresets: { vendor_c: 'vendor_c_chat' },
  // One sample exchange per preset: the console's mapping tester starts from it (mapping/samples.ts).
  presetSamples: {
    vendor_c_chat: { request: chatExchangeRequest('model-c-small'), response: CHAT_EXCHANGE_RESPONSE },
  },
  apis: {
    chat: {
      method: 'POST',
      paths: ['/openai/deployments/:deployment/chat/completions'],
      required: ['messages'],
      preset: 'vendor_c_chat',
      sample: { path: `/openai/deployments/d/chat/completions?${API_VERSION}` },
    },
    completions: {
      method: 'POST',
      paths: ['/openai/deployments/:deployment/completions'],
      required: ['prompt'],
      preset: 'vendor_a_completions',
      sample: { path: `/openai/deployments/d/completions?${API_VERSION}` },
    },
  },
  errorBody: azureError,
  auth: { type: 'api_key_header', header: 'api-key' },
} as const satisfies Vendor;
