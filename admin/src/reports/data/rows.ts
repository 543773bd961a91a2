// SQL helpers of the report builders: the period and tenant filter, and rows read through a cursor so
// that a long per-day or per-model listing is never held whole by the driver.
import type { Database, Queryable } from '@palisade/core';
import type { Report } from '@palisade/core';

export interface Scope {
  from: string;
  to: string;
  /** undefined = every tenant. */
  tenantIds: string[] | undefined;
}

export function scopeOf(report: Report): Scope {
  return { from: new Date(report.period_start).toISOString(), to: new Date(report.period_end).toISOString(), tenantIds: report.all_tenants ? undefined : [report.tenant_id] };
}

/** A WHERE clause and its parameters: what every query of one report shares. */
export interface Filter {
  where: string;
  params: unknown[];
}

/** `<column> >= $1 AND <column> < $2 [AND tenant_id = ANY($3)]` with its parameters. */
export function periodFilter(scope: Scope, column: string): Filter {
  const params: unknown[] = [scope.from, scope.to];
  let where = `${column} >= $1 AND ${column} < $2`;
  if (scope.tenantIds) {
    params.push(scope.tenantIds);
    where += ' AND tenant_id = ANY($3)';
  }
  return { where, params };
}

/** Rows of a query, fetched `fetchSize` at a time from a server-side cursor (one transaction). */
export async function forEachRow<Row>(db: Database, sql: string, params: readonly unknown[], onRow: (row: Row) => void, fetchSize = 500): Promise<void> {
  await db.transaction(async (tx: Queryable) => {
    await tx.query(`DECLARE report_rows NO SCROLL CURSOR FOR ${sql}`, params);
    for (;;) {
      const batch = await tx.query<Row>(`FETCH ${fetchSize} FROM report_rows`);
      for (const row of batch.rows) onRow(row);
      if (batch.rows.length < fetchSize) break;
    }
    await tx.query('CLOSE report_rows');
  });
}

/** All rows of a small aggregate (a top-N, a breakdown by an enum). */
export async function rowsOf<Row>(db: Database, sql: string, params: readonly unknown[]): Promise<Row[]> {
  return (await db.query<Row>(sql, params)).rows;
}

/** Numbers come back as strings from some drivers for bigint/numeric: every figure goes through this. */
export const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

/** The text with every PII value the event names replaced by its masked form, cut to `max` characters. */
export function maskedExcerpt(text: string | null, entities: ReadonlyArray<{ value?: string; masked?: string }>, max = 90): string {
  if (!text) return '';
  let out = text;
  for (const e of entities) if (e.value && e.masked !== undefined) out = out.split(e.value).join(e.masked);
  out = out.replace(/\s+/g, ' ').trim();
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

const DAY_MS = 86_400_000;

/**
 * The per-day rows with every UTC day of the period present (zeros where a day had none), so a
 * timeline's x axis is time, not "days that had data". `day` is YYYY-MM-DD.
 */
export function everyDay<Row extends { day: string }>(rows: readonly Row[], scope: Scope, zero: Omit<Row, 'day'>): Row[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const out: Row[] = [];
  const from = new Date(scope.from);
  const end = Date.parse(scope.to);
  for (let at = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()); at < end; at += DAY_MS) {
    const day = new Date(at).toISOString().slice(0, 10);
    out.push(byDay.get(day) ?? ({ ...zero, day } as Row));
  }
  return out;
}
