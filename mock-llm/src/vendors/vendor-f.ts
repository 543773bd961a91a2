// vendor_f (model-hub inference, HF-style): POST /models/<owner>/<model> with `inputs`.
import { firstString } from '../text.js';
import { vendorF } from '@palisade/core/vendors';
import type { LlmRoute } from '../types.js';
import { fromApi } from './api.js';

export const vendorFRoutes: LlmRoute[] = [
  {
    kind: 'llm',
    vendor: 'vendor_f',
    name: 'vendor_f.inference',
    ...fromApi(vendorF.apis.inference),
    // Model ids contain a slash (owner/name), so the rest of the path is the model.
    model: (ctx) => ctx.params['*'],
    prompt: (ctx) => firstString(ctx.body.inputs),
    reply: (text) => [{ generated_text: text }],
    error: vendorF.errorBody,
  },
];
