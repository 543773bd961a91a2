// /api/v1/retention-settings: read and change the installation's retention settings. Both need
// manage-retention (admin): the spec gives viewers "no retention" and operators cannot change it, and
// the settings page is an admin page.
import type { FastifyInstance } from 'fastify';
import { RetentionSettings, RetentionSettingsUpdate, type Database } from '@palisade/core';
import type { AdminRouteContext } from '../auth/contract.js';
import { routeSchema } from '../admin-api/route-schema.js';
import { createRetentionSettingsStore } from './settings.js';

export interface RetentionRouteContext extends AdminRouteContext {
  db: Database;
}

const tags = ['retention-settings'];

export function registerRetentionRoutes(app: FastifyInstance, ctx: RetentionRouteContext): void {
  const { access } = ctx;
  const settings = createRetentionSettingsStore(ctx.db);

  app.get(
    '/api/v1/retention-settings',
    {
      preHandler: access.require('manage-retention'),
      schema: routeSchema({
        tags,
        summary: 'Get the retention settings',
        description: 'One record for the installation (all tenants). Defaults until saved: audit 1095 days, events 90, details 30, reports 365.',
        response: { 200: RetentionSettings },
      }),
    },
    async () => settings.load(),
  );

  app.put(
    '/api/v1/retention-settings',
    {
      preHandler: access.require('manage-retention'),
      schema: routeSchema({
        tags,
        summary: 'Change the retention settings',
        description: 'Partial update. audit_retention_days cannot go below 1095; detail_retention_days cannot exceed event_retention_days.',
        body: RetentionSettingsUpdate,
        response: { 200: RetentionSettings },
      }),
    },
    async (request) => settings.update(request.body, access.principal(request).username, ctx.now()),
  );
}
