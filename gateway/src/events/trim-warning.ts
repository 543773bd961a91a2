// An in-process stream without a reader loses its oldest entries to its length cap: said at ERROR at
// most once a minute, with how many went since the last time.
import type { EventStream } from '@palisade/core';
import type { EmitterLogger } from './emitter-types.js';

export interface TrimWarningOptions {
  events: EventStream;
  stream: string;
  logger: EmitterLogger;
}

/** Returns the check, run after appends: it logs when the stream trimmed unread entries since it last said so. */
export function createTrimWarning(options: TrimWarningOptions): () => void {
  const { events, stream, logger } = options;
  /** The stream's count of entries trimmed unread, as of the last line about it. */
  const said = { total: 0, at: 0 };
  return () => {
    const total = events.trimmedUnread;
    if (total === undefined || total === said.total || Date.now() - said.at < 60_000) return;
    logger?.error(
      { stream, trimmed_unread: total - said.total, total },
      'security events were removed from the in-process event stream before any reader took them: no event writer runs in this process (set REDIS_URL, or run the event writer here)',
    );
    said.total = total;
    said.at = Date.now();
  };
}
