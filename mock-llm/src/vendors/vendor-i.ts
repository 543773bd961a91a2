// vendor_i (GigaChat-style): OAuth 2.0 client-credentials token endpoint plus a vendor_a-format
// chat that only accepts unexpired tokens the mock issued.
import { bearerToken, readTokenRequest } from '../oauth.js';
import { asObject, asString } from '../text.js';
import { vendorI } from '@palisade/core/vendors';
import type { LlmRoute, PlainRoute, RouteContext, VendorRoute } from '../types.js';
import { fromApi } from './api.js';
import { chatCompletion, chatPrompt, chatStream } from './vendor-a.js';

const gigaError = vendorI.errorBody;

/** Form fields of the token request (urlencoded body is parsed into an object of strings). */
function formOf(ctx: RouteContext): Record<string, string> {
  const form: Record<string, string> = {};
  for (const [k, v] of Object.entries(asObject(ctx.body))) if (typeof v === 'string') form[k] = v;
  return form;
}

const invalidClient = (description: string) => ({
  status: 401,
  headers: { 'www-authenticate': 'Basic realm="mock-llm"' },
  // RFC 6749 fields plus GigaChat's own {code, message}.
  body: { error: 'invalid_client', error_description: description, code: 6, message: description },
});

export const vendorIToken: PlainRoute = {
  kind: 'plain',
  vendor: 'vendor_i',
  name: 'vendor_i.oauth',
  ...fromApi(vendorI.apis.oauth),
  handle(ctx) {
    const req = readTokenRequest(ctx.headers, formOf(ctx));
    if (!req) return invalidClient('client credentials are missing');
    if (req.grantType !== undefined && req.grantType !== 'client_credentials') {
      return { status: 400, body: { error: 'unsupported_grant_type', error_description: `grant_type ${req.grantType} is not supported` } };
    }
    if (!ctx.oauth.authenticate(req.clientId, req.clientSecret)) return invalidClient("credentials doesn't match db data");
    const token = ctx.oauth.issue(req.clientId, req.scope);
    return {
      headers: { 'cache-control': 'no-store' },
      body: {
        access_token: token.accessToken,
        expires_at: token.expiresAt,
        expires_in: Math.max(0, Math.floor((token.expiresAt - ctx.now) / 1000)),
        token_type: 'Bearer',
        scope: token.scope,
      },
    };
  },
  error: vendorI.apis.oauth.errorBody,
};

export const vendorIChat: LlmRoute = {
  kind: 'llm',
  vendor: 'vendor_i',
  name: 'vendor_i.chat',
  ...fromApi(vendorI.apis.chat),
  check(ctx) {
    const token = bearerToken(ctx.headers);
    if (token === undefined || !ctx.oauth.verify(token)) return { status: 401, message: 'Token has expired or is invalid' };
    return undefined;
  },
  model: (ctx) => asString(ctx.body.model) || 'GigaChat',
  prompt: chatPrompt,
  reply: chatCompletion,
  stream: chatStream,
  error: gigaError,
};

export const vendorIRoutes: VendorRoute[] = [vendorIToken, vendorIChat];
