// `palisade ui` (port 4200): serves the built single-page app and forwards /api/* to the Admin API, so
// the app only ever calls its own origin. The authentication proxy fronts this server in production;
// its X-Forwarded-* identity headers pass through to the Admin API unchanged (the proxy is the one
// that sets them, and the Admin API decides from them).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import fastifyStatic from '@fastify/static';
import httpProxy from '@fastify/http-proxy';
import { createService, envInt, envUrl, parseEnv, type Service, COMPONENT_PORTS } from '@palisade/core';

export const UI_PORT = COMPONENT_PORTS.ui;

export const UI_ENV = {
  UI_PORT: envInt(1, 65535, UI_PORT),
  ADMIN_API_URL: envUrl(['http:', 'https:'], 'http://127.0.0.1:8001'),
} as const;

export interface UiServerOptions {
  /** The folder Vite built (index.html and assets/). */
  webRoot: string;
  adminApiUrl: string;
  logger?: Logger;
  logLevel?: string;
}

/** Where `npm run build` leaves the app: ui/web/dist beside this package's dist/. */
export const DEFAULT_WEB_ROOT = join(import.meta.dirname, '..', '..', 'web', 'dist');

// Vite names every asset by its content hash, so an asset never changes under its name: cache it for a
// year. index.html must be fetched fresh so a new build is picked up at once.
const IMMUTABLE = 'public, max-age=31536000, immutable';

export function buildUiServer(options: UiServerOptions): Service {
  if (!existsSync(join(options.webRoot, 'index.html'))) {
    throw new Error(`the Admin UI is not built (${options.webRoot}/index.html is missing): run npm run build`);
  }
  const service = createService({
    name: 'ui',
    ...(options.logger ? { logger: options.logger } : { logLevel: options.logLevel ?? 'info' }),
  });
  const { app } = service;
  app.register(httpProxy, {
    upstream: options.adminApiUrl,
    prefix: '/api',
    rewritePrefix: '/api',
    // The body goes through as bytes: the Admin API parses and validates it.
    proxyPayloads: false,
  });
  app.register(fastifyStatic, {
    root: options.webRoot,
    wildcard: false,
    index: false,
    setHeaders(res, path) {
      res.header('cache-control', path.includes(`${join('/', 'assets', '/')}`) ? IMMUTABLE : 'no-cache');
    },
  });
  // History-API fallback: any other GET is a route of the app, answered by its index.html. (The files
  // above are routes of their own, and /api/* is the proxy's, so both win over this wildcard.)
  // A missing asset (an old page asking for a file of an earlier build) is a 404, not the page.
  app.get('/*', (request, reply) => {
    if (request.url.startsWith('/assets/')) return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'No such asset; reload the page' } });
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
  });
  return service;
}

export function loadUiEnv(env: NodeJS.ProcessEnv = process.env) {
  return parseEnv(UI_ENV, env);
}
