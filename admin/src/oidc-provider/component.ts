// `palisade idp` (port 8080): the OpenID Provider and its forms on one Fastify app. oidc-provider is a
// Koa app; every path but the forms, health and metrics is handed to it untouched (its own body
// parsing included).
import { createHmac } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { Logger } from 'pino';
import { createService, DEVELOPMENT_SECRET_KEY, type Database, type SecretBox } from '@palisade/core';
import type { IdentityProvider } from '../identity/identity-provider.js';
import { createPostgresIdentityProvider } from '../identity/postgres-identity.js';
import { createDatabaseAdapterFactory, sweepExpiredPayloads } from './adapter.js';
import { loadIdpConfig } from './config.js';
import { ensureInitialAdmin, type InitialAdmin } from './initial-admin.js';
import { registerInteractionRoutes } from './interactions.js';
import { createLockout } from './lockout.js';
import { createLoginChecker } from './login.js';
import { registerPasswordGrant } from './password-grant.js';
import { createOidcProvider, resourceServerInfo } from './provider.js';
import { loadSigningKeys } from './signing-keys.js';

export interface IdpComponentDeps {
  db: Database;
  secrets: SecretBox;
  env: NodeJS.ProcessEnv;
  logger?: Logger;
  logLevel?: string;
  identity?: IdentityProvider;
  now?: () => Date;
}

const DAY_MS = 86_400_000;
const SWEEP_MS = 10 * 60_000;

export async function createIdpComponent(deps: IdpComponentDeps) {
  const config = loadIdpConfig(deps.env);
  const { db } = deps;
  const identity = deps.identity ?? createPostgresIdentityProvider({ db, ...(deps.now ? { now: deps.now } : {}) });
  const secretKey = config.IDP_COOKIE_SECRET ?? deps.env.PALISADE_SECRET_KEY ?? DEVELOPMENT_SECRET_KEY;
  const derive = (purpose: string) => createHmac('sha256', secretKey).update(`palisade-idp:${purpose}`).digest('base64url');
  const adapters = createDatabaseAdapterFactory({ db, ...(deps.now ? { now: deps.now } : {}) });
  const accessTokenTtlS = config.IDP_ACCESS_TOKEN_MINUTES * 60;
  const rotateAfterMs = config.IDP_KEY_ROTATION_DAYS * DAY_MS;
  const jwks = await loadSigningKeys(
    { db, secrets: deps.secrets, ...(deps.now ? { now: deps.now } : {}) },
    // A replaced key signed tokens that live at most a session's idle time; a day covers clock skew and caches.
    { rotateAfterMs, retainAfterRotationMs: DAY_MS + config.IDP_SESSION_IDLE_MINUTES * 60_000 },
  );
  const redirectUris = config.IDP_REDIRECT_URIS!.split(',').map((u) => u.trim()).filter(Boolean);
  const provider = createOidcProvider({
    issuer: config.IDP_ISSUER!,
    identity,
    adapter: adapters,
    jwks,
    cookieKeys: [derive('cookies')],
    redirectUris,
    postLogoutRedirectUris: [...new Set(redirectUris.map((u) => `${new URL(u).origin}/`))],
    sessionIdleS: config.IDP_SESSION_IDLE_MINUTES * 60,
    accessTokenTtlS,
    trustProxy: config.IDP_TRUST_PROXY,
  });
  const lockout = createLockout({
    db,
    policy: {
      userFailures: config.IDP_LOCKOUT_FAILURES,
      addressFailures: config.IDP_LOCKOUT_ADDRESS_FAILURES,
      waitMs: config.IDP_LOCKOUT_WAIT_SECONDS * 1000,
      maxWaitMs: config.IDP_LOCKOUT_MAX_WAIT_SECONDS * 1000,
      resetAfterMs: 12 * 3600_000,
    },
    ...(deps.now ? { now: deps.now } : {}),
  });
  const checkLogin = createLoginChecker({ identity, lockout });
  registerPasswordGrant(provider, { checkLogin, trustProxy: config.IDP_TRUST_PROXY, resourceServer: resourceServerInfo(accessTokenTtlS) });

  const { app } = createService({
    name: 'idp',
    ...(deps.logger ? { logger: deps.logger } : { logLevel: deps.logLevel ?? 'info' }),
    readiness: { database: () => db.ping() },
  });
  await app.register(async (forms) => {
    await forms.register(formbody, { bodyLimit: 16 * 1024 });
    registerInteractionRoutes(forms, { provider, identity, checkLogin, pending: adapters('PendingPasswordChange'), csrfKey: derive('csrf'), trustProxy: config.IDP_TRUST_PROXY });
  });
  const callback = provider.callback();
  await app.register(async (oidc) => {
    // Leave the body unread: oidc-provider parses its own requests.
    oidc.removeAllContentTypeParsers();
    oidc.addContentTypeParser('*', (_request, _payload, done) => done(null));
    oidc.all('/*', (request, reply) => {
      reply.hijack();
      callback(request.raw, reply.raw);
    });
  });

  const sweeper = setInterval(() => void sweepExpiredPayloads(db, new Date()).catch((error) => app.log.warn({ err: error }, 'sweeping expired IdP rows failed')), SWEEP_MS);
  sweeper.unref();
  app.addHook('onClose', async () => clearInterval(sweeper));

  return {
    app,
    config,
    provider,
    identity,
    /** Creates the initial administrator on the very first start (README: printed by the CLI). */
    async start(): Promise<InitialAdmin> {
      return ensureInitialAdmin({
        identity,
        setup: adapters('Setup'),
        email: config.ADMIN_USER_EMAIL!,
        username: config.ADMIN_USER_USERNAME!,
        password: config.ADMIN_USER_PASSWORD,
        tenantId: config.ADMIN_USER_TENANT!,
      });
    },
  };
}
export type IdpComponent = Awaited<ReturnType<typeof createIdpComponent>>;
