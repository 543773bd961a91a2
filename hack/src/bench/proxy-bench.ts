// What the authentication proxy adds to an Admin API call: the same GET /api/v1/me straight to the
// Admin API (forwarded identity headers with the proxy's proof, as the proxy sends them) and through
// the proxy (a bearer access token from the identity provider, checked against its JWKS, then
// forwarded), one after the other on one process of `palisade admin-api,idp,auth-proxy`.
// Usage: node hack/dist/bench/proxy-bench.js [--duration s] [--warmup s] [--connections n]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

function line(name: string, m: Measurement): string {
  return `${name.padEnd(14)} ${String(Math.round(m.rps)).padStart(7)} req/s   p50 ${m.p50.toFixed(2)} ms   p99 ${m.p99.toFixed(2)} ms   non-2xx ${m.non2xx}`;
}

async function main(): Promise<void> {
  installCleanup();
  const durationSec = option('duration', 10);
  const warmupSec = option('warmup', 3);
  const connections = option('connections', 20);
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
    const proxy = `http://${HOST}:${proxyPort}`;
    for (const url of [api, idp, proxy]) await waitForHttp(`${url}/health/live`, { child, timeoutMs: 120_000 });
    const token = await accessToken(idp);
    const common = { method: 'GET' as const, path: '/api/v1/me', connections, durationSec, warmupSec };
    const direct = await runScenario({
      ...common,
      url: api,
      headers: { 'x-forwarded-user': 'admin', 'x-forwarded-preferred-username': 'admin', 'x-forwarded-email': ADMIN.email, 'x-forwarded-groups': 'admin', 'x-forwarded-tenant-id': 'acme', 'x-palisade-proxy-secret': SECRET },
    });
    const proxied = await runScenario({ ...common, url: proxy, headers: { authorization: `Bearer ${token}` } });
    process.stdout.write(`\nGET /api/v1/me, ${connections} connections, ${durationSec} s (after ${warmupSec} s of warm-up)\n`);
    process.stdout.write(`${line('Admin API', direct)}\n${line('through proxy', proxied)}\n`);
    process.stdout.write(`proxy adds: p50 +${roundTo(proxied.p50 - direct.p50, 2)} ms, p99 +${roundTo(proxied.p99 - direct.p99, 2)} ms, throughput ×${roundTo(proxied.rps / direct.rps, 2)}\n`);
    if (direct.non2xx > 0 || proxied.non2xx > 0) throw new Error('some calls were refused: the figures are not of the call measured');
  } finally {
    await stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    process.stderr.write(`proxy bench: ${error instanceof Error ? error.message : String(error)}\n`);
    await stopAll().catch(() => {});
    process.exit(1);
  },
);
