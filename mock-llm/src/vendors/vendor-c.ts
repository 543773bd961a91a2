// vendor_c (Azure-style): vendor_a format at deployment URLs, `api-key` header and a required
// `api-version` query parameter, as the real service enforces both.
import type { LlmRoute, Rejection, RouteContext } from '../types.js';
import { chatCompletion, chatPrompt, chatStream, completionPrompt, completionStream, textCompletion } from './vendor-a.js';

function check(ctx: RouteContext): Rejection | undefined {
  const key = ctx.headers['api-key'];
  if (typeof key !== 'string' || key === '' || (ctx.vendorCApiKey !== undefined && key !== ctx.vendorCApiKey)) {
    return {
      status: 401,
      message: 'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
    };
  }
  if (!ctx.query['api-version']) return { status: 400, message: 'Missing required query parameter: api-version' };
  return undefined;
}

function azureError(status: number, message: string): unknown {
  const code = status === 401 ? '401' : status === 400 && message.includes('api-version') ? 'MissingApiVersionParameter' : String(status);
  return { error: { code, message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null } };
}

// Azure answers with the deployment's model; a body `model` wins so tests can pin it.
const model = (ctx: RouteContext): string | undefined =>
  typeof ctx.body.model === 'string' ? ctx.body.model : ctx.params.deployment;

export const vendorCRoutes: LlmRoute[] = [
  {
    kind: 'llm',
    vendor: 'vendor_c',
    name: 'vendor_c.chat',
    method: 'POST',
    paths: ['/openai/deployments/:deployment/chat/completions'],
    required: ['messages'],
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
    method: 'POST',
    paths: ['/openai/deployments/:deployment/completions'],
    required: ['prompt'],
    check,
    model,
    prompt: completionPrompt,
    reply: textCompletion,
    stream: completionStream,
    error: azureError,
  },
];
