// The Admin API's resource modules beyond the CRUD of providers, profiles, content policies and API
// keys: the content-policy and mapping testers, exporters (with the real test call of the event
// exporter), security events, the dashboard, retention settings and reports. The component mounts
// them; tests of one module mount it alone.
import type { Logger } from 'pino';
import { createResourceStore, type Database, type SecretBox } from '@palisade/core';
import { registerContentPolicyTestRoute } from '../content-policies/test-route.js';
import { registerDashboardRoutes } from '../dashboard/index.js';
import { createExporterTester } from '../event-exporter/index.js';
import { registerExporterRoutes } from '../exporters/index.js';
import { registerReportRoutes } from '../reports/index.js';
import { registerMappingTestRoute } from '../resources/mapping-test.js';
import { registerRetentionRoutes } from '../retention/index.js';
import { registerSecurityEventRoutes } from '../security-events/index.js';
import type { AdminRouteModule } from './build-admin-api.js';

export function standardRouteModules(deps: { db: Database; secrets: SecretBox; logger?: Logger | undefined }): AdminRouteModule[] {
  const store = createResourceStore(deps.db);
  const tester = createExporterTester({ secrets: deps.secrets, ...(deps.logger ? { logger: deps.logger } : {}) });
  return [
    (app, ctx) => registerExporterRoutes(app, { ...ctx, store, secrets: deps.secrets, testExporter: (exporter) => tester.test(exporter) }),
    (app, ctx) => registerContentPolicyTestRoute(app, { ...ctx, store }),
    (app, ctx) => registerMappingTestRoute(app, ctx),
    (app, ctx) => registerSecurityEventRoutes(app, { ...ctx, db: deps.db }),
    (app, ctx) => registerDashboardRoutes(app, { ...ctx, db: deps.db }),
    (app, ctx) => registerRetentionRoutes(app, { ...ctx, db: deps.db }),
    (app, ctx) => registerReportRoutes(app, { ...ctx, db: deps.db }),
  ];
}
