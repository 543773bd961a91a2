import type { Database } from '../database.js';

/** A built bundle as stored: its revision (the ETag) and the gzip tar. */
export interface StoredPolicyBundle {
  revision: string;
  archive: Buffer;
  built_at: string;
}

export interface BundleRepository {
  /** The revision of the stored bundle, or null; a cheap read for pollers. */
  revision(name?: string): Promise<string | null>;
  get(name?: string): Promise<StoredPolicyBundle | null>;
  /** Stores the bundle under `name` (default `default`), replacing the previous one. */
  save(bundle: { revision: string; archive: Buffer }, name?: string): Promise<void>;
}

export const DEFAULT_BUNDLE_NAME = 'default';

/** The policy_bundles table (migration 002). */
export function createBundleRepository(db: Database): BundleRepository {
  return {
    async revision(name = DEFAULT_BUNDLE_NAME) {
      const result = await db.query<{ revision: string }>('SELECT revision FROM policy_bundles WHERE name = $1', [name]);
      return result.rows[0]?.revision ?? null;
    },
    async get(name = DEFAULT_BUNDLE_NAME) {
      const result = await db.query<{ revision: string; archive_base64: string; built_at: Date | string }>(
        'SELECT revision, archive_base64, built_at FROM policy_bundles WHERE name = $1',
        [name],
      );
      const row = result.rows[0];
      if (!row) return null;
      const builtAt = row.built_at instanceof Date ? row.built_at.toISOString() : new Date(row.built_at).toISOString();
      return { revision: row.revision, archive: Buffer.from(row.archive_base64, 'base64'), built_at: builtAt };
    },
    async save(bundle, name = DEFAULT_BUNDLE_NAME) {
      await db.query(
        `INSERT INTO policy_bundles (name, revision, archive_base64, built_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (name) DO UPDATE SET revision = EXCLUDED.revision, archive_base64 = EXCLUDED.archive_base64, built_at = EXCLUDED.built_at`,
        [name, bundle.revision, bundle.archive.toString('base64')],
      );
    },
  };
}
