import type { Database, Queryable } from '../database.js';
import { mapConstraintError } from '../pg-errors.js';
import type { Texts } from '../../errors/index.js';

/** What every stored resource record has, whatever its model. */
export interface StoredRecord {
  id: string;
  created_at: string;
  /** Records that never change after creation (API keys) may leave it out. */
  updated_at?: string;
}

export interface ResourceTableSpec<T extends StoredRecord> {
  table: string;
  /** Columns kept beside `data`, each computed from the record (filters, joins, constraints). */
  columns: Record<string, (record: T) => unknown>;
  /** Constraint name → the conflict message a user sees. */
  conflicts?: Record<string, Texts>;
}

export interface ListOptions {
  /** Equality filters on declared columns; an array means "any of". */
  where?: Record<string, unknown>;
  limit?: number;
  offset?: number;
  order?: 'created_at' | 'updated_at' | 'name';
  direction?: 'asc' | 'desc';
}

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

export interface ResourceRepository<T extends StoredRecord> {
  insert(record: T): Promise<T>;
  get(id: string): Promise<T | null>;
  /** First record whose columns equal `where`. */
  findOne(where: Record<string, unknown>): Promise<T | null>;
  list(options?: ListOptions): Promise<Page<T>>;
  /** Every record whose columns equal `where`, oldest first (for snapshots such as the policy bundle). */
  all(where?: Record<string, unknown>): Promise<T[]>;
  /** Reads the record under a row lock, applies `change`, stores the result; null when missing. */
  update(id: string, change: (current: T) => T | Promise<T>): Promise<T | null>;
  delete(id: string): Promise<boolean>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A repository for one admin-managed resource; the same SQL runs on PostgreSQL and PGlite. */
export function createResourceRepository<T extends StoredRecord>(db: Database, spec: ResourceTableSpec<T>): ResourceRepository<T> {
  const columnNames = Object.keys(spec.columns);
  const allColumns = ['id', ...columnNames, 'data', 'created_at', 'updated_at'];
  const known = new Set([...allColumns]);

  const values = (record: T): unknown[] => [
    record.id,
    ...columnNames.map((c) => spec.columns[c]!(record)),
    JSON.stringify(record),
    record.created_at,
    record.updated_at ?? record.created_at,
  ];
  const placeholders = allColumns.map((c, i) => (c === 'data' ? `$${i + 1}::jsonb` : `$${i + 1}`)).join(', ');
  const insertSql = `INSERT INTO ${spec.table} (${allColumns.join(', ')}) VALUES (${placeholders})`;
  const updateSql = `UPDATE ${spec.table} SET ${allColumns
    .slice(1)
    .map((c, i) => `${c} = ${c === 'data' ? `$${i + 2}::jsonb` : `$${i + 2}`}`)
    .join(', ')} WHERE id = $1`;

  const guard = async <R>(work: () => Promise<R>): Promise<R> => {
    try {
      return await work();
    } catch (error) {
      throw mapConstraintError(error, spec.conflicts);
    }
  };

  function whereClause(where: Record<string, unknown> = {}, params: unknown[]): string {
    const parts: string[] = [];
    for (const [column, value] of Object.entries(where)) {
      if (value === undefined) continue;
      // Column names come from the table spec, never from a caller's string, so SQL stays fixed.
      if (!known.has(column)) throw new Error(`${spec.table}: cannot filter on undeclared column ${column}`);
      if (Array.isArray(value)) {
        params.push(value);
        parts.push(`${column} = ANY($${params.length})`);
      } else if (value === null) {
        parts.push(`${column} IS NULL`);
      } else {
        params.push(value);
        parts.push(`${column} = $${params.length}`);
      }
    }
    return parts.length ? `WHERE ${parts.join(' AND ')}` : '';
  }

  async function getWith(q: Queryable, id: string, lock: boolean): Promise<T | null> {
    if (!UUID.test(id)) return null;
    const result = await q.query<{ data: T }>(`SELECT data FROM ${spec.table} WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    return result.rows[0]?.data ?? null;
  }

  return {
    async insert(record) {
      await guard(() => db.query(insertSql, values(record)));
      return record;
    },
    get: (id) => getWith(db, id, false),
    async findOne(where) {
      const params: unknown[] = [];
      const result = await db.query<{ data: T }>(`SELECT data FROM ${spec.table} ${whereClause(where, params)} LIMIT 1`, params);
      return result.rows[0]?.data ?? null;
    },
    async list(options = {}) {
      const limit = options.limit ?? 50;
      const offset = options.offset ?? 0;
      const order = options.order && known.has(options.order) ? options.order : 'created_at';
      const direction = options.direction === 'asc' ? 'ASC' : 'DESC';
      const params: unknown[] = [];
      const where = whereClause(options.where, params);
      const count = await db.query<{ n: string | number }>(`SELECT count(*) AS n FROM ${spec.table} ${where}`, params);
      const page = await db.query<{ data: T }>(
        `SELECT data FROM ${spec.table} ${where} ORDER BY ${order} ${direction}, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, limit, offset],
      );
      return { items: page.rows.map((r) => r.data), total: Number(count.rows[0]?.n ?? 0), limit, offset };
    },
    async all(where) {
      const params: unknown[] = [];
      const result = await db.query<{ data: T }>(`SELECT data FROM ${spec.table} ${whereClause(where, params)} ORDER BY created_at, id`, params);
      return result.rows.map((r) => r.data);
    },
    async update(id, change) {
      return guard(() =>
        db.transaction(async (tx) => {
          const current = await getWith(tx, id, true);
          if (!current) return null;
          const next = await change(current);
          await tx.query(updateSql, values({ ...next, id: current.id }));
          return { ...next, id: current.id };
        }),
      );
    },
    async delete(id) {
      if (!UUID.test(id)) return false;
      const result = await guard(() => db.query(`DELETE FROM ${spec.table} WHERE id = $1`, [id]));
      return result.rowCount > 0;
    },
  };
}
