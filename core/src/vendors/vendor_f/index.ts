// vendor_f (model-hub inference, HF-style): POST /models/<owner>/<model> with `inputs`.
import { EXCHANGE } from '../samples.js';
import type { ErrorBody, Vendor } from '../types.js';

/** A model still loading answers 503 with the seconds it expects to need. */
export const hubError: ErrorBody = (status, message) => (status === 503 ? { error: message, estimated_time: 20 } : { error: message });

export const vendorF = {
  id: 'vendor_f',
  providerTypes: ['vendor_f'],
  presets: {
    vendor_f_inference: { prompt_path: '$.inputs', model_path: '$.model', response_path: '$[0].generated_text' },
  },
  recommendedPresets: { vendor_f: 'vendor_f_inference' },
  // One sample exchange per preset: the console's mapping tester starts from it (mapping/samples.ts).
  presetSamples: {
    vendor_f_inference: { request: { model: 'model-f-7b', inputs: EXCHANGE.prompt }, response: [{ generated_text: EXCHANGE.answer }] },
  },
  apis: {
    // Model ids contain a slash (owner/name), so the rest of the path is the model.
    inference: {
      method: 'POST',
      paths: ['/models/*'],
      required: ['inputs'],
      preset: 'vendor_f_inference',
      sample: { path: '/models/org/m' },
    },
  },
  errorBody: hubError,
} as const satisfies Vendor;
