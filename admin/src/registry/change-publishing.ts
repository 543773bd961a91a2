// A configuration write through the registry or the Admin API is published before it is answered: the
// bundle is rebuilt, announced, and (in one process) applied by the gateway, and the answer carries the
// revision that contains the change in X-Bundle-Revision. A client can compare it with the gateway's
// /health/ready `bundle_revision` when the gateway runs elsewhere.
//
// The operations only know "something changed"; which answer the revision belongs to is the request
// whose handler made the change, tracked with AsyncLocalStorage so no operation signature carries it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

export const BUNDLE_REVISION_HEADER = 'x-bundle-revision';

/** What a write needs to reach the data plane. */
export interface ConfigPublisher {
  /** Rebuilds and announces now; resolves to the revision once this process's gateway serves it. */
  publish(): Promise<string>;
  /** Rebuild soon (the fallback when publishing right away failed). */
  schedule(): void;
  /** Rebuild and announce even when nothing changed; resolves to the revision. */
  syncNow(): Promise<string>;
}

export function createChangePublishing(publisher: ConfigPublisher, log?: Pick<Logger, 'error'>) {
  const requests = new AsyncLocalStorage<{ revision?: string }>();
  const remember = (revision: string) => {
    const scope = requests.getStore();
    if (scope) scope.revision = revision;
    return revision;
  };
  return {
    /**
     * The operations' onChange. The write is already stored, so a failed rebuild does not fail the call:
     * it is logged and retried by schedule() (and the publisher's periodic refresh).
     */
    async onChange(): Promise<void> {
      try {
        remember(await publisher.publish());
      } catch (error) {
        log?.error({ err: error }, 'policy bundle not rebuilt after a change; retrying shortly');
        publisher.schedule();
      }
    },
    syncNow: async () => remember(await publisher.syncNow()),
    /** Tracks each request and adds X-Bundle-Revision to the answer of a call that published. */
    register(app: FastifyInstance): void {
      app.addHook('onRequest', (_request, _reply, done) => requests.run({}, done));
      app.addHook('onSend', async (_request, reply, payload) => {
        const revision = requests.getStore()?.revision;
        if (revision) reply.header(BUNDLE_REVISION_HEADER, revision);
        return payload;
      });
    },
  };
}
