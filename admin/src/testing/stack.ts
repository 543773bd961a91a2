// The login stack on loopback, as `AUTH_PROXY_ENABLED=true npm start` runs it: the IdP, the Admin API
// in production mode (proxy proof required), a stand-in for the Admin UI that echoes the identity it
// received, and the authentication proxy in front (UI upstream for pages, Admin API for /api/).
import { createServer as createHttpServer, type Server } from 'node:http';
import type { Test } from 'tap';
import { createSecretBox, listen, type Database } from '@palisade/core';
import { buildAdminApi } from '../admin-api/build-admin-api.js';
import { createAuthProxyComponent } from '../auth-proxy/component.js';
import { healthyCheck } from './admin-api.js';
import { freePort, startTestIdp } from './oidc.js';

export const PROXY_SECRET = 'proxy-secret-for-tests';

/** Answers every path with a page listing the identity headers it received (the "UI"). */
async function startEchoUi(t: Test): Promise<string> {
  const server: Server = createHttpServer((req, res) => {
    const identity = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name.startsWith('x-forwarded-') || name.startsWith('x-palisade-')));
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><html><head><title>Palisade UI</title></head><body><h1>Palisade UI</h1><pre id="identity">${JSON.stringify(identity).replace(/</g, '\\u003c')}</pre></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

export async function startLoginStack(t: Test, db: Database, proxyEnv: NodeJS.ProcessEnv = {}, options: { idpEnv?: NodeJS.ProcessEnv; now?: () => number } = {}) {
  const proxyPort = await freePort();
  const proxyBase = `http://127.0.0.1:${proxyPort}`;
  const idp = await startTestIdp(t, db, options.idpEnv ?? {}, `${proxyBase}/oauth2/callback`);
  const api = buildAdminApi({
    db,
    secrets: createSecretBox('test-key'),
    logLevel: 'silent',
    authProxyEnabled: true,
    proxySecret: PROXY_SECRET,
    identity: idp.identity,
    publisher: { publish: async () => 'rev-test', schedule: () => undefined, syncNow: async () => 'rev-test' },
    checkHealth: healthyCheck,
  });
  const apiBase = await listen(api.app, { port: 0 });
  t.teardown(() => api.app.close());
  const ui = await startEchoUi(t);
  const proxy = createAuthProxyComponent({
    logLevel: 'silent',
    ...(options.now ? { now: options.now } : {}),
    env: {
      AUTH_PROXY_ISSUER_URL: idp.issuer,
      AUTH_PROXY_REDIRECT_URL: `${proxyBase}/oauth2/callback`,
      AUTH_PROXY_UPSTREAM: ui,
      AUTH_PROXY_API_UPSTREAM: apiBase,
      AUTH_PROXY_SHARED_SECRET: PROXY_SECRET,
      AUTH_PROXY_COOKIE_SECRET: 'cookie-secret-for-tests',
      ...proxyEnv,
    },
  });
  await listen(proxy.app, { port: proxyPort, host: '127.0.0.1' });
  t.teardown(() => proxy.app.close());
  return { ...idp, apiBase, proxyBase, ui, proxy };
}
