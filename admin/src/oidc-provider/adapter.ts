// oidc-provider's storage adapter over our Database (PostgreSQL or PGlite), so sessions, grants and
// tokens survive restarts and are shared by replicas. One row per (model, id); the columns beside the
// payload are the lookups the adapter interface needs (grant, session uid, user code) plus the
// account, so that disabling or deleting a user can end everything issued to it (identity/sessions.ts).
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '@palisade/core';

/** Models whose rows belong to a grant (revokeByGrantId removes them together). */
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest', 'Grant']);

export interface DatabaseAdapterDeps {
  db: Database;
  now?: () => Date;
}

export function createDatabaseAdapterFactory(deps: DatabaseAdapterDeps): (model: string) => Adapter {
  const { db } = deps;
  const now = () => (deps.now ?? (() => new Date()))();

  async function findWhere(model: string, column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
    const result = await db.query<{ payload: AdapterPayload }>(
      `SELECT payload FROM oidc_payloads WHERE model = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > $3) LIMIT 1`,
      [model, value, now().toISOString()],
    );
    return result.rows[0]?.payload;
  }

  return (model: string): Adapter => ({
    async upsert(id, payload, expiresIn) {
      const expiresAt = expiresIn ? new Date(now().getTime() + expiresIn * 1000).toISOString() : null;
      const grantId = GRANTABLE.has(model) ? (payload.grantId ?? (model === 'Grant' ? id : null)) : null;
      await db.query(
        `INSERT INTO oidc_payloads (model, id, payload, grant_id, uid, user_code, account_id, expires_at)
         VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8)
         ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
           user_code = EXCLUDED.user_code, account_id = EXCLUDED.account_id, expires_at = EXCLUDED.expires_at`,
        [model, id, JSON.stringify(payload), grantId, payload.uid ?? null, payload.userCode ?? null, payload.accountId ?? null, expiresAt],
      );
    },
    find: (id) => findWhere(model, 'id', id),
    findByUid: (uid) => findWhere(model, 'uid', uid),
    findByUserCode: (userCode) => findWhere(model, 'user_code', userCode),
    async consume(id) {
      await db.query(
        `UPDATE oidc_payloads SET payload = jsonb_set(payload, '{consumed}', to_jsonb($3::bigint)) WHERE model = $1 AND id = $2`,
        [model, id, Math.floor(now().getTime() / 1000)],
      );
    },
    async destroy(id) {
      await db.query('DELETE FROM oidc_payloads WHERE model = $1 AND id = $2', [model, id]);
    },
    async revokeByGrantId(grantId) {
      await db.query('DELETE FROM oidc_payloads WHERE grant_id = $1', [grantId]);
    },
  });
}

/** Removes expired rows; the IdP runs it now and then (expired rows are already invisible to find). */
export async function sweepExpiredPayloads(db: Database, at: Date): Promise<number> {
  const result = await db.query('DELETE FROM oidc_payloads WHERE expires_at IS NOT NULL AND expires_at <= $1', [at.toISOString()]);
  return result.rowCount;
}
