// custom_simple ({prompt, model} → {response}) and the mock's own health endpoints.
import { asString } from '../text.js';
import { customVendor } from '@palisade/core/vendors';
import type { VendorRoute } from '../types.js';
import { fromApi } from './api.js';

const simpleError = customVendor.errorBody;

export const customRoutes: VendorRoute[] = [
  {
    kind: 'llm',
    vendor: 'custom_simple',
    name: 'custom_simple.generate',
    ...fromApi(customVendor.apis.generate),
    prompt: (ctx) => asString(ctx.body.prompt),
    reply: (text, ctx) => ({ response: text, model: ctx.model }),
    error: simpleError,
  },
  {
    kind: 'plain',
    vendor: 'mock',
    name: 'mock.health',
    method: 'GET',
    paths: ['/health', '/'],
    handle: () => ({ body: { status: 'ok' } }),
    error: simpleError,
  },
];
