import { randomUUID } from 'node:crypto';
import { PalisadeError, Profile, ProfileCreate, ProfileUpdate, type ResourceStore } from '@palisade/core';
import type { TenantScope } from './providers.js';

export interface ProfileOperationsDeps {
  store: ResourceStore;
  now?: () => Date;
  onChange: () => Promise<void> | void;
}

/** Nested settings merge field by field, so `PUT {event_logging: {...}}` changes only what it names. */
function deepMerge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const current = out[key];
    out[key] =
      value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object' && !Array.isArray(current)
        ? deepMerge(current as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return out;
}

export function createProfileOperations(deps: ProfileOperationsDeps) {
  const now = () => (deps.now ?? (() => new Date()))().toISOString();
  const { profiles, providers } = deps.store;

  async function load(id: string, tenantId: string): Promise<Profile> {
    const profile = await profiles.get(id);
    if (!profile || profile.tenant_id !== tenantId) throw new PalisadeError('NOT_FOUND', { message: { en: `profile ${id} not found`, ru: `профиль ${id} не найден` } });
    return profile;
  }

  /** Spec: only ACTIVE providers are offered when creating a profile; a provider of another tenant is missing. */
  async function requireActiveProvider(providerId: string, tenantId: string) {
    const provider = await providers.get(providerId);
    if (!provider || provider.tenant_id !== tenantId) {
      throw new PalisadeError('VALIDATION_ERROR', { message: { en: `provider ${providerId} not found`, ru: `провайдер ${providerId} не найден` }, details: [{ path: 'provider_id', message: 'provider not found' }] });
    }
    if (provider.status !== 'ACTIVE') {
      throw new PalisadeError('CONFLICT', { message: { en: `provider ${provider.name} is ${provider.status}; only ACTIVE providers can get a profile`, ru: `провайдер ${provider.name} в статусе ${provider.status}; профиль можно создать только для ACTIVE` } });
    }
  }

  async function transition(id: string, tenantId: string, from: Profile['status'][], to: Profile['status']) {
    const profile = await load(id, tenantId);
    if (to === 'ACTIVE') await requireActiveProvider(profile.provider_id, tenantId);
    const updated = await profiles.update(id, (current) => {
      if (!from.includes(current.status)) throw new PalisadeError('CONFLICT', { message: { en: `profile is ${current.status}; this move needs ${from.join(' or ')}`, ru: `профиль в статусе ${current.status}; этот переход возможен из ${from.join(' или ')}` } });
      return { ...current, status: to, updated_at: now() };
    });
    await deps.onChange();
    return updated!;
  }

  return {
    async create(body: unknown, tenantId: string, managedBy: Profile['managed_by'] = 'api'): Promise<Profile> {
      const input = ProfileCreate.parse(body);
      await requireActiveProvider(input.provider_id, tenantId);
      const at = now();
      const record = Profile.parse({ ...input, id: randomUUID(), tenant_id: tenantId, managed_by: managedBy, status: 'DRAFT', created_at: at, updated_at: at });
      await profiles.insert(record);
      await deps.onChange();
      return record;
    },
    get: load,
    /** `tenantId`: one tenant, several (any of), or undefined for every tenant (super-admin). */
    async list(tenantId: TenantScope, query: { status?: string; provider_id?: string; limit?: number; offset?: number }) {
      return profiles.list({ where: { tenant_id: tenantId, status: query.status, provider_id: query.provider_id }, limit: query.limit ?? 50, offset: query.offset ?? 0 });
    },
    async update(id: string, body: unknown, tenantId: string, actor: Profile['managed_by'] = 'api'): Promise<Profile> {
      const patch = ProfileUpdate.parse(body) as Record<string, unknown>;
      if ('provider_id' in patch && patch.provider_id !== undefined) {
        const current = await load(id, tenantId);
        if (patch.provider_id !== current.provider_id) await requireActiveProvider(String(patch.provider_id), tenantId);
      } else {
        await load(id, tenantId);
      }
      const updated = await profiles.update(id, (current) => {
        if (current.status === 'ARCHIVED') throw new PalisadeError('CONFLICT', { message: { en: 'an archived profile is read-only; reactivate it first', ru: 'архивный профиль только для чтения; сначала активируйте его снова' } });
        if (current.managed_by === 'operator' && actor !== 'operator') {
          throw new PalisadeError('CONFLICT', { message: { en: 'this profile is managed by the Kubernetes operator; change its custom resource instead', ru: 'этим профилем управляет оператор Kubernetes; измените его custom resource' } });
        }
        return Profile.parse({ ...deepMerge(current as unknown as Record<string, unknown>, patch), updated_at: now() });
      });
      await deps.onChange();
      return updated!;
    },
    activate: (id: string, tenantId: string) => transition(id, tenantId, ['DRAFT'], 'ACTIVE'),
    archive: (id: string, tenantId: string) => transition(id, tenantId, ['ACTIVE'], 'ARCHIVED'),
    reactivate: (id: string, tenantId: string) => transition(id, tenantId, ['ARCHIVED'], 'ACTIVE'),
    async remove(id: string, tenantId: string): Promise<void> {
      await load(id, tenantId);
      await profiles.delete(id);
      await deps.onChange();
    },
  };
}

export type ProfileOperations = ReturnType<typeof createProfileOperations>;
