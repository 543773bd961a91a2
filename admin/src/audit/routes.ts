// GET /api/v1/audit-log (admin): filters user_id, action, resource_type, resource_id; newest first.
// There is no delete route: only the retention worker removes audit records.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AuditLogQuery, AuditRecord, type AuditRepository, type AuditRow } from '@palisade/core';
import type { AdminRouteContext } from '../auth/contract.js';
import { routeSchema } from '../admin-api/route-schema.js';
import type { StoredAuditRecord } from './audit-hook.js';
import { maskAuditRequestBody } from './secret-masking.js';

const TenantQuery = z.object({ tenant_id: z.string().min(1).optional() });

export function registerAuditLogRoutes(app: FastifyInstance, ctx: AdminRouteContext & { audit: AuditRepository<StoredAuditRecord & AuditRow> }): void {
  app.get('/api/v1/audit-log', {
    preHandler: ctx.access.require('read-audit'),
    schema: routeSchema({
      tags: ['audit'],
      summary: 'Audit records, newest first',
      description: 'Total count in the X-Total-Count header. A super-admin sees every tenant unless tenant_id is given.',
      querystring: z.intersection(AuditLogQuery, TenantQuery),
      response: { 200: z.array(AuditRecord) },
    }),
    handler: async (request, reply) => {
      const query = AuditLogQuery.parse(request.query);
      const { tenant_id } = TenantQuery.parse(request.query);
      const tenants = ctx.access.tenantsFor(request, tenant_id);
      const page = await ctx.audit.list({ ...query, ...(tenants ? { tenant_ids: tenants } : {}) });
      reply.header('x-total-count', String(page.total));
      // Masked again on the way out: records written by an older version may hold what is masked now.
      return page.items.map((record) => ({ ...record, request_body: maskAuditRequestBody(record.resource_type, record.request_body) }));
    },
  });
}
