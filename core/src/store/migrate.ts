import type { Database } from './database.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';

// Arbitrary constant key: every replica that starts at once takes the same advisory lock, so only
// one applies migrations and the others find them done.
const MIGRATION_LOCK_KEY = 727_274_001;

export interface MigrationReport {
  applied: number[];
  current: number;
}

/** Applies the pending migrations, each in its own transaction; safe to run any number of times. */
export async function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<MigrationReport> {
  await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const applied: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (seen.rows.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  const current = await db.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations');
  return { applied, current: Number(current.rows[0]?.v ?? 0) };
}
