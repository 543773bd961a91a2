// vendor_f (model-hub inference, HF-style): POST /models/<owner>/<model> with `inputs`.
import { firstString } from '../text.js';
import type { LlmRoute } from '../types.js';

export const vendorFRoutes: LlmRoute[] = [
  {
    kind: 'llm',
    vendor: 'vendor_f',
    name: 'vendor_f.inference',
    method: 'POST',
    // Model ids contain a slash (owner/name), so the rest of the path is the model.
    paths: ['/models/*'],
    required: ['inputs'],
    model: (ctx) => ctx.params['*'],
    prompt: (ctx) => firstString(ctx.body.inputs),
    reply: (text) => [{ generated_text: text }],
    error: (status, message) => (status === 503 ? { error: message, estimated_time: 20 } : { error: message }),
  },
];
