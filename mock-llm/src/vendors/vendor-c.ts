// vendor_c (Azure-style): vendor_a format at deployment URLs, `api-key` header and a required
// `api-version` query parameter, as the real service enforces both.
import { vendorC } from '@palisade/core/vendors';
import type { LlmRoute, Rejection, RouteContext } from '../types.js';
import { fromApi } from './api.js';
import { chatCompletion, chatPrompt, chatStream, completionPrompt, completionStream, textCompletion } from './vendor-a.js';

function check(ctx: RouteContext): Rejection | undefined {
  const key = ctx.headers[vendorC.auth.header];
  if (typeof key !== 'string' || key === '' || (ctx.vendorCApiKey !== undefined && key !== ctx.vendorCApiKey)) {
    return {
      status: 401,
      message: 'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
    };
  }
  if (!ctx.query['api-version']) return { status: 400, message: 'Missing required query parameter: api-version' };
  return undefined;
}

const azureError = vendorC.errorBody;

// Azure answers with the deployment's model; a body `model` wins so tests can pin it.
const model = (ctx: RouteContext): string | undefined =>
  typeof ctx.body.model === 'string' ? ctx.body.model : ctx.params.deployment;

export const vendorCRoutes: LlmRoute[] = [
  {
    kind: 'llm',
    vendor: 'vendor_c',
    name: 'vendor_c.chat',
    ...fromApi(vendorC.apis.chat),
    check,
    model,
    prompt: chatPrompt,
    reply: chatCompletion,
    stream: chatStream,
    error: azureError,
  },
  {
    kind: 'llm',
    vendor: 'vendor_c',
    name: 'vendor_c.completions',
    ...fromApi(vendorC.apis.completions),
    check,
    model,
    prompt: completionPrompt,
    reply: textCompletion,
    stream: completionStream,
    error: azureError,
  },
];
