import type { Database } from '../database.js';

/**
 * What retention needs beyond the event and audit repositories: the stored settings (table
 * retention_settings, one row per scope key) and the deletion of old reports (table reports).
 */
export interface RetentionRepository<S extends object> {
  /** The stored settings of a scope, or null when none were saved. */
  getSettings(scope: string): Promise<S | null>;
  /** Saves the settings of a scope (insert or replace). */
  putSettings(scope: string, settings: S, updatedAt: string): Promise<S>;
  /** Deletes reports created before `before`; returns how many. */
  deleteReportsBefore(before: string): Promise<number>;
}

export function createRetentionRepository<S extends object>(db: Database): RetentionRepository<S> {
  return {
    async getSettings(scope) {
      const result = await db.query<{ data: S }>('SELECT data FROM retention_settings WHERE tenant_id = $1', [scope]);
      return result.rows[0]?.data ?? null;
    },
    async putSettings(scope, settings, updatedAt) {
      await db.query(
        `INSERT INTO retention_settings (tenant_id, data, updated_at) VALUES ($1, $2::jsonb, $3)
         ON CONFLICT (tenant_id) DO UPDATE SET data = EXCLUDED.data, updated_at = EXCLUDED.updated_at`,
        [scope, JSON.stringify(settings), updatedAt],
      );
      return settings;
    },
    async deleteReportsBefore(before) {
      const result = await db.query('DELETE FROM reports WHERE created_at < $1', [before]);
      return result.rowCount;
    },
  };
}
