// custom_simple ({prompt, model} → {response}) and the mock's own health endpoints.
import { asString } from '../text.js';
import type { VendorRoute } from '../types.js';

const simpleError = (status: number, message: string): unknown => ({ error: message, status });

export const customRoutes: VendorRoute[] = [
  {
    kind: 'llm',
    vendor: 'custom_simple',
    name: 'custom_simple.generate',
    method: 'POST',
    paths: ['/custom', '/generate'],
    required: ['prompt'],
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
