// Gateway API keys (DECISIONS.md, "Gateway credentials"): the clear key is made here, shown once in
// the create reply, and only its SHA-256 is stored. The registry mounts these now; the admin API
// mounts the same operations behind its roles.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ApiKey, ApiKeyCreate, ApiKeyUpdate, PalisadeError, type ApiKeyCreated, type ApiKeyPublic, type ResourceStore } from '@palisade/core';
import type { TenantScope } from '../registry/providers.js';

/** `pk_` + 32 random bytes in base64url: 256 bits, and safe in an Authorization header. */
export function generateApiKey(): string {
  return `pk_${randomBytes(32).toString('base64url')}`;
}

export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

export function publicApiKey(key: ApiKey): ApiKeyPublic {
  const { key_hash: _hash, ...rest } = key;
  return rest;
}

export interface ApiKeyOperationsDeps {
  store: ResourceStore;
  /** Keys travel to the gateway in the bundle: every change rebuilds it. */
  onChange: () => Promise<void> | void;
  now?: () => Date;
}

export function createApiKeyOperations(deps: ApiKeyOperationsDeps) {
  const now = () => (deps.now ?? (() => new Date()))().toISOString();
  const { apiKeys } = deps.store;

  async function load(id: string, tenantId: string): Promise<ApiKey> {
    const key = await apiKeys.get(id);
    if (!key || key.tenant_id !== tenantId) throw new PalisadeError('NOT_FOUND', { message: { en: `API key ${id} not found`, ru: `API-ключ ${id} не найден` } });
    return key;
  }

  return {
    async create(body: unknown, tenantId: string): Promise<ApiKeyCreated> {
      const input = ApiKeyCreate.parse(body ?? {});
      const clear = generateApiKey();
      const record = ApiKey.parse({
        id: randomUUID(),
        name: input.name,
        tenant_id: input.tenant_id ?? tenantId,
        key_prefix: clear.slice(0, 10),
        key_hash: sha256Hex(clear),
        rate_limit_per_minute: input.rate_limit_per_minute ?? null,
        created_at: now(),
      });
      await apiKeys.insert(record);
      await deps.onChange();
      return { ...publicApiKey(record), key: clear };
    },
    /** `tenantId`: one tenant, several (any of), or undefined for every tenant (super-admin). */
    async list(tenantId: TenantScope, query: { limit?: number; offset?: number } = {}) {
      const page = await apiKeys.list({ where: { tenant_id: tenantId }, ...query });
      return { ...page, items: page.items.map(publicApiKey) };
    },
    async get(id: string, tenantId: string): Promise<ApiKeyPublic> {
      return publicApiKey(await load(id, tenantId));
    },
    async update(id: string, body: unknown, tenantId: string): Promise<ApiKeyPublic> {
      const patch = ApiKeyUpdate.parse(body ?? {});
      await load(id, tenantId);
      const updated = await apiKeys.update(id, (current) => ApiKey.parse({ ...current, ...patch }));
      if (!updated) throw new PalisadeError('NOT_FOUND', { message: { en: `API key ${id} not found`, ru: `API-ключ ${id} не найден` } });
      await deps.onChange();
      return publicApiKey(updated);
    },
    async remove(id: string, tenantId: string): Promise<void> {
      await load(id, tenantId);
      await apiKeys.delete(id);
      await deps.onChange();
    },
  };
}
export type ApiKeyOperations = ReturnType<typeof createApiKeyOperations>;
