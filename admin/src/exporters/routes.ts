// /api/v1/exporters: the exporter resource of the Admin API. Access comes from the AccessControl
// contract: read for GET, write for create/edit/toggle/test, delete for DELETE.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Exporter, ExporterCreate, ExporterType, ExporterUpdate, IdParams, ListQuery, PageOf, TenantId, type ResourceStore, type SecretBox } from '@palisade/core';
import type { AdminRouteContext } from '../auth/contract.js';
import { routeSchema } from '../admin-api/route-schema.js';
import { createExporterOperations, type TestExporterCall } from './operations.js';

export interface ExporterRouteContext extends AdminRouteContext {
  store: ResourceStore;
  secrets: SecretBox;
  /** Sends one test event (admin/src/exporter's tester); without it the test route answers 501. */
  testExporter?: TestExporterCall | undefined;
}

const ExporterListQuery = ListQuery.extend({
  tenant_id: TenantId.optional(),
  enabled: z.stringbool().optional(),
  /** The UI's wording of `enabled`. */
  status: z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(['enabled', 'disabled'])).optional(),
  type: z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), ExporterType).optional(),
});
const ExporterPage = PageOf(Exporter);
const TestResult = z.object({ status: z.literal('ok') });
const tags = ['exporters'];

export function registerExporterRoutes(app: FastifyInstance, ctx: ExporterRouteContext): void {
  const { access } = ctx;
  const ops = createExporterOperations({ store: ctx.store, secrets: ctx.secrets, now: ctx.now, testExporter: ctx.testExporter });
  const id = (request: FastifyRequest) => IdParams.parse(request.params).id;
  /** A by-id call may touch its record's tenant only by rule 3 (403 otherwise, as every resource). */
  const visible = (request: FastifyRequest) => (tenantId: string) => void access.tenantFor(request, tenantId);

  app.get(
    '/api/v1/exporters',
    {
      preHandler: access.require('read'),
      schema: routeSchema({ tags, summary: 'List exporters', querystring: ExporterListQuery, response: { 200: ExporterPage } }),
    },
    async (request) => {
      const query = ExporterListQuery.parse(request.query);
      const enabled = query.enabled ?? (query.status === undefined ? undefined : query.status === 'enabled');
      return ops.list({ tenantIds: access.tenantsFor(request, query.tenant_id), enabled, type: query.type, limit: query.limit, offset: query.offset });
    },
  );

  app.post(
    '/api/v1/exporters',
    {
      preHandler: access.require('write'),
      schema: routeSchema({ tags, summary: 'Create an exporter', body: ExporterCreate, response: { 201: Exporter } }),
    },
    async (request, reply) => {
      const requested = (request.body as { tenant_id?: unknown } | undefined)?.tenant_id;
      const tenantId = access.tenantFor(request, typeof requested === 'string' ? requested : undefined);
      return reply.code(201).send(await ops.create(request.body, tenantId));
    },
  );

  app.get(
    '/api/v1/exporters/:id',
    { preHandler: access.require('read'), schema: routeSchema({ tags, summary: 'Get an exporter', params: IdParams, response: { 200: Exporter } }) },
    async (request) => ops.get(id(request), visible(request)),
  );

  app.put(
    '/api/v1/exporters/:id',
    {
      preHandler: access.require('write'),
      schema: routeSchema({
        tags,
        summary: 'Update an exporter',
        description:
          'Partial update; `type` cannot change. `{"enabled": false}` stops sending and keeps the configuration. Secret values (webhook headers, sasl_password) are answered as "***"; sending "***" back keeps the stored value.',
        params: IdParams,
        body: ExporterUpdate,
        response: { 200: Exporter },
      }),
    },
    async (request) => ops.update(id(request), request.body, visible(request)),
  );

  app.delete(
    '/api/v1/exporters/:id',
    { preHandler: access.require('delete'), schema: routeSchema({ tags, summary: 'Delete an exporter', params: IdParams, response: { 204: null } }) },
    async (request, reply) => {
      await ops.remove(id(request), visible(request));
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/v1/exporters/:id/test',
    {
      preHandler: access.require('write'),
      schema: routeSchema({
        tags,
        summary: 'Send a test event',
        description:
          'Sends one test event to the destination: 200 {"status":"ok"}, or 500 with the failure cause. Answers 501 when this Admin API runs without an exporter tester.',
        params: IdParams,
        response: { 200: TestResult },
      }),
    },
    async (request) => ops.test(id(request), visible(request)),
  );
}
