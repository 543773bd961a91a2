// The emitter's side of the journal: security events in, security events out. Events handed over
// during one turn of the event loop are written together at the emitter's next pump (one write(2));
// what the journal refuses because it is full is dropped, counted, and said at ERROR when the episode
// starts and again, with the total, when it ends.
import type { SecurityEvent } from '@palisade/core';
import { openJournal, type Journal, type JournalLogger, type JournalOptions } from './journal.js';

export interface EventSpill {
  /** Queues an event for the journal (written by writePending, in push order). */
  push(event: SecurityEvent): void;
  /** Writes what push() queued; what does not fit is dropped and counted. */
  writePending(): void;
  /** Up to `max` events after the read position (records that do not parse are skipped and counted as dropped). */
  read(max: number): SecurityEvent[];
  commit(): void;
  rewind(): void;
  /** Events pushed and not yet written. */
  readonly pending: number;
  readonly readable: boolean;
  readonly drained: boolean;
  readonly stats: { spilled: number; dropped: number; bytes: number; torn: number };
  close(): void;
}

export interface EventSpillOptions extends JournalOptions {
  logger?: JournalLogger & { info(obj: object, msg: string): void };
}

/** Opens the journal in `options.dir` (throws when it cannot: an unwritable directory, another holder). */
export function openEventSpill(options: EventSpillOptions): EventSpill {
  return createEventSpill(openJournal(options), options);
}

export function createEventSpill(journal: Journal, options: Pick<EventSpillOptions, 'dir' | 'maxBytes' | 'logger'>): EventSpill {
  const { logger } = options;
  const pending: Buffer[] = [];
  const counts = { spilled: 0, dropped: 0 };
  /** While appends are being refused: since when, and how many so far. */
  let full: { since: number; dropped: number } | undefined;

  function refused(n: number): void {
    counts.dropped += n;
    if (full === undefined) {
      full = { since: Date.now(), dropped: 0 };
      logger?.error({ dir: options.dir, max_bytes: options.maxBytes, dropped: n }, 'security events dropped: the event spill journal is full (the event stream has been unreachable for long; raise GATEWAY_EVENTS_SPILL_MAX_BYTES)');
    }
    full.dropped += n;
  }

  function episodeOver(): void {
    if (full === undefined) return;
    logger?.error({ dir: options.dir, dropped: full.dropped, duration_ms: Date.now() - full.since }, `${full.dropped} security events were dropped while the event spill journal was full`);
    full = undefined;
  }

  return {
    push(event) {
      pending.push(Buffer.from(JSON.stringify(event), 'utf8'));
    },
    writePending() {
      if (pending.length === 0) return;
      const written = journal.append(pending);
      counts.spilled += written;
      if (written < pending.length) refused(pending.length - written);
      else episodeOver();
      pending.length = 0;
    },
    read(max) {
      const out: SecurityEvent[] = [];
      for (const record of journal.read(max)) {
        try {
          out.push(JSON.parse(record.toString('utf8')) as SecurityEvent);
        } catch (err) {
          // The checksum matched, so this was written so; nothing to retry.
          counts.dropped++;
          logger?.error({ dir: options.dir, err: (err as Error).message }, 'event spill: a record is not JSON; skipped');
        }
      }
      return out;
    },
    commit() {
      journal.commit();
      if (journal.drained) episodeOver();
    },
    rewind: () => journal.rewind(),
    get pending() {
      return pending.length;
    },
    get readable() {
      return journal.readable;
    },
    get drained() {
      return journal.drained;
    },
    get stats() {
      const { bytes, torn } = journal.stats;
      return { ...counts, bytes, torn };
    },
    close() {
      journal.close();
    },
  };
}
