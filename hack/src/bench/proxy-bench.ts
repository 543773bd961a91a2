// What the authentication proxy adds to an Admin API call: the same GET /api/v1/me straight to the
// Admin API (forwarded identity headers with the proxy's proof, as the proxy sends them), and through
// the proxy with a browser's session cookie (a login at the IdP's form) and with a bearer access token
// (the IdP's password grant, checked against its cached JWKS), one after the other on one process of
// `palisade admin-api,idp,auth-proxy`. Targets (one call at a time): the proxy adds ≤ 1 ms p50 and
// ≤ 3 ms p99.
// Usage: node hack/dist/bench/proxy-bench.js [--duration s] [--warmup s] [--connections n (default 1)]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createUserAgent, formOf } from '@palisade/core/testing';
import { freePorts, installCleanup, spawnNode, stopAll, waitForHttp } from './processes.js';
import { roundTo, runScenario, type Measurement } from './scenario.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = join(ROOT, 'cli', 'dist', 'main.js');
const HOST = '127.0.0.1';
const ADMIN = { email: 'bench@acme.test', password: 'bench-pass-1' };
const SECRET = 'proxy-bench-shared-secret-0123456789';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function accessToken(idp: string): Promise<string> {
  const discovery = (await (await fetch(`${idp}/.well-known/openid-configuration`)).json()) as { token_endpoint: string };
  const res = await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-api', username: ADMIN.email, password: ADMIN.password, scope: 'openid profile email' }),
  });
  const body = (await res.json()) as { access_token?: string; error?: string };
  if (!body.access_token) throw new Error(`no access token from the identity provider: ${JSON.stringify(body)}`);
  return body.access_token;
}

/** Signs in at the IdP's form through the proxy, as a browser does; returns the proxy's session cookie. */
async function sessionCookie(proxy: string): Promise<string> {
  const agent = createUserAgent();
  const page = await agent.follow(`${proxy}/oauth2/sign_in?rd=%2F`);
  const form = formOf(await page.res.text());
  if (!form.action) throw new Error(`no login form at ${page.url.href}`);
  await agent.follow(new URL(form.action, page.url), { method: 'POST', form: { csrf: form.csrf, login: ADMIN.email, password: ADMIN.password } });
  const cookies = agent.jar.get(new URL(proxy).host);
  if (!cookies?.size) throw new Error('the login gave no session cookie');
  return [...cookies.entries()].map(([k, v]) => `${k}=${v}`).join('; ');
}

function line(name: string, m: Measurement): string {
  return `${name.padEnd(14)} ${String(Math.round(m.rps)).padStart(7)} req/s   p50 ${m.p50.toFixed(2)} ms   p99 ${m.p99.toFixed(2)} ms   non-2xx ${m.non2xx}`;
}

/** Resolves to whether the targets were met (always true for a run with more than one connection). */
async function main(): Promise<boolean> {
  installCleanup();
  const durationSec = option('duration', 10);
  const warmupSec = option('warmup', 3);
  const connections = option('connections', 1);
  const [apiPort, idpPort, proxyPort] = (await freePorts(3)) as [number, number, number];
  const dataDir = mkdtempSync(join(tmpdir(), 'palisade-proxy-bench-'));
  try {
    const child = spawnNode('palisade admin-api,idp,auth-proxy', [CLI, 'admin-api,idp,auth-proxy'], {
      cwd: ROOT,
      env: {
        AUTH_PROXY_ENABLED: 'true',
        AUTH_PROXY_SHARED_SECRET: SECRET,
        PALISADE_PORT_ADMIN_API: String(apiPort),
        PALISADE_PORT_IDP: String(idpPort),
        PALISADE_PORT_AUTH_PROXY: String(proxyPort),
        PALISADE_DATA_DIR: dataDir,
        PALISADE_HOST: HOST,
        ADMIN_USER_EMAIL: ADMIN.email,
        ADMIN_USER_PASSWORD: ADMIN.password,
        ADMIN_USER_TENANT: 'acme',
        LOG_LEVEL: 'warn',
      },
    });
    const api = `http://${HOST}:${apiPort}`;
    const idp = `http://localhost:${idpPort}`;
    // The browser's origin is the one in the proxy's redirect URL.
    const proxy = `http://localhost:${proxyPort}`;
    for (const url of [api, idp, proxy]) await waitForHttp(`${url}/health/live`, { child, timeoutMs: 120_000 });
    const token = await accessToken(idp);
    const cookie = await sessionCookie(proxy);
    const common = { method: 'GET' as const, path: '/api/v1/me', connections, durationSec, warmupSec };
    const direct = await runScenario({
      ...common,
      url: api,
      headers: { 'x-forwarded-user': 'admin', 'x-forwarded-preferred-username': 'admin', 'x-forwarded-email': ADMIN.email, 'x-forwarded-groups': 'admin', 'x-forwarded-tenant-id': 'acme', 'x-palisade-proxy-secret': SECRET },
    });
    const withCookie = await runScenario({ ...common, url: proxy, headers: { cookie } });
    const withBearer = await runScenario({ ...common, url: proxy, headers: { authorization: `Bearer ${token}` } });
    process.stdout.write(`\nGET /api/v1/me, ${connections} connections, ${durationSec} s (after ${warmupSec} s of warm-up)\n`);
    process.stdout.write(`${line('Admin API', direct)}\n${line('proxy, cookie', withCookie)}\n${line('proxy, bearer', withBearer)}\n`);
    let met = true;
    for (const [name, m] of [['session cookie', withCookie], ['bearer token', withBearer]] as const) {
      const p50 = roundTo(m.p50 - direct.p50, 2);
      const p99 = roundTo(m.p99 - direct.p99, 2);
      const ok = p50 <= 1 && p99 <= 3;
      if (connections === 1) met &&= ok;
      const verdict = connections === 1 ? ` (targets +1 / +3 ms: ${ok ? 'met' : 'MISSED'})` : '';
      process.stdout.write(`the proxy adds, ${name}: p50 +${p50} ms, p99 +${p99} ms${verdict}\n`);
    }
    if ([direct, withCookie, withBearer].some((m) => m.non2xx > 0)) throw new Error('some calls were refused: the figures are not of the call measured');
    return met;
  } finally {
    await stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (met) => process.exit(met ? 0 : 1),
  async (error: unknown) => {
    process.stderr.write(`proxy bench: ${error instanceof Error ? error.message : String(error)}\n`);
    await stopAll().catch(() => {});
    process.exit(1);
  },
);
