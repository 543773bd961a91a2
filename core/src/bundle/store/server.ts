// The policy bundle store (spec: "Policy bundle store", port 9000; DECISIONS.md "Policy bundle"):
// serves the current OPA bundle to the policy engine and the data plane, with the revision as ETag so
// that pollers get a 304 while nothing changed.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PalisadeError } from '../../errors/palisade-error.js';
import { createService, type Service, type ServiceOptions } from '../../service/create-service.js';
import { BUNDLE_HTTP_PATH } from '../bundle.js';
import type { BundleSource, StoredBundle } from './source.js';
import { COMPONENT_PORTS } from '../../config/ports.js';

export const BUNDLE_STORE_PORT = COMPONENT_PORTS['bundle-store'];
/** OPA's bundle resource for the `default` bundle under the `policies` service prefix. */
export const BUNDLE_PATH = BUNDLE_HTTP_PATH;
/** `{revision}` only: a cheap poll target. */
export const BUNDLE_REVISION_PATH = '/policies/policies/default/revision';

export interface BundleStoreOptions {
  source: BundleSource;
  /** A pino logger to share (the CLI's). */
  logger?: ServiceOptions['logger'];
  logLevel?: string;
  /** When set, every route but health and metrics needs it in X-Internal-Token (DECISIONS.md). */
  internalToken?: string | undefined;
}

/** `"<revision>"`: a strong ETag. */
export const etagOf = (revision: string) => `"${revision}"`;

/** True when If-None-Match (a list, `*`, weak or strong tags) names the current ETag. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag === '*' || tag === etag || (tag.startsWith('W/') && tag.slice(2) === etag)) return true;
  }
  return false;
}

async function currentOr404(source: BundleSource): Promise<StoredBundle> {
  const bundle = await source.current();
  if (!bundle) throw new PalisadeError('NOT_FOUND', { message: 'No policy bundle has been built yet' });
  return bundle;
}

/**
 * The bundle store app (createService: health, metrics, catalogue errors). GET and HEAD of
 * BUNDLE_PATH answer 200 with the archive, ETag and `Cache-Control: no-cache`, 304 when If-None-Match
 * names the current revision, 404 while there is no bundle.
 */
export function buildBundleStore(options: BundleStoreOptions): Service {
  const service = createService({
    name: 'bundle-store',
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
    internalToken: options.internalToken,
  });
  const { app } = service;

  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const bundle = await currentOr404(options.source);
    const etag = etagOf(bundle.revision);
    reply.header('etag', etag).header('cache-control', 'no-cache');
    if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.type('application/gzip').send(bundle.archive);
  };
  // fastify answers HEAD from this GET route (headers, no body).
  app.get(BUNDLE_PATH, serve);

  app.get(BUNDLE_REVISION_PATH, async (_request, reply) => {
    const bundle = await currentOr404(options.source);
    reply.header('cache-control', 'no-cache');
    return { revision: bundle.revision };
  });

  return service;
}
