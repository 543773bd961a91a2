import { randomUUID } from 'node:crypto';
import {
  compileMatchPattern,
  PalisadeError,
  Provider,
  ProviderCreate,
  ProviderUpdate,
  MASKED_SECRET,
  mapSecretValues,
  valueAt,
  type ResourceStore,
  type SecretBox,
  UpstreamAuth,
} from '@palisade/core';

export interface ProviderOperationsDeps {
  store: ResourceStore;
  secrets: SecretBox;
  /** Why a url pattern is invalid, or null; default: the gateway's own compiler (RE2), so what is stored can be routed. */
  checkUrlPattern?: (pattern: string) => string | null;
  now?: () => Date;
  /** Called after every change that can affect routing. */
  onChange: () => Promise<void> | void;
}

/** The gateway's own compiler decides whether a url pattern is valid. */
export function urlPatternError(pattern: string): string | null {
  try {
    compileMatchPattern('url', pattern);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export type ProviderView = Provider;

/** Secrets (the fields the model marks) leave the registry masked; the bundle keeps them sealed for the gateway. */
export function maskProvider(provider: Provider): ProviderView {
  return mapSecretValues(Provider, provider, () => MASKED_SECRET) as ProviderView;
}

function sealAuth(auth: UpstreamAuth, secrets: SecretBox, previous?: UpstreamAuth): UpstreamAuth {
  const before = previous?.type === auth.type ? previous : undefined;
  return mapSecretValues(UpstreamAuth, auth, (value, path) => {
    // A masked value sent back unchanged keeps the stored secret (forms round-trip what they read).
    const stored = valueAt(before, path);
    return value === MASKED_SECRET && typeof stored === 'string' ? stored : secrets.seal(value);
  }) as UpstreamAuth;
}

/** The tenants a listing covers: one, any of several, or every tenant (undefined). */
export type TenantScope = string | readonly string[] | undefined;

export function createProviderOperations(deps: ProviderOperationsDeps) {
  const now = () => (deps.now ?? (() => new Date()))().toISOString();
  const { providers } = deps.store;
  const checkUrlPattern = deps.checkUrlPattern ?? urlPatternError;

  function checkPattern(record: { match_type: string; match_value: string }) {
    if (record.match_type !== 'url') return;
    const issue = checkUrlPattern(record.match_value);
    if (issue) throw new PalisadeError('VALIDATION_ERROR', { message: `Invalid match_value: ${issue}`, details: [{ path: 'match_value', message: issue }] });
  }

  async function load(id: string, tenantId: string): Promise<Provider> {
    const provider = await providers.get(id);
    if (!provider || provider.tenant_id !== tenantId) throw new PalisadeError('NOT_FOUND', { message: { en: `provider ${id} not found`, ru: `провайдер ${id} не найден` } });
    return provider;
  }

  async function transition(id: string, tenantId: string, from: Provider['status'][], to: Provider['status']) {
    await load(id, tenantId);
    const updated = await providers.update(id, (current) => {
      if (!from.includes(current.status)) {
        throw new PalisadeError('CONFLICT', { message: { en: `provider is ${current.status}; this move needs ${from.join(' or ')}`, ru: `провайдер в статусе ${current.status}; этот переход возможен из ${from.join(' или ')}` } });
      }
      return { ...current, status: to, updated_at: now() };
    });
    await deps.onChange();
    return maskProvider(updated!);
  }

  return {
    async create(body: unknown, tenantId: string, managedBy: Provider['managed_by'] = 'api'): Promise<ProviderView> {
      const input = ProviderCreate.parse(body);
      checkPattern(input);
      const at = now();
      const record = Provider.parse({
        ...input,
        id: randomUUID(),
        tenant_id: tenantId,
        managed_by: managedBy,
        status: 'DRAFT',
        created_at: at,
        updated_at: at,
        upstream_auth: sealAuth(input.upstream_auth, deps.secrets),
      });
      await providers.insert(record);
      await deps.onChange();
      return maskProvider(record);
    },

    async get(id: string, tenantId: string): Promise<ProviderView> {
      return maskProvider(await load(id, tenantId));
    },

    /** `tenantId`: one tenant, several (any of), or undefined for every tenant (super-admin). */
    async list(tenantId: TenantScope, query: { status?: string; limit?: number; offset?: number }) {
      const page = await providers.list({ where: { tenant_id: tenantId, status: query.status }, limit: query.limit ?? 50, offset: query.offset ?? 0 });
      return { ...page, items: page.items.map(maskProvider) };
    },

    async update(id: string, body: unknown, tenantId: string, actor: Provider['managed_by'] = 'api'): Promise<ProviderView> {
      const patch = ProviderUpdate.parse(body);
      await load(id, tenantId);
      const updated = await providers.update(id, (current) => {
        if (current.status === 'ARCHIVED') throw new PalisadeError('CONFLICT', { message: { en: 'an archived provider is read-only; reactivate it first', ru: 'архивный провайдер только для чтения; сначала активируйте его снова' } });
        if (current.managed_by === 'operator' && actor !== 'operator') {
          throw new PalisadeError('CONFLICT', { message: { en: 'this provider is managed by the Kubernetes operator; change its custom resource instead', ru: 'этим провайдером управляет оператор Kubernetes; измените его custom resource' } });
        }
        const merged = { ...current, ...stripUndefined(patch) } as Record<string, unknown>;
        // The merged record must still satisfy every create rule (a mapping left, match_value vs match_type).
        const checked = ProviderCreate.parse({ ...merged, upstream_auth: patch.upstream_auth ?? current.upstream_auth });
        checkPattern(checked);
        return Provider.parse({
          ...current,
          ...checked,
          upstream_auth: patch.upstream_auth ? sealAuth(patch.upstream_auth, deps.secrets, current.upstream_auth) : current.upstream_auth,
          updated_at: now(),
        });
      });
      await deps.onChange();
      return maskProvider(updated!);
    },

    activate: (id: string, tenantId: string) => transition(id, tenantId, ['DRAFT'], 'ACTIVE'),
    archive: (id: string, tenantId: string) => transition(id, tenantId, ['ACTIVE'], 'ARCHIVED'),
    reactivate: (id: string, tenantId: string) => transition(id, tenantId, ['ARCHIVED'], 'ACTIVE'),

    async remove(id: string, tenantId: string): Promise<void> {
      await load(id, tenantId);
      await providers.delete(id);
      await deps.onChange();
    },

    /** Stores a health check result (not a configuration change: routing is unaffected). */
    async recordHealth(id: string, result: Pick<Provider, 'health_status' | 'health_latency_ms' | 'health_error_message'>): Promise<Provider | null> {
      return providers.update(id, (current) => ({ ...current, ...result, health_checked_at: now() }));
    },
  };
}

export type ProviderOperations = ReturnType<typeof createProviderOperations>;

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
