// Test support for the identity provider and the authentication proxy: an IdP on a free port over a
// test database, and a browserless user agent (cookie jar, manual redirects) that walks the login
// forms the way a browser does, so protocol tests need no Chromium.
import { createServer } from 'node:net';
import type { Test } from 'tap';
import { createSecretBox, listen, type Database } from '@palisade/core';
import { createPostgresIdentityProvider } from '../identity/postgres-identity.js';
import { createIdpComponent } from '../oidc-provider/component.js';

export const TEST_ADMIN = { email: 'root@acme.test', password: 'initial-admin-pass', tenant: 'acme' };

/** A free port on 127.0.0.1, for servers whose URL must be known before they are built. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts `palisade idp` on 127.0.0.1 with a known issuer (its own URL) and cheap password hashes. */
export async function startTestIdp(t: Test, db: Database, env: NodeJS.ProcessEnv = {}, redirectUris = 'http://127.0.0.1:1/oauth2/callback') {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const identity = createPostgresIdentityProvider({ db, passwordCostLog2: 10 });
  const idp = await createIdpComponent({
    db,
    secrets: createSecretBox('test-key'),
    identity,
    logLevel: 'silent',
    env: {
      IDP_ISSUER: issuer,
      IDP_REDIRECT_URIS: redirectUris,
      ADMIN_USER_EMAIL: TEST_ADMIN.email,
      ADMIN_USER_PASSWORD: TEST_ADMIN.password,
      ADMIN_USER_TENANT: TEST_ADMIN.tenant,
      PALISADE_SECRET_KEY: 'test-key',
      ...env,
    },
  });
  const initialAdmin = await idp.start();
  await listen(idp.app, { port, host: '127.0.0.1' });
  t.teardown(() => idp.app.close());
  return { idp, issuer, identity, initialAdmin };
}

/** A user agent with a cookie jar that follows redirects itself, so each hop can be inspected. */
export function createUserAgent() {
  const jar = new Map<string, Map<string, string>>();
  const cookieHeader = (url: URL) => [...(jar.get(url.host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  async function fetchRaw(url: string | URL, init: RequestInit & { form?: Record<string, string> } = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookies = cookieHeader(target);
    if (cookies) headers.set('cookie', cookies);
    let body = init.body;
    if (init.form) {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(target, { ...init, headers, body: body ?? null, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';', 1) as [string];
      const eq = pair.indexOf('=');
      const store = jar.get(target.host) ?? new Map<string, string>();
      jar.set(target.host, store);
      const expired = /max-age=0|expires=Thu, 01 Jan 1970/i.test(line);
      if (expired) store.delete(pair.slice(0, eq));
      else store.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return res;
  }
  /** Follows redirects until a page answers or `stopAt` matches the next location (returned, not fetched). */
  async function follow(url: string | URL, init: RequestInit & { form?: Record<string, string> } = {}, stopAt?: (location: URL) => boolean) {
    let res = await fetchRaw(url, init);
    let current = new URL(url);
    for (let hops = 0; hops < 20 && res.status >= 300 && res.status < 400; hops++) {
      const next = new URL(res.headers.get('location')!, current);
      if (stopAt?.(next)) return { res, url: next, stopped: true };
      current = next;
      res = await fetchRaw(next, init.headers ? { headers: init.headers } : {});
    }
    return { res, url: current, stopped: false };
  }
  return { fetch: fetchRaw, follow, jar };
}
export type UserAgent = ReturnType<typeof createUserAgent>;

/** The hidden CSRF field and the form action of an IdP page. */
export function formOf(html: string): { action: string; csrf: string } {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  return { action: action.replace(/&amp;/g, '&'), csrf };
}
