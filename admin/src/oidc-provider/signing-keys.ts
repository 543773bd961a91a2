// The IdP's token signing keys: created on first start, kept in the database with the private part
// sealed by PALISADE_SECRET_KEY (never in clear at rest), rotated by age or on demand. The newest key
// signs; older ones stay published in the JWKS until tokens they signed can no longer be alive.
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Database, SecretBox } from '@palisade/core';

export interface SigningKeyDeps {
  db: Database;
  secrets: SecretBox;
  now?: () => Date;
}

export interface SigningKeyPolicy {
  /** A key older than this is replaced by a new one at the next load. */
  rotateAfterMs: number;
  /** A replaced key stays published this long (longer than any token it signed lives). */
  retainAfterRotationMs: number;
}

interface KeyRow {
  kid: string;
  sealed_jwk: string;
  created_at: string | Date;
}

/** Creates a new signing key; it signs from the next (re)load of the provider. Returns its kid. */
export async function rotateSigningKey(deps: SigningKeyDeps): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const kid = randomUUID();
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const at = (deps.now ?? (() => new Date()))();
  await deps.db.query('INSERT INTO oidc_signing_keys (kid, sealed_jwk, created_at) VALUES ($1, $2, $3)', [kid, deps.secrets.seal(JSON.stringify(jwk)), at.toISOString()]);
  return kid;
}

/**
 * The private JWKs for oidc-provider, newest (the signing one) first: creates the first key, rotates
 * a key past `rotateAfterMs`, and drops keys replaced longer than `retainAfterRotationMs` ago.
 */
export async function loadSigningKeys(deps: SigningKeyDeps, policy: SigningKeyPolicy): Promise<JWK[]> {
  const now = (deps.now ?? (() => new Date()))().getTime();
  const read = async () =>
    (await deps.db.query<KeyRow>('SELECT kid, sealed_jwk, created_at FROM oidc_signing_keys ORDER BY created_at DESC, kid')).rows;
  let rows = await read();
  const newest = rows[0];
  if (!newest || now - new Date(newest.created_at).getTime() >= policy.rotateAfterMs) {
    await rotateSigningKey(deps);
    rows = await read();
  }
  // A key is "replaced" when the next newer one was created; it is kept while that is recent.
  const kept = rows.filter((row, i) => i === 0 || now - new Date(rows[i - 1]!.created_at).getTime() < policy.retainAfterRotationMs);
  const dropped = rows.filter((row) => !kept.includes(row)).map((row) => row.kid);
  if (dropped.length > 0) await deps.db.query('DELETE FROM oidc_signing_keys WHERE kid = ANY($1)', [dropped]);
  return kept.map((row) => JSON.parse(deps.secrets.open(row.sealed_jwk)) as JWK);
}
