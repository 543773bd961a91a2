/**
 * The identity provider's state: what oidc-provider persists through its adapter (sessions, grants,
 * codes, tokens, interactions — one row per model and id, the payload as jsonb), its signing keys
 * (private JWKs sealed with PALISADE_SECRET_KEY) and the brute-force counters of the login form.
 */
export const sql = /* sql */ `
CREATE TABLE oidc_payloads (
  model text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  uid text,
  user_code text,
  account_id text,
  expires_at timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX oidc_payloads_grant_id ON oidc_payloads (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_payloads_uid ON oidc_payloads (uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_payloads_account_id ON oidc_payloads (account_id) WHERE account_id IS NOT NULL;
CREATE INDEX oidc_payloads_expires_at ON oidc_payloads (expires_at);

CREATE TABLE oidc_signing_keys (
  kid text PRIMARY KEY,
  sealed_jwk text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE login_failures (
  key text PRIMARY KEY,
  failures integer NOT NULL,
  locked_until timestamptz,
  last_failure_at timestamptz NOT NULL
);
`;
