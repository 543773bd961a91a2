import pg from 'pg';
import { assertChannelName, redactUrl, StoreConnectionError, type Database, type Queryable, type QueryResult } from './database.js';
import { mapUnavailableError, rethrowUnavailable } from './pg-errors.js';

export interface PostgresOptions {
  url: string;
  poolSize?: number;
  connectTimeoutMs?: number;
}

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const result = await client.query(sql, params as unknown[]).catch(rethrowUnavailable);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
    },
    async exec(sql: string): Promise<void> {
      // Without parameters pg uses the simple query protocol, which accepts several statements.
      await client.query(sql).catch(rethrowUnavailable);
    },
  };
}

/** A pool whose server has answered, so a wrong DATABASE_URL fails at start with one line. */
async function openPool(options: PostgresOptions): Promise<pg.Pool> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  try {
    await pool.query('SELECT 1');
  } catch (cause) {
    await pool.end().catch(() => {});
    const reason = cause instanceof Error ? cause.message || cause.name : String(cause);
    throw new StoreConnectionError(`Cannot connect to PostgreSQL at ${redactUrl(options.url)}: ${reason}`, { cause });
  }
  return pool;
}

/** Connects a pool and checks the server answers; LISTEN runs on one client of its own. */
export async function connectPostgres(options: PostgresOptions): Promise<Database> {
  const pool = await openPool(options);
  let listener: pg.PoolClient | undefined;
  const handlers = new Map<string, Set<(payload: string) => void>>();

  async function listenerClient(): Promise<pg.PoolClient> {
    if (listener) return listener;
    const client = await pool.connect();
    client.on('notification', (msg) => {
      for (const handler of handlers.get(msg.channel) ?? []) handler(msg.payload ?? '');
    });
    client.on('error', () => {});
    listener = client;
    return client;
  }

  const root = wrap(pool);
  return {
    kind: 'postgres',
    query: root.query,
    exec: root.exec,
    async transaction(fn) {
      const client = await pool.connect().catch(rethrowUnavailable);
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw mapUnavailableError(error);
      } finally {
        client.release();
      }
    },
    async listen(channel, handler) {
      assertChannelName(channel);
      const client = await listenerClient();
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await client.query(`LISTEN ${channel}`);
      }
      set.add(handler);
      return async () => {
        set.delete(handler);
        if (set.size === 0 && handlers.get(channel) === set) {
          handlers.delete(channel);
          await client.query(`UNLISTEN ${channel}`).catch(() => {});
        }
      };
    },
    async notify(channel, payload) {
      assertChannelName(channel);
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      listener?.release();
      listener = undefined;
      await pool.end();
    },
  };
}
