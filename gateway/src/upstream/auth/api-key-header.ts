// api_key_header: `<header>: <key>` (by default vendor_c's header, `api-key`); no Authorization goes upstream.
import { vendorC, type UpstreamAuth } from '@palisade/core';
import type { AppliedAuth } from './types.js';

export function apiKeyHeaderAuth(auth: Extract<UpstreamAuth, { type: 'api_key_header' }>): AppliedAuth {
  const header = (auth.header || vendorC.auth.header).toLowerCase();
  return { type: 'api_key_header', strip: ['authorization', header], set: { [header]: auth.key } };
}
