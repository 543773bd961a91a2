// The routes every resource has, written once: list, create, get, update and delete, and a POST on one
// item (a lifecycle move, a revoke). Each calls the resource's operations with the tenant the access
// hook chose; the resource's own file says its paths, models and summaries.
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { PageOf } from '@palisade/core';
import { routeSchema } from '../admin-api/route-schema.js';
import type { TenantScope } from '../registry/providers.js';
import { TenantQuery, type ResourceRouteKit, type TenantRecords } from './route-kit.js';

interface ItemRouteDoc<T> {
  tags: string[];
  records: TenantRecords;
  /** The answer's model. */
  model: z.ZodType;
  /** Every answer of an item passes through it (a profile's carries its warnings). */
  answer?: ((reply: FastifyReply, item: T) => T) | undefined;
}

export interface CrudRoutes<T, Q extends z.ZodType<{ tenant_id?: string | undefined }>> extends ItemRouteDoc<T> {
  /** The collection's path, `/api/v1/<name>`. */
  path: string;
  summaries: { list: string; create: string; get: string; update: string; delete: string };
  descriptions?: { create?: string; update?: string };
  listQuery: Q;
  createBody: z.ZodType;
  /** Whether a create takes the tenant from `?tenant_id=` (default true). */
  createTenantQuery?: boolean;
  /** The create's answer when it is not the model (an API key's, with the key in clear). */
  created?: z.ZodType;
  updateBody: z.ZodType;
  /** A listing (default: operations.list with the whole query). */
  list?(tenants: TenantScope, query: z.infer<Q>): Promise<unknown>;
  operations: {
    list(tenants: TenantScope, query: z.infer<Q>): Promise<unknown>;
    create(body: unknown, tenantId: string): Promise<T>;
    get(id: string, tenantId: string): Promise<T>;
    update(id: string, body: unknown, tenantId: string): Promise<T>;
    remove(id: string, tenantId: string): Promise<unknown>;
  };
}

const same = <T>(_reply: FastifyReply, item: T): T => item;

/** Registers, in this order: list, create, get, update, delete. */
export function registerCrudRoutes<T, Q extends z.ZodType<{ tenant_id?: string | undefined }>>(kit: ResourceRouteKit, routes: CrudRoutes<T, Q>): void {
  const { app, access, idOf, itemParams } = kit;
  const { path, tags, records, model, summaries, operations } = routes;
  const answer = routes.answer ?? same;
  const tenantOf = (request: Parameters<typeof access.createTenant>[0]) => access.itemTenant(request, records);
  app.get(path, {
    ...kit.read,
    schema: routeSchema({ tags, summary: summaries.list, querystring: routes.listQuery, response: { 200: PageOf(model) } }),
    handler: async (request) => {
      const query = routes.listQuery.parse(request.query);
      const tenants = access.listTenants(request, query.tenant_id);
      return routes.list ? routes.list(tenants, query) : operations.list(tenants, query);
    },
  });
  app.post(path, {
    ...kit.write,
    schema: routeSchema({
      tags,
      summary: summaries.create,
      ...(routes.descriptions?.create === undefined ? {} : { description: routes.descriptions.create }),
      body: routes.createBody,
      ...(routes.createTenantQuery === false ? {} : { querystring: TenantQuery }),
      response: { 201: routes.created ?? model },
    }),
    handler: async (request, reply) => reply.code(201).send(answer(reply, await operations.create(request.body, access.createTenant(request)))),
  });
  app.get(`${path}/:id`, {
    ...kit.read,
    schema: routeSchema({ tags, summary: summaries.get, ...itemParams, response: { 200: model } }),
    handler: async (request, reply) => answer(reply, await operations.get(idOf(request), await tenantOf(request))),
  });
  app.put(`${path}/:id`, {
    ...kit.write,
    schema: routeSchema({
      tags,
      summary: summaries.update,
      ...(routes.descriptions?.update === undefined ? {} : { description: routes.descriptions.update }),
      body: routes.updateBody,
      ...itemParams,
      response: { 200: model },
    }),
    handler: async (request, reply) => answer(reply, await operations.update(idOf(request), request.body, await tenantOf(request))),
  });
  app.delete(`${path}/:id`, {
    ...kit.remove,
    schema: routeSchema({ tags, summary: summaries.delete, ...itemParams, response: { 204: null } }),
    handler: async (request, reply) => {
      await operations.remove(idOf(request), await tenantOf(request));
      return reply.code(204).send();
    },
  });
}

export interface ItemActionRoute<T> extends ItemRouteDoc<T> {
  /** `/api/v1/<name>/:id/<action>` */
  path: string;
  summary: string;
  act(id: string, tenantId: string): Promise<T>;
}

/** POST on one item (a lifecycle move, a revoke), answered 200 with the item. */
export function registerItemAction<T>(kit: ResourceRouteKit, route: ItemActionRoute<T>): void {
  const answer = route.answer ?? same;
  kit.app.post(route.path, {
    ...kit.write,
    schema: routeSchema({ tags: route.tags, summary: route.summary, ...kit.itemParams, response: { 200: route.model } }),
    handler: async (request, reply) => answer(reply, await route.act(kit.idOf(request), await kit.access.itemTenant(request, route.records))),
  });
}

const LIFECYCLE_MOVES = ['activate', 'archive', 'reactivate'] as const;

/** The lifecycle moves of a provider or a profile: POST <path>/:id/activate, /archive and /reactivate. */
export function registerLifecycleMoves<T>(
  kit: ResourceRouteKit,
  doc: ItemRouteDoc<T> & { path: string; noun: string },
  operations: Record<(typeof LIFECYCLE_MOVES)[number], (id: string, tenantId: string) => Promise<T>>,
): void {
  for (const move of LIFECYCLE_MOVES) {
    registerItemAction(kit, { ...doc, path: `${doc.path}/:id/${move}`, summary: `${move} ${doc.noun}`, act: (id, tenantId) => operations[move](id, tenantId) });
  }
}
