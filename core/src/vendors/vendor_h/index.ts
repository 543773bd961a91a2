// vendor_h (vLLM-style): serves the vendor_a-compatible API (and its streams).
import type { Vendor } from '../types.js';
import { openAiError, VENDOR_A_CHAT, VENDOR_A_CHAT_TOOL_ARGUMENTS, vendorA } from '../vendor_a/index.js';
import { EXCHANGE, chatExchangeRequest, CHAT_EXCHANGE_RESPONSE } from '../samples.js';

export const vendorH = {
  id: 'vendor_h',
  providerTypes: ['vendor_h'],
  presets: { vendor_h_chat: VENDOR_A_CHAT },
  toolArguments: { vendor_h_chat: VENDOR_A_CHAT_TOOL_ARGUMENTS },
  recommendedPresets: { vendor_h: 'vendor_h_chat' },
  // One sample exchange per preset: the console's mapping tester starts from it (mapping/samples.ts).
  presetSamples: {
    vendor_h_chat: { request: chatExchangeRequest('model-h-chat'), response: CHAT_EXCHANGE_RESPONSE },
  },
  apis: {
    chat: { ...vendorA.apis.chat, preset: 'vendor_h_chat' },
    completions: vendorA.apis.completions,
    models: vendorA.apis.models,
  },
  errorBody: openAiError,
} as const satisfies Vendor;
