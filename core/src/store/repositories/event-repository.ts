import type { Database } from '../database.js';
import { eventFilter, type EventQuery } from './event-filter.js';
import { eventStats, type EventStats, type EventStatsQuery } from './event-stats.js';

/** The columns a security event is filtered by; the full record (core/model) is kept in `data`. */
export interface EventRow {
  id: string;
  trace_id: string;
  timestamp: string;
  event_type: string;
  severity: string;
  tenant_id: string;
  provider_id?: string | null;
  profile_id?: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface EventRepository<E extends EventRow> {
  insert(events: E | E[]): Promise<void>;
  list(query?: EventQuery): Promise<{ items: E[]; total: number }>;
  /** One event by id (null when missing or not a UUID). */
  get(id: string): Promise<E | null>;
  /** The dashboard's aggregations over a window, computed in SQL. */
  stats(query: EventStatsQuery): Promise<EventStats>;
  /** Deletes events older than `before`; returns how many. Retention worker only. */
  deleteBefore(before: string): Promise<number>;
  /** Rewrites the stored record of each event older than `before` with `scrub` (detail retention). */
  scrubBefore(before: string, scrub: (event: E) => E, batchSize?: number): Promise<number>;
}

export function createEventRepository<E extends EventRow>(db: Database): EventRepository<E> {
  return {
    async insert(input) {
      const events = Array.isArray(input) ? input : [input];
      if (events.length === 0) return;
      const params: unknown[] = [];
      const rows = events.map((e) => {
        const base = params.length;
        params.push(e.id, e.trace_id, e.timestamp, e.event_type, e.severity, e.tenant_id, e.provider_id ?? null, e.profile_id ?? null, JSON.stringify(e));
        return `(${Array.from({ length: 9 }, (_, i) => `$${base + i + 1}${i === 8 ? '::jsonb' : ''}`).join(', ')})`;
      });
      // ON CONFLICT keeps the writer idempotent under the stream's at-least-once redelivery.
      await db.query(
        `INSERT INTO security_events (id, trace_id, ts, event_type, severity, tenant_id, provider_id, profile_id, data)
         VALUES ${rows.join(', ')} ON CONFLICT (id) DO NOTHING`,
        params,
      );
    },
    async list(query = {}) {
      const params: unknown[] = [];
      const where = eventFilter(query, params);
      const total = await db.query<{ n: string | number }>(`SELECT count(*) AS n FROM security_events ${where}`, params);
      const rows = await db.query<{ data: E }>(
        `SELECT data FROM security_events ${where} ORDER BY ts DESC, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, query.limit ?? 50, query.offset ?? 0],
      );
      return { items: rows.rows.map((r) => r.data), total: Number(total.rows[0]?.n ?? 0) };
    },
    async get(id) {
      if (!UUID.test(id)) return null;
      const result = await db.query<{ data: E }>('SELECT data FROM security_events WHERE id = $1', [id]);
      return result.rows[0]?.data ?? null;
    },
    stats: (query) => eventStats(db, query),
    async deleteBefore(before) {
      const result = await db.query('DELETE FROM security_events WHERE ts < $1', [before]);
      return result.rowCount;
    },
    async scrubBefore(before, scrub, batchSize = 500) {
      let changed = 0;
      for (;;) {
        // Scrubbed rows are marked in the record so that each batch moves on to new rows.
        const batch = await db.query<{ data: E }>(
          `SELECT data FROM security_events WHERE ts < $1 AND NOT (data ? '_scrubbed') ORDER BY ts LIMIT $2`,
          [before, batchSize],
        );
        if (batch.rows.length === 0) return changed;
        await db.transaction(async (tx) => {
          for (const { data } of batch.rows) {
            const next = { ...scrub(data), _scrubbed: true };
            await tx.query('UPDATE security_events SET data = $2::jsonb WHERE id = $1', [data.id, JSON.stringify(next)]);
          }
        });
        changed += batch.rows.length;
      }
    },
  };
}
