// What every upstream auth kind produces, and the record of the OAuth kind.
import type { UpstreamAuth } from '@palisade/core';

export type OAuthClientCredentials = Extract<UpstreamAuth, { type: 'oauth2_client_credentials' }>;

/** What an auth kind does to the forwarded headers. */
export interface AppliedAuth {
  type: UpstreamAuth['type'];
  /** Lower-case names removed from the forwarded headers before `set` is applied. */
  strip: string[];
  /** Headers to add (lower-case names). */
  set: Record<string, string>;
  /** The OAuth access token used, so a 401 can refresh exactly this one. */
  token?: string;
}
