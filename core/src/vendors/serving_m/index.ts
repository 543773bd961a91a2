// serving_vendor_m (Triton-style KServe v2 inference protocol): named input and output tensors.
import { EXCHANGE } from '../samples.js';
import type { ErrorBody, Vendor } from '../types.js';

export const tritonError: ErrorBody = (_status, message) => ({ error: message });

export const servingVendorM = {
  id: 'serving_m',
  providerTypes: [],
  presets: {
    // The spec leaves the model path of the inference preset empty: the model is in the URL.
    serving_vendor_m_inference: {
      prompt_path: "$.inputs[?(@.name=='prompt')].data[0]",
      response_path: "$.outputs[?(@.name=='generated_image')].data[0]",
    },
    serving_vendor_m_text_generation: {
      prompt_path: "$.inputs[?(@.name=='prompt')].data[0]",
      model_path: "$.inputs[?(@.name=='model')].data[0]",
      response_path: "$.outputs[?(@.name=='text')].data[0]",
    },
  },
  // One sample exchange per preset: the console's mapping tester starts from it (mapping/samples.ts).
  presetSamples: {
    serving_vendor_m_inference: {
      request: { inputs: [{ name: 'prompt', datatype: 'BYTES', shape: [1], data: [EXCHANGE.imagePrompt] }] },
      response: { outputs: [{ name: 'generated_image', datatype: 'BYTES', shape: [1], data: [EXCHANGE.imageUrl] }] },
    },
    serving_vendor_m_text_generation: {
      request: { inputs: [{ name: 'prompt', datatype: 'BYTES', shape: [1], data: [EXCHANGE.prompt] }, { name: 'model', datatype: 'BYTES', shape: [1], data: ['model-m-text'] }] },
      response: { outputs: [{ name: 'text', datatype: 'BYTES', shape: [1], data: [EXCHANGE.answer] }] },
    },
  },
  apis: {
    infer: {
      method: 'POST',
      paths: ['/v2/models/:model/infer', '/v2/models/:model/versions/:version/infer'],
      required: ['inputs'],
      preset: 'serving_vendor_m_inference',
      // An image model (by its name) answers the generated_image tensor the preset reads.
      sample: { path: '/v2/models/sdxl/infer' },
    },
    ready: { method: 'GET', paths: ['/v2/health/ready'] },
    live: { method: 'GET', paths: ['/v2/health/live'] },
    model_ready: { method: 'GET', paths: ['/v2/models/:model/ready'] },
  },
  errorBody: tritonError,
} as const satisfies Vendor;
