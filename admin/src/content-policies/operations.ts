// Content policies (spec "Content policy"; DECISIONS.md record): DRAFT on create, ACTIVE on activate;
// only ACTIVE ones reach the data plane. Every regex is compiled with the content policy service's own
// RE2 rules at create and update time, so a pattern that would fail at request time is a 400 naming
// the rule instead. The registry mounts these now; the admin API mounts the same operations.
import { randomUUID } from 'node:crypto';
import { ContentPolicy, ContentPolicyCreate, ContentPolicyUpdate, PalisadeError, type ResourceStore } from '@palisade/core';
import { checkContentPolicyPatterns } from '@palisade/detectors';
import type { TenantScope } from '../registry/providers.js';

export interface ContentPolicyOperationsDeps {
  store: ResourceStore;
  onChange: () => Promise<void> | void;
  now?: () => Date;
}

/** A 400 naming each rule whose pattern the content policy engine would refuse. */
export function assertPolicyPatterns(policy: Pick<ContentPolicy, 'rules' | 'case_sensitive'>): void {
  const issues = checkContentPolicyPatterns(policy);
  if (issues.length > 0) {
    throw new PalisadeError('VALIDATION_ERROR', { message: `Invalid content policy: ${issues[0]!.path}: ${issues[0]!.message}`, details: issues });
  }
}

export function createContentPolicyOperations(deps: ContentPolicyOperationsDeps) {
  const now = () => (deps.now ?? (() => new Date()))().toISOString();
  const { contentPolicies } = deps.store;

  async function load(id: string, tenantId: string): Promise<ContentPolicy> {
    const policy = await contentPolicies.get(id);
    if (!policy || policy.tenant_id !== tenantId) throw new PalisadeError('NOT_FOUND', { message: { en: `content policy ${id} not found`, ru: `контентная политика ${id} не найдена` } });
    return policy;
  }

  return {
    async create(body: unknown, tenantId: string, managedBy: ContentPolicy['managed_by'] = 'api'): Promise<ContentPolicy> {
      const input = ContentPolicyCreate.parse(body ?? {});
      assertPolicyPatterns(input);
      const at = now();
      const record = ContentPolicy.parse({ ...input, id: randomUUID(), tenant_id: tenantId, managed_by: managedBy, status: 'DRAFT', created_at: at, updated_at: at });
      await contentPolicies.insert(record);
      await deps.onChange();
      return record;
    },
    get: load,
    /** `tenantId`: one tenant, several (any of), or undefined for every tenant (super-admin). */
    async list(tenantId: TenantScope, query: { status?: string; limit?: number; offset?: number }) {
      return contentPolicies.list({ where: { tenant_id: tenantId, status: query.status }, limit: query.limit ?? 50, offset: query.offset ?? 0, order: 'name', direction: 'asc' });
    },
    async update(id: string, body: unknown, tenantId: string, actor: ContentPolicy['managed_by'] = 'api'): Promise<ContentPolicy> {
      const patch = ContentPolicyUpdate.parse(body ?? {});
      await load(id, tenantId);
      const updated = await contentPolicies.update(id, (current) => {
        if (current.managed_by === 'operator' && actor !== 'operator') {
          throw new PalisadeError('CONFLICT', { message: { en: 'this content policy is managed by the Kubernetes operator; change its custom resource instead', ru: 'этой контентной политикой управляет оператор Kubernetes; измените её custom resource' } });
        }
        const merged = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
        // The merged record must still satisfy every create rule (type vs rules/languages, RE2).
        const checked = ContentPolicyCreate.parse({ ...merged, tenant_id: current.tenant_id });
        assertPolicyPatterns(checked);
        return ContentPolicy.parse({ ...current, ...checked, updated_at: now() });
      });
      await deps.onChange();
      return updated!;
    },
    async activate(id: string, tenantId: string): Promise<ContentPolicy> {
      await load(id, tenantId);
      const updated = await contentPolicies.update(id, (current) => {
        if (current.status !== 'DRAFT') throw new PalisadeError('CONFLICT', { message: { en: `content policy is ${current.status}; activate needs DRAFT`, ru: `контентная политика в статусе ${current.status}; активировать можно только DRAFT` } });
        return { ...current, status: 'ACTIVE', updated_at: now() };
      });
      await deps.onChange();
      return updated!;
    },
    async remove(id: string, tenantId: string): Promise<void> {
      await load(id, tenantId);
      await contentPolicies.delete(id);
      await deps.onChange();
    },
  };
}
export type ContentPolicyOperations = ReturnType<typeof createContentPolicyOperations>;
