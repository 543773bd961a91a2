import { join } from 'node:path';
import type { Database } from './database.js';
import { migrate } from './migrate.js';
import { connectPostgres } from './postgres.js';
import { openPglite } from './pglite.js';

export interface OpenDatabaseOptions {
  /** A postgres:// URL; when absent the embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** Folder for PGlite's files (its `pgdata` sub-folder); undefined = in memory. */
  dataDir?: string | undefined;
  /** Apply pending migrations after connecting (default true). */
  migrate?: boolean;
  poolSize?: number;
}

/** Connects to PostgreSQL when a URL is given, else opens PGlite, then brings the schema up to date. */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const db = options.databaseUrl
    ? await connectPostgres({ url: options.databaseUrl, ...(options.poolSize ? { poolSize: options.poolSize } : {}) })
    : await openPglite(options.dataDir ? { dataDir: join(options.dataDir, 'pgdata') } : {});
  if (options.migrate !== false) {
    try {
      await migrate(db);
    } catch (error) {
      await db.close().catch(() => {});
      throw error;
    }
  }
  return db;
}
