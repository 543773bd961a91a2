// The image generation formats reached as `custom`: an image vendor_k, the vendor_a-compatible images
// API and the prediction API of an image vendor_l.
import { EXCHANGE } from '../samples.js';
import type { ErrorBody, Vendor } from '../types.js';
import { openAiError } from '../vendor_a/index.js';

export const imageVendorKError: ErrorBody = (status, message) => ({ error: { message, code: status } });
export const replicateError: ErrorBody = (status, message) => ({ title: status >= 500 ? 'Internal Server Error' : 'Request Error', detail: message, status });

export const imageVendors = {
  id: 'images',
  providerTypes: [],
  presets: {
    image_vendor_k: { prompt_path: '$.prompt', model_path: '$.model', response_path: '$.images[0].url' },
    image_vendor_a_compatible: { prompt_path: '$.prompt', model_path: '$.model', response_path: '$.data[0].url' },
    image_vendor_l: { prompt_path: '$.input.prompt', model_path: '$.version', response_path: '$.output[0]' },
  },
  // One sample exchange per preset: the console's mapping tester starts from it (mapping/samples.ts).
  presetSamples: {
    image_vendor_k: { request: { model: 'image-k-2', prompt: EXCHANGE.imagePrompt }, response: { images: [{ url: EXCHANGE.imageUrl }] } },
    image_vendor_a_compatible: { request: { model: 'image-a-3', prompt: EXCHANGE.imagePrompt, n: 1 }, response: { data: [{ url: EXCHANGE.imageUrl }] } },
    image_vendor_l: { request: { version: 'image-l-v1', input: { prompt: EXCHANGE.imagePrompt } }, response: { status: 'succeeded', output: [EXCHANGE.imageUrl] } },
  },
  apis: {
    vendor_a_compatible_generations: {
      method: 'POST',
      paths: ['/v1/images/generations'],
      required: ['prompt'],
      preset: 'image_vendor_a_compatible',
      errorBody: openAiError,
      sample: { path: '/v1/images/generations' },
    },
    vendor_k_generate: {
      method: 'POST',
      paths: ['/image_vendor_k/v1/generate'],
      required: ['prompt'],
      preset: 'image_vendor_k',
      errorBody: imageVendorKError,
      sample: { path: '/image_vendor_k/v1/generate' },
    },
    vendor_l_predictions: {
      method: 'POST',
      paths: ['/v1/predictions'],
      required: ['input'],
      preset: 'image_vendor_l',
      errorBody: replicateError,
      sample: { path: '/v1/predictions' },
    },
    vendor_l_prediction: { method: 'GET', paths: ['/v1/predictions/:id'], errorBody: replicateError },
  },
} as const satisfies Vendor;
