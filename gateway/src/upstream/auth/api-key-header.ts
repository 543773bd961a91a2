// api_key_header: `<header>: <key>` (default header `api-key`, vendor_c); no Authorization goes upstream.
import type { UpstreamAuth } from '@palisade/core';
import type { AppliedAuth } from './types.js';

export function apiKeyHeaderAuth(auth: Extract<UpstreamAuth, { type: 'api_key_header' }>): AppliedAuth {
  const header = (auth.header || 'api-key').toLowerCase();
  return { type: 'api_key_header', strip: ['authorization', header], set: { [header]: auth.key } };
}
