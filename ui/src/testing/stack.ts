// The real stack for the console's browser tests: `palisade all` (embedded PGlite, in-memory streams)
// as a child process with every component on a free port, stopped when the test ends.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../../cli/dist/main.js', import.meta.url));
const NEEDED = ['mock-llm', 'gateway', 'admin-api', 'ui'];
const ALL = ['mock-llm', 'pii', 'threat', 'content-policy', 'translation', 'content-safety', 'normalizer', 'decision-point', 'registry', 'bundle-store', 'gateway', 'admin-api', 'event-exporter', 'ui'];

export type StackUrls = Record<string, string>;

/**
 * The secret the Admin API shares with the authentication proxy in these tests: forwarded identity
 * headers count only with its proof, so the tests send it as oauth2-proxy would (X-Palisade-Proxy-Secret).
 */
const PROXY_SECRET = randomBytes(24).toString('base64url');

/**
 * `onStop` receives the function that stops the stack (a tap test's teardown, or the bench's finally).
 * `alsoWaitFor`: components beyond the usual ones to wait for (the IdP and the proxy, with the login on).
 */
export async function startStack(onStop: (stop: () => void) => void, env: Record<string, string> = {}, alsoWaitFor: readonly string[] = []): Promise<StackUrls> {
  const ports = Object.fromEntries(ALL.map((n) => [`PALISADE_PORT_${n.toUpperCase().replace(/-/g, '_')}`, '0']));
  const child = spawn(process.execPath, [MAIN, 'all'], {
    env: {
      ...process.env, LOG_LEVEL: 'info', PALISADE_DATA_DIR: mkdtempSync(join(tmpdir(), 'palisade-ui-e2e-')), PALISADE_HOST: '127.0.0.1',
      ...ports, DATABASE_URL: '', REDIS_URL: '', PALISADE_DEMO: 'false', AUTH_PROXY_SHARED_SECRET: PROXY_SECRET, ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onStop(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let errors = '';
  child.stderr.on('data', (d) => (errors += d));
  return new Promise<StackUrls>((resolve, reject) => {
    const found: StackUrls = {};
    const timer = setTimeout(() => reject(new Error(`the stack did not start in 180 s: ${errors.slice(-2000)}`)), 180_000);
    child.on('exit', (code) => reject(new Error(`palisade all exited with ${code}: ${errors.slice(-2000)}`)));
    let buffer = '';
    child.stdout.on('data', (d: Buffer) => {
      buffer += String(d);
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        try {
          const entry = JSON.parse(line) as { component?: string; url?: string };
          if (entry.component && entry.url) found[entry.component] = entry.url;
        } catch {
          // not a log line of ours
        }
      }
      if ([...NEEDED, ...ALL, ...alsoWaitFor].every((n) => found[n])) {
        clearTimeout(timer);
        resolve(found);
      }
    });
  });
}

/** The X-Forwarded-* headers the authentication proxy sets (spec: Authentication), with its proof. */
export function forwardedIdentity(user: string, groups: string, tenant: string): Record<string, string> {
  return {
    'x-forwarded-user': user,
    'x-forwarded-preferred-username': user,
    'x-forwarded-email': `${user}@example.com`,
    'x-forwarded-groups': groups,
    'x-forwarded-tenant-id': tenant,
    'x-palisade-proxy-secret': PROXY_SECRET,
  };
}
