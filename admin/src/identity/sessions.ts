// Ends everything the identity provider issued to a user (SSO sessions, grants, codes, access and
// refresh tokens): a disabled or deleted user gets no new token, and the authentication proxy's next
// refresh fails, which ends its session there too.
import type { Queryable } from '@palisade/core';

export async function endUserSessions(db: Queryable, userId: string): Promise<number> {
  const result = await db.query('DELETE FROM oidc_payloads WHERE account_id = $1', [userId]);
  return result.rowCount;
}
