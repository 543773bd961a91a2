// Test support for the identity provider and the authentication proxy: an IdP on a free port over a
// test database; the browserless user agent that walks its login forms is core's (testing/user-agent.ts).
import { createServer } from 'node:net';
import type { Test } from 'tap';
import { createSecretBox, listen, type Database } from '@palisade/core';
export { createUserAgent, formOf, type UserAgent } from '@palisade/core/testing';
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

