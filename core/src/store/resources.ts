import type { ApiKey, ContentPolicy, Exporter, Profile, Provider } from '../model/index.js';
import type { Database } from './database.js';
import { createResourceRepository, type ResourceRepository } from './repositories/resource-repository.js';

/** The repositories of the admin-managed resources, one table each (migration 001). */
export interface ResourceStore {
  providers: ResourceRepository<Provider>;
  profiles: ResourceRepository<Profile>;
  contentPolicies: ResourceRepository<ContentPolicy>;
  exporters: ResourceRepository<Exporter>;
  apiKeys: ResourceRepository<ApiKey>;
}

export function createResourceStore(db: Database): ResourceStore {
  return {
    providers: createResourceRepository<Provider>(db, {
      table: 'providers',
      columns: { tenant_id: (r) => r.tenant_id, name: (r) => r.name, status: (r) => r.status, managed_by: (r) => r.managed_by },
      conflicts: { providers_tenant_name_key: { en: 'a provider with this name already exists in this tenant', ru: 'провайдер с таким именем уже есть в этом тенанте' } },
    }),
    profiles: createResourceRepository<Profile>(db, {
      table: 'profiles',
      columns: {
        tenant_id: (r) => r.tenant_id,
        name: (r) => r.name,
        provider_id: (r) => r.provider_id,
        status: (r) => r.status,
        managed_by: (r) => r.managed_by,
      },
      conflicts: {
        profiles_tenant_name_key: { en: 'a profile with this name already exists in this tenant', ru: 'профиль с таким именем уже есть в этом тенанте' },
        profiles_one_active_per_provider: {
          en: 'the provider already has an active profile (1 provider : 1 active profile)',
          ru: 'у провайдера уже есть активный профиль (1 провайдер : 1 активный профиль)',
        },
        profiles_provider_id_fkey: { en: 'the provider does not exist', ru: 'провайдер не существует' },
      },
    }),
    contentPolicies: createResourceRepository<ContentPolicy>(db, {
      table: 'content_policies',
      columns: {
        tenant_id: (r) => r.tenant_id,
        name: (r) => r.name,
        status: (r) => r.status,
        priority: (r) => r.priority,
        managed_by: (r) => r.managed_by,
      },
      conflicts: { content_policies_tenant_name_key: { en: 'a content policy with this name already exists in this tenant', ru: 'контентная политика с таким именем уже есть в этом тенанте' } },
    }),
    exporters: createResourceRepository<Exporter>(db, {
      table: 'exporters',
      columns: { tenant_id: (r) => r.tenant_id, name: (r) => r.name, type: (r) => r.type, enabled: (r) => r.enabled, managed_by: (r) => r.managed_by },
      conflicts: { exporters_tenant_name_key: { en: 'an exporter with this name already exists in this tenant', ru: 'экспортёр с таким именем уже есть в этом тенанте' } },
    }),
    apiKeys: createResourceRepository<ApiKey>(db, {
      table: 'api_keys',
      columns: { tenant_id: (r) => r.tenant_id, name: (r) => r.name, key_hash: (r) => r.key_hash, revoked: (r) => r.revoked },
      conflicts: { api_keys_key_hash_key: { en: 'an API key with this value already exists', ru: 'API-ключ с таким значением уже существует' } },
    }),
  };
}
