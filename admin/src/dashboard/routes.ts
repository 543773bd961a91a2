// GET /api/v1/dashboard: the start page's figures over a window, aggregated in SQL over the tenant's
// security events (event repository `stats`) and the gateways' usage rollups.
//
// "requests" counts every call the gateways handled (usage accounting), whether or not it left a
// security event; the other figures count events.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  DASHBOARD_EVENT_GROUPS,
  EVENT_TYPES,
  PalisadeError,
  PeriodBound,
  SEVERITIES,
  TenantId,
  createEventRepository,
  createUsageRepository,
  type Database,
  type EventCounters,
  type SecurityEvent,
} from '@palisade/core';
import type { AdminRouteContext } from '../auth/contract.js';
import { routeSchema } from '../admin-api/route-schema.js';

export interface DashboardRouteContext extends AdminRouteContext {
  db: Database;
}

const DAY_MS = 86_400_000;
/** Window when `from` is absent: the last 7 days up to `to`. */
export const DEFAULT_DASHBOARD_DAYS = 7;
/** Longest window, so that the per-day series stays a screenful. */
export const MAX_DASHBOARD_DAYS = 366;

export const DashboardQuery = z.object({
  from: PeriodBound.optional(),
  to: PeriodBound.optional(),
  tenant_id: TenantId.optional(),
});

const Counters = z.object({
  events: z.number().int(),
  requests: z.number().int(),
  blocks: z.number().int(),
  sanitizations: z.number().int(),
  monitor_alerts: z.number().int(),
  pii_detections: z.number().int(),
});

export const Dashboard = z.object({
  from: z.string(),
  to: z.string(),
  /** null: every tenant (super-admin without tenant_id). */
  tenant_ids: z.array(z.string()).nullable(),
  totals: Counters,
  events_by_type: z.record(z.string(), z.number().int()),
  events_by_severity: z.record(z.string(), z.number().int()),
  top_providers_by_pii: z.array(z.object({ provider_id: z.string().nullable(), provider_name: z.string().nullable(), pii_incidents: z.number().int() })),
  /** Token usage and latency of every call in the window (usage accounting). */
  usage: z.object({ input_tokens: z.number().int(), output_tokens: z.number().int(), average_latency_ms: z.number().nullable() }),
  /** Every UTC day of the window, oldest first, zeros included. */
  per_day: z.array(Counters.extend({ date: z.string() })),
});
export type Dashboard = z.infer<typeof Dashboard>;

const ZERO: EventCounters = { events: 0, requests: 0, blocks: 0, sanitizations: 0, monitor_alerts: 0, pii_detections: 0 };

function window(query: z.infer<typeof DashboardQuery>, now: Date): { from: Date; to: Date } {
  const to = query.to ? new Date(query.to) : now;
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_DASHBOARD_DAYS * DAY_MS);
  const issue = (message: string) => new PalisadeError('VALIDATION_ERROR', { message: `Invalid from: ${message}`, details: [{ path: 'from', message }] });
  if (from.getTime() >= to.getTime()) throw issue('must be before to');
  if (to.getTime() - from.getTime() > MAX_DASHBOARD_DAYS * DAY_MS) throw issue(`the window is at most ${MAX_DASHBOARD_DAYS} days`);
  return { from, to };
}

export function registerDashboardRoutes(app: FastifyInstance, ctx: DashboardRouteContext): void {
  const { access } = ctx;
  const events = createEventRepository<SecurityEvent>(ctx.db);
  const usage = createUsageRepository(ctx.db);

  app.get(
    '/api/v1/dashboard',
    {
      preHandler: access.require('read'),
      schema: routeSchema({
        tags: ['dashboard'],
        summary: 'Dashboard figures',
        description: `Totals, events by type and severity, top 10 providers by PII incidents and a per-day series over [from, to) (default the last ${DEFAULT_DASHBOARD_DAYS} days). blocks = requests with ${DASHBOARD_EVENT_GROUPS.blocks.join(', ')} or any event of decision BLOCK; sanitizations = requests with ${DASHBOARD_EVENT_GROUPS.sanitizations.join(' or ')}; monitor_alerts = ${DASHBOARD_EVENT_GROUPS.monitor_alerts.join(' + ')}; requests = every call the gateways handled (usage accounting), the rest count security events.`,
        querystring: DashboardQuery,
        response: { 200: Dashboard },
      }),
    },
    async (request): Promise<Dashboard> => {
      const query = DashboardQuery.parse(request.query);
      const tenantIds = access.tenantsFor(request, query.tenant_id);
      const { from, to } = window(query, ctx.now());
      const range = { ...(tenantIds ? { tenant_ids: tenantIds } : {}), from: from.toISOString(), to: to.toISOString() };
      const [stats, usageTotals, requestsPerDay] = await Promise.all([events.stats(range), usage.totals(range), usage.requestsPerDay(range)]);
      const byDay = new Map(stats.per_day.map(({ day, ...counters }) => [day, counters]));
      const perDay: Dashboard['per_day'] = [];
      for (let day = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()); day < to.getTime(); day += DAY_MS) {
        const date = new Date(day).toISOString().slice(0, 10);
        perDay.push({ date, ...(byDay.get(date) ?? ZERO), requests: requestsPerDay.get(date) ?? 0 });
      }
      return {
        from: from.toISOString(),
        to: to.toISOString(),
        tenant_ids: tenantIds ?? null,
        totals: { ...stats.totals, requests: usageTotals.requests },
        usage: {
          input_tokens: usageTotals.input_tokens,
          output_tokens: usageTotals.output_tokens,
          average_latency_ms: usageTotals.requests > 0 ? Math.round((usageTotals.latency_ms_sum / usageTotals.requests) * 10) / 10 : null,
        },
        events_by_type: { ...Object.fromEntries(EVENT_TYPES.map((type) => [type, 0])), ...stats.by_type },
        events_by_severity: { ...Object.fromEntries(SEVERITIES.map((severity) => [severity, 0])), ...stats.by_severity },
        top_providers_by_pii: stats.top_pii_providers,
        per_day: perDay,
      };
    },
  );
}
