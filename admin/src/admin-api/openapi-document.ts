// The Admin API's OpenAPI document without a running server or a database: the Admin UI generates its
// client and types from it at build time, so a fresh build needs nothing started. The app is built
// with every standard module (the same route set `palisade admin-api` serves) over a database that
// refuses every query, since documenting routes never calls them.
import { createSecretBox, PalisadeError, type Database } from '@palisade/core';
import { buildAdminApi } from './build-admin-api.js';
import { standardRouteModules } from './standard-modules.js';

function unconnectedDatabase(): Database {
  const refuse = async (): Promise<never> => {
    throw new PalisadeError('SERVICE_UNAVAILABLE', { message: 'the OpenAPI document is built without a database' });
  };
  return { kind: 'pglite', query: refuse, exec: refuse, transaction: refuse, listen: refuse, notify: refuse, ping: refuse, close: async () => {} };
}

export async function adminOpenApiDocument(): Promise<Record<string, unknown>> {
  const db = unconnectedDatabase();
  const secrets = createSecretBox('openapi-document-only');
  const api = buildAdminApi({
    db,
    secrets,
    authProxyEnabled: true,
    logLevel: 'silent',
    publisher: { publish: async () => '', schedule: () => {}, syncNow: async () => '' },
    checkHealth: async () => {
      throw new PalisadeError('SERVICE_UNAVAILABLE', { message: 'the OpenAPI document is built without a health checker' });
    },
    routeModules: standardRouteModules({ db, secrets }),
  });
  try {
    await api.app.ready();
    return api.app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await api.app.close();
  }
}
