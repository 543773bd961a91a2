import type { UsageBatch } from '../../model/usage.js';
import type { Database } from '../database.js';

/** Request totals over a window from the usage rollups. */
export interface UsageTotals {
  requests: number;
  usage_reported: number;
  input_tokens: number;
  output_tokens: number;
  latency_ms_sum: number;
}

export interface UsageRepository {
  /**
   * Adds a flushed batch to the rollups, once: its id is recorded in the same transaction, and a batch
   * seen before is skipped. Resolves to false for such a duplicate.
   */
  storeBatch(batch: UsageBatch): Promise<boolean>;
  /** Totals over [from, to) of the tenants (all when undefined). */
  totals(query: { tenant_ids?: string[] | undefined; from: string; to: string }): Promise<UsageTotals>;
  /** Requests per UTC day (YYYY-MM-DD) over [from, to), days with none left out. */
  requestsPerDay(query: { tenant_ids?: string[] | undefined; from: string; to: string }): Promise<Map<string, number>>;
  /** Deletes rollups and batch ids older than `before` (retention); returns the rollup rows deleted. */
  deleteBefore(before: string): Promise<number>;
}

/** Each rollup row binds this many parameters; PostgreSQL allows 65 535 per statement. */
const ROLLUP_PARAMS = 14;
const ROWS_PER_STATEMENT = Math.floor(65_535 / ROLLUP_PARAMS);

const TOTALS = `coalesce(sum(requests), 0)::float8 AS requests, coalesce(sum(usage_reported), 0)::float8 AS usage_reported,
  coalesce(sum(input_tokens), 0)::float8 AS input_tokens, coalesce(sum(output_tokens), 0)::float8 AS output_tokens,
  coalesce(sum(latency_ms_sum), 0)::float8 AS latency_ms_sum`;

function windowFilter(query: { tenant_ids?: string[] | undefined; from: string; to: string }, params: unknown[]): string {
  params.push(query.from, query.to);
  let where = 'minute >= $1 AND minute < $2';
  if (query.tenant_ids) {
    params.push(query.tenant_ids);
    where += ` AND tenant_id = ANY($${params.length})`;
  }
  return where;
}

export function createUsageRepository(db: Database): UsageRepository {
  return {
    async storeBatch(batch) {
      return db.transaction(async (tx) => {
        const first = await tx.query('INSERT INTO usage_batches (batch_id) VALUES ($1) ON CONFLICT (batch_id) DO NOTHING RETURNING batch_id', [batch.batch_id]);
        if (first.rows.length === 0) return false;
        for (let start = 0; start < batch.rollups.length; start += ROWS_PER_STATEMENT) {
          const params: unknown[] = [];
          const rows = batch.rollups.slice(start, start + ROWS_PER_STATEMENT).map((r) => {
            const base = params.length;
            params.push(r.minute, r.tenant_id, r.provider_id, r.provider_name, r.model, r.decision, r.status_class, r.inspected);
            params.push(r.requests, r.usage_reported, r.input_tokens, r.output_tokens, r.latency_ms_sum, r.latency_buckets);
            return `(${Array.from({ length: ROLLUP_PARAMS }, (_, i) => `$${base + i + 1}${i === 13 ? '::bigint[]' : ''}`).join(', ')})`;
          });
          // Two gateways (or two flushes) of the same minute add up; the buckets add element-wise.
          await tx.query(
            `INSERT INTO usage_rollups (minute, tenant_id, provider_id, provider_name, model, decision, status_class, inspected,
               requests, usage_reported, input_tokens, output_tokens, latency_ms_sum, latency_buckets)
             VALUES ${rows.join(', ')}
             ON CONFLICT (tenant_id, minute, provider_id, model, decision, status_class, inspected) DO UPDATE SET
               provider_name = EXCLUDED.provider_name,
               requests = usage_rollups.requests + EXCLUDED.requests,
               usage_reported = usage_rollups.usage_reported + EXCLUDED.usage_reported,
               input_tokens = usage_rollups.input_tokens + EXCLUDED.input_tokens,
               output_tokens = usage_rollups.output_tokens + EXCLUDED.output_tokens,
               latency_ms_sum = usage_rollups.latency_ms_sum + EXCLUDED.latency_ms_sum,
               latency_buckets = ARRAY(SELECT a + b FROM unnest(usage_rollups.latency_buckets, EXCLUDED.latency_buckets) AS u(a, b))`,
            params,
          );
        }
        return true;
      });
    },
    async totals(query) {
      const params: unknown[] = [];
      const result = await db.query<UsageTotals>(`SELECT ${TOTALS} FROM usage_rollups WHERE ${windowFilter(query, params)}`, params);
      const row = result.rows[0]!;
      return { requests: Number(row.requests), usage_reported: Number(row.usage_reported), input_tokens: Number(row.input_tokens), output_tokens: Number(row.output_tokens), latency_ms_sum: Number(row.latency_ms_sum) };
    },
    async requestsPerDay(query) {
      const params: unknown[] = [];
      const result = await db.query<{ day: string; requests: number }>(
        `SELECT to_char(minute AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, sum(requests)::float8 AS requests
         FROM usage_rollups WHERE ${windowFilter(query, params)} GROUP BY 1`,
        params,
      );
      return new Map(result.rows.map((r) => [r.day, Number(r.requests)]));
    },
    async deleteBefore(before) {
      const result = await db.query('DELETE FROM usage_rollups WHERE minute < $1', [before]);
      await db.query('DELETE FROM usage_batches WHERE stored_at < $1', [before]);
      return result.rowCount;
    },
  };
}
