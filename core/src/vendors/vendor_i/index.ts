// vendor_i (GigaChat-style): an OAuth 2.0 client-credentials token endpoint and a vendor_a-format chat
// (and streams) that accepts only its unexpired tokens.
import { CHAT_EXCHANGE_RESPONSE, chatExchangeRequest, EXCHANGE } from '../samples.js';
import type { ErrorBody, Vendor } from '../types.js';
import { VENDOR_A_CHAT, VENDOR_A_CHAT_TOOL_ARGUMENTS } from '../vendor_a/index.js';

export const gigaError: ErrorBody = (status, message) => ({ status, message });

export const vendorI = {
  id: 'vendor_i',
  providerTypes: ['vendor_i'],
  presets: { vendor_i_chat: VENDOR_A_CHAT },
  toolArguments: { vendor_i_chat: VENDOR_A_CHAT_TOOL_ARGUMENTS },
  recommendedPresets: { vendor_i: 'vendor_i_chat' },
  // One sample exchange per preset: the console's mapping tester starts from it (mapping/samples.ts).
  presetSamples: {
    vendor_i_chat: { request: chatExchangeRequest('model-i-chat'), response: CHAT_EXCHANGE_RESPONSE },
  },
  apis: {
    oauth: {
      method: 'POST',
      paths: ['/api/v2/oauth', '/oauth/token'],
      errorBody: (status, message) => ({ error: status >= 500 ? 'server_error' : 'invalid_request', error_description: message }),
    },
    chat: {
      method: 'POST',
      paths: ['/api/v1/chat/completions'],
      required: ['messages'],
      preset: 'vendor_i_chat',
      sample: { path: '/api/v1/chat/completions' },
    },
  },
  errorBody: gigaError,
  auth: { type: 'oauth2_client_credentials', scope: 'GIGACHAT_API_PERS', requestIdHeader: 'rquid' },
} as const satisfies Vendor;
