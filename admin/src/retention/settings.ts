// The installation's retention settings (one record for every tenant: retention is an operating
// policy of the deployment, applied by one worker over all tables). Defaults until an admin saves them.
import { RetentionSettings, RetentionSettingsCreate, RetentionSettingsUpdate, createRetentionRepository, type Database } from '@palisade/core';

/** The key of the installation-wide row in retention_settings (its tenant_id column). */
export const GLOBAL_RETENTION_SCOPE = '*';

export function createRetentionSettingsStore(db: Database) {
  const repo = createRetentionRepository<RetentionSettings>(db);
  /** The saved settings, or the defaults (updated_at null) when none were saved. */
  const load = async (): Promise<RetentionSettings> => RetentionSettings.parse((await repo.getSettings(GLOBAL_RETENTION_SCOPE)) ?? {});
  return {
    load,
    /** Applies a partial change (fields left out keep their value); the result must satisfy every rule. */
    async update(body: unknown, by: string, at: Date): Promise<RetentionSettings> {
      const patch = RetentionSettingsUpdate.parse(body);
      const current = await load();
      const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      const checked = RetentionSettingsCreate.parse({ ...current, ...defined });
      const record = RetentionSettings.parse({ ...checked, updated_at: at.toISOString(), updated_by: by });
      return repo.putSettings(GLOBAL_RETENTION_SCOPE, record, record.updated_at!);
    },
  };
}

export type RetentionSettingsStore = ReturnType<typeof createRetentionSettingsStore>;
