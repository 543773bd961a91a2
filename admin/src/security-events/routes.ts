// /api/v1/security-events: the stored events (table security_events), newest first, filtered by trace,
// type, severity, decision, tenant, provider, profile and time window; read permission.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createEventRepository, IdParams, PageOf, PalisadeError, SecurityEvent, SecurityEventQuery, type Database } from '@palisade/core';
import type { AdminRouteContext } from '../auth/contract.js';
import { routeSchema } from '../admin-api/route-schema.js';

export interface SecurityEventRouteContext extends AdminRouteContext {
  db: Database;
}

const EventPage = PageOf(SecurityEvent);
const tags = ['security-events'];

/** The event as answered: the store's bookkeeping (the detail-retention marker) left out. */
export function publicEvent(stored: SecurityEvent & { _scrubbed?: unknown }): SecurityEvent {
  const { _scrubbed: _, ...event } = stored;
  // Events stored before the proof of inspection existed have none, and checks stored before a skipped
  // check said why have no reason: an empty list and null, as the model says.
  return { ...event, inspection: (event.inspection ?? []).map((check) => ({ ...check, reason: check.reason ?? null })) };
}

export function registerSecurityEventRoutes(app: FastifyInstance, ctx: SecurityEventRouteContext): void {
  const { access } = ctx;
  const events = createEventRepository<SecurityEvent>(ctx.db);

  app.get(
    '/api/v1/security-events',
    {
      preHandler: access.require('read'),
      schema: routeSchema({
        tags,
        summary: 'List security events',
        description: 'Newest first. event_type, severity and decision compare case-insensitively; `from` is inclusive, `to` exclusive.',
        querystring: SecurityEventQuery,
        response: { 200: EventPage },
      }),
    },
    async (request) => {
      const query = SecurityEventQuery.parse(request.query);
      if (query.from && query.to && Date.parse(query.to) < Date.parse(query.from)) {
        throw new PalisadeError('VALIDATION_ERROR', { message: 'Invalid to: must not be before from', details: [{ path: 'to', message: 'must not be before from' }] });
      }
      const tenantIds = access.tenantsFor(request, query.tenant_id);
      const page = await events.list({
        ...(tenantIds ? { tenant_ids: tenantIds } : {}),
        ...(query.trace_id ? { trace_id: query.trace_id } : {}),
        ...(query.event_type ? { event_types: [query.event_type] } : {}),
        ...(query.severity ? { severities: [query.severity] } : {}),
        ...(query.decision ? { decisions: [query.decision] } : {}),
        ...(query.provider_id ? { provider_id: query.provider_id } : {}),
        ...(query.profile_id ? { profile_id: query.profile_id } : {}),
        ...(query.from ? { from: query.from } : {}),
        ...(query.to ? { to: query.to } : {}),
        limit: query.limit,
        offset: query.offset,
      });
      return { items: page.items.map(publicEvent), total: page.total, limit: query.limit, offset: query.offset };
    },
  );

  app.get(
    '/api/v1/security-events/:id',
    { preHandler: access.require('read'), schema: routeSchema({ tags, summary: 'Get a security event', params: IdParams, response: { 200: SecurityEvent } }) },
    async (request) => {
      const { id } = IdParams.parse(request.params);
      const event = await events.get(id);
      if (!event) throw new PalisadeError('NOT_FOUND', { message: { en: `security event ${id} not found`, ru: `событие безопасности ${id} не найдено` } });
      access.tenantFor(request, event.tenant_id); // rule 3: another tenant's event is 403 unless super-admin

      return publicEvent(event);
    },
  );
}
