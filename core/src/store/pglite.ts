import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { assertChannelName, StoreConnectionError, type Database, type Queryable, type QueryResult } from './database.js';
import { rethrowUnavailable } from './pg-errors.js';

export interface PgliteOptions {
  /** Folder for the database files; undefined keeps everything in memory (tests). */
  dataDir?: string;
}

function wrap(db: Pick<PGlite, 'query' | 'exec'>): Queryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const result = await db.query<Row>(sql, params as unknown[]).catch(rethrowUnavailable);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(sql: string): Promise<void> {
      await db.exec(sql).catch(rethrowUnavailable);
    },
  };
}


/** The embedded default: real PostgreSQL compiled to WebAssembly, in-process, no server to run. */
export async function openPglite(options: PgliteOptions = {}): Promise<Database> {
  let db: PGlite;
  try {
    if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
    db = await PGlite.create(options.dataDir);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new StoreConnectionError(`Cannot open the embedded database at ${options.dataDir ?? '(memory)'}: ${reason}`, { cause });
  }
  const root = wrap(db);
  return {
    kind: 'pglite',
    query: root.query,
    exec: root.exec,
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))).catch(rethrowUnavailable),
    async listen(channel, handler) {
      assertChannelName(channel);
      const unlisten = await db.listen(channel, handler);
      return async () => {
        await unlisten();
      };
    },
    async notify(channel, payload) {
      assertChannelName(channel);
      await db.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async ping() {
      await db.query('SELECT 1');
    },
    async close() {
      if (!db.closed) await db.close();
    },
  };
}
