import type { Report } from '../../model/report.js';
import type { Database } from '../database.js';

/** A PENDING report a worker has claimed, with the lease it must renew. */
export interface ClaimedReport {
  report: Report;
  /** Claims so far, this one included (a report whose workers keep dying is failed after a few). */
  attempts: number;
}

export interface ReportContent {
  report: Report;
  content: Buffer;
}

export interface ReportRepository {
  create(report: Report): Promise<Report>;
  /** The record without its file (null when missing or not a UUID). */
  get(id: string): Promise<Report | null>;
  list(query: { tenant_ids?: string[] | undefined; limit: number; offset: number }): Promise<{ items: Report[]; total: number }>;
  /** The record and its file, null when there is no such report or no file yet. */
  content(id: string): Promise<ReportContent | null>;
  delete(id: string): Promise<boolean>;
  /**
   * Claims the oldest PENDING report that no live worker holds (never claimed, or its lease ran out),
   * for `leaseMs`. Replicas skip rows another one is claiming right now (FOR UPDATE SKIP LOCKED).
   */
  claim(owner: string, leaseMs: number): Promise<ClaimedReport | null>;
  /** Extends the lease; false when the report is no longer this worker's (lease taken over, deleted). */
  renew(id: string, owner: string, leaseMs: number): Promise<boolean>;
  /** Stores the file and marks it COMPLETED, if the worker still holds the lease. */
  complete(id: string, owner: string, content: Buffer, completedAt: string): Promise<boolean>;
  /** Marks it FAILED with the reason, if the worker still holds the lease (or owner is null: any). */
  fail(id: string, owner: string | null, error: string, at: string): Promise<boolean>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Row {
  data: Report;
  status: Report['status'];
  size_bytes: number | null;
}

/** The record as stored, with the columns that change after creation laid over it. */
const RECORD = `data || jsonb_build_object('status', status) AS data, status, octet_length(content) AS size_bytes`;
const toReport = (row: Row): Report => ({ ...row.data, size_bytes: row.size_bytes === null ? null : Number(row.size_bytes) });

export function createReportRepository(db: Database): ReportRepository {
  const held = `id = $1 AND status = 'PENDING' AND lease_owner = $2`;
  return {
    async create(report) {
      await db.query('INSERT INTO reports (id, tenant_id, status, data, created_at, updated_at) VALUES ($1, $2, $3, $4::jsonb, $5, $5)', [
        report.id,
        report.tenant_id,
        report.status,
        JSON.stringify(report),
        report.created_at,
      ]);
      return report;
    },
    async get(id) {
      if (!UUID.test(id)) return null;
      const result = await db.query<Row>(`SELECT ${RECORD} FROM reports WHERE id = $1`, [id]);
      return result.rows[0] ? toReport(result.rows[0]) : null;
    },
    async list({ tenant_ids, limit, offset }) {
      const params: unknown[] = [limit, offset];
      let where = '';
      if (tenant_ids) {
        params.push(tenant_ids);
        where = 'WHERE tenant_id = ANY($3)';
      }
      const result = await db.query<Row & { total: number }>(
        `SELECT ${RECORD}, count(*) OVER ()::int AS total FROM reports ${where} ORDER BY created_at DESC, id LIMIT $1 OFFSET $2`,
        params,
      );
      let total = Number(result.rows[0]?.total ?? 0);
      if (result.rows.length === 0 && offset > 0) {
        const count = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM reports ${where.replace('$3', '$1')}`, tenant_ids ? [tenant_ids] : []);
        total = Number(count.rows[0]?.n ?? 0);
      }
      return { items: result.rows.map(toReport), total };
    },
    async content(id) {
      if (!UUID.test(id)) return null;
      const result = await db.query<Row & { content: Uint8Array | null }>(`SELECT ${RECORD}, content FROM reports WHERE id = $1`, [id]);
      const row = result.rows[0];
      if (!row || !row.content) return null;
      return { report: toReport(row), content: Buffer.from(row.content.buffer, row.content.byteOffset, row.content.byteLength) };
    },
    async delete(id) {
      if (!UUID.test(id)) return false;
      return (await db.query('DELETE FROM reports WHERE id = $1', [id])).rowCount > 0;
    },
    async claim(owner, leaseMs) {
      const result = await db.query<Row & { attempts: number }>(
        `UPDATE reports SET lease_owner = $1, lease_expires_at = clock_timestamp() + make_interval(secs => $2::float8 / 1000),
           attempts = attempts + 1, updated_at = clock_timestamp()
         WHERE id = (
           SELECT id FROM reports
           WHERE status = 'PENDING' AND (lease_expires_at IS NULL OR lease_expires_at < clock_timestamp())
           ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING ${RECORD}, attempts`,
        [owner, leaseMs],
      );
      const row = result.rows[0];
      return row ? { report: toReport(row), attempts: Number(row.attempts) } : null;
    },
    async renew(id, owner, leaseMs) {
      const result = await db.query(`UPDATE reports SET lease_expires_at = clock_timestamp() + make_interval(secs => $3::float8 / 1000) WHERE ${held}`, [id, owner, leaseMs]);
      return result.rowCount > 0;
    },
    async complete(id, owner, content, completedAt) {
      const result = await db.query(
        `UPDATE reports SET status = 'COMPLETED', content = $3, lease_owner = NULL, lease_expires_at = NULL, updated_at = $4::timestamptz,
           data = data || jsonb_build_object('status', 'COMPLETED', 'completed_at', $4::text, 'size_bytes', $5::int)
         WHERE ${held}`,
        [id, owner, content, completedAt, content.length],
      );
      return result.rowCount > 0;
    },
    async fail(id, owner, error, at) {
      const result = await db.query(
        `UPDATE reports SET status = 'FAILED', lease_owner = NULL, lease_expires_at = NULL, updated_at = $4::timestamptz,
           data = data || jsonb_build_object('status', 'FAILED', 'error', $3::text, 'completed_at', $4::text)
         WHERE id = $1 AND status = 'PENDING' AND ($2::text IS NULL OR lease_owner = $2)`,
        [id, owner, error, at],
      );
      return result.rowCount > 0;
    },
  };
}
