// custom: any backend, read with custom_simple ({prompt, model} in, {response} out) or its own mapping.
import { EXCHANGE } from '../samples.js';
import type { ErrorBody, Vendor } from '../types.js';

export const simpleError: ErrorBody = (status, message) => ({ error: message, status });

export const customVendor = {
  id: 'custom',
  providerTypes: ['custom'],
  presets: {
    custom_simple: { prompt_path: '$.prompt', model_path: '$.model', response_path: '$.response' },
  },
  recommendedPresets: { custom: 'custom_simple' },
  // One sample exchange per preset: the console's mapping tester starts from it (mapping/samples.ts).
  presetSamples: {
    custom_simple: { request: { model: 'model-x', prompt: EXCHANGE.prompt }, response: { response: EXCHANGE.answer } },
  },
  apis: {
    generate: { method: 'POST', paths: ['/custom', '/generate'], required: ['prompt'], preset: 'custom_simple', sample: { path: '/generate' } },
  },
  // Backends of their own often write the token counts in camelCase.
  usage: { objects: [['usage']], input: ['inputTokens', 'promptTokens'], output: ['outputTokens', 'completionTokens'], markers: ['usage'] },
  errorBody: simpleError,
} as const satisfies Vendor;
