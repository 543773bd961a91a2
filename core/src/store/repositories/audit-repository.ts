import type { Database } from '../database.js';

export interface AuditRow {
  id: string;
  timestamp: string;
  user_id: string;
  action: string;
  resource_type: string;
  resource_id?: string | null;
  tenant_id?: string | null;
}

export interface AuditQuery {
  user_id?: string;
  action?: string;
  resource_type?: string;
  resource_id?: string;
  tenant_ids?: string[];
  limit?: number;
  offset?: number;
}

/** Append-only: there is no update and no delete by id; only retention removes old records. */
export interface AuditRepository<A extends AuditRow> {
  append(record: A): Promise<void>;
  list(query?: AuditQuery): Promise<{ items: A[]; total: number }>;
  deleteBefore(before: string): Promise<number>;
}

export function createAuditRepository<A extends AuditRow>(db: Database): AuditRepository<A> {
  return {
    async append(record) {
      await db.query(
        `INSERT INTO audit_log (id, ts, user_id, action, resource_type, resource_id, tenant_id, data)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)`,
        [record.id, record.timestamp, record.user_id, record.action, record.resource_type, record.resource_id ?? null, record.tenant_id ?? null, JSON.stringify(record)],
      );
    },
    async list(query = {}) {
      const params: unknown[] = [];
      const parts: string[] = [];
      for (const column of ['user_id', 'action', 'resource_type', 'resource_id'] as const) {
        const value = query[column];
        if (value === undefined) continue;
        params.push(value);
        parts.push(`${column} = $${params.length}`);
      }
      if (query.tenant_ids) {
        params.push(query.tenant_ids);
        parts.push(`tenant_id = ANY($${params.length})`);
      }
      const where = parts.length ? `WHERE ${parts.join(' AND ')}` : '';
      const total = await db.query<{ n: string | number }>(`SELECT count(*) AS n FROM audit_log ${where}`, params);
      const rows = await db.query<{ data: A }>(
        `SELECT data FROM audit_log ${where} ORDER BY ts DESC, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, query.limit ?? 50, query.offset ?? 0],
      );
      return { items: rows.rows.map((r) => r.data), total: Number(total.rows[0]?.n ?? 0) };
    },
    async deleteBefore(before) {
      const result = await db.query('DELETE FROM audit_log WHERE ts < $1', [before]);
      return result.rowCount;
    },
  };
}
