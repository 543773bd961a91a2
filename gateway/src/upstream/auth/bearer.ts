// bearer: `Authorization: Bearer <token>`; the client's Authorization is not forwarded.
import type { UpstreamAuth } from '@palisade/core';
import type { AppliedAuth } from './types.js';

export function bearerAuth(auth: Extract<UpstreamAuth, { type: 'bearer' }>): AppliedAuth {
  const value = /^bearer\s/i.test(auth.token) ? auth.token : `Bearer ${auth.token}`;
  return { type: 'bearer', strip: ['authorization'], set: { authorization: value } };
}
