// A watch that failed (not a clean end, which the informer reconnects itself) is started again after
// a backoff that grows with each failure in a row and starts over once the watch connects.
import type { Logger } from 'pino';
import { ERROR, type Informer, type V1Secret } from '@kubernetes/client-node';
import { backoffDelay } from '@palisade/core';
import type { CustomResource } from '../kube/client.js';

export interface WatchRestarts {
  /** Restarts `informer` after each failure; `what` names it in the log. */
  keepWatching(informer: Informer<CustomResource> | Informer<V1Secret>, what: string): void;
  /** Cancels the restarts waiting (the controller stops). */
  cancel(): void;
}

export function createWatchRestarts(options: { log?: Pick<Logger, 'warn'> | undefined; stopped(): boolean }): WatchRestarts {
  const { log } = options;
  const restartTimers = new Set<NodeJS.Timeout>();
  return {
    keepWatching(informer, what) {
      let failures = 0;
      informer.on(ERROR, (error: unknown) => {
        if (options.stopped()) return;
        const delay = backoffDelay(failures++, { initialMs: 200, maxMs: 30_000 });
        log?.warn({ what, err: error, retryInMs: delay }, 'watch failed; restarting');
        const timer = setTimeout(() => {
          restartTimers.delete(timer);
          if (!options.stopped()) informer.start().catch(() => undefined);
        }, delay);
        restartTimers.add(timer);
      });
      informer.on('connect', () => {
        failures = 0;
      });
    },
    cancel() {
      for (const timer of restartTimers) clearTimeout(timer);
      restartTimers.clear();
    },
  };
}
