// What every resource's routes share: the access hook and its pre-handlers, the id of an item call,
// the tenant query, and the list query of a resource with a lifecycle status.
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { z } from 'zod';
import { IdParams, LIFECYCLE_STATUSES, ListQuery, type ResourceRepository, type StoredRecord } from '@palisade/core';
import type { TenantScope } from '../registry/providers.js';

export type TenantRecords = ResourceRepository<StoredRecord & { tenant_id: string }>;

/** Who may call, and which tenant a call acts on: the Admin API's roles and tenant rules, or the registry's X-Tenant-ID. */
export interface ResourceAccess {
  read?: preHandlerHookHandler;
  write?: preHandlerHookHandler;
  remove?: preHandlerHookHandler;
  /** The tenants a listing covers (undefined: every tenant); `requested` is the query's tenant_id. */
  listTenants(request: FastifyRequest, requested: string | undefined): TenantScope;
  /** The tenant an item call acts on; `records` finds the record's own. */
  itemTenant(request: FastifyRequest, records: TenantRecords): Promise<string>;
  /** The tenant a create acts on. */
  createTenant(request: FastifyRequest): string;
  /** Who ran a health check: `asked` is the query's performed_by. */
  performedBy(request: FastifyRequest, asked: string | undefined): string;
}

export const TenantQuery = z.object({ tenant_id: z.string().min(1).optional() });
export const StatusListQuery = ListQuery.extend({ status: z.enum(LIFECYCLE_STATUSES).optional(), tenant_id: z.string().min(1).optional() });

type PreHandler = { preHandler?: preHandlerHookHandler };

export interface ResourceRouteKit {
  app: FastifyInstance;
  access: ResourceAccess;
  /** Route options of a call that reads, writes or deletes (the access hook's pre-handler). */
  read: PreHandler;
  write: PreHandler;
  remove: PreHandler;
  /** The params and query of an item call (`/:id?tenant_id=`). */
  itemParams: { params: typeof IdParams; querystring: typeof TenantQuery };
  idOf(request: FastifyRequest): string;
}

export function resourceRouteKit(app: FastifyInstance, access: ResourceAccess): ResourceRouteKit {
  return {
    app,
    access,
    read: access.read ? { preHandler: access.read } : {},
    write: access.write ? { preHandler: access.write } : {},
    remove: access.remove ? { preHandler: access.remove } : {},
    itemParams: { params: IdParams, querystring: TenantQuery },
    idOf: (request) => IdParams.parse(request.params).id,
  };
}
