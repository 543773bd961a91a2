// A durable FIFO of records on local disk, for security events the stream cannot take now.
//
// Hand-written because no well-kept npm package is this: the persistent queues on npm are SQLite
// wrappers whose native build downloads binaries at install (better-sqlite3), LevelDB (classic-level:
// a native key-value store, where order, byte bounds and segment deletion would still be ours), or
// replicated signed logs (hypercore). What is needed is small: append, read in order, forget what was
// delivered, survive a crash, stay under a byte budget.
//
// Layout: numbered segment files `<seq>.seg` (segments.ts; records.ts has the framing). Records are
// appended to the newest segment (journal-writer.ts); a segment that reaches segmentBytes is synced and
// closed, and a new one begun. Reading (journal-reader.ts) starts at the oldest segment; once every
// record of a segment is delivered (commit), the file is deleted. After a crash the oldest segment is read again from its start: records delivered before
// the crash are delivered again (at-least-once; the event writer keeps one row per event id).
//
// Durability: a record is written with write(2) before append() returns, so it survives the process
// (crash, kill -9, OOM kill) at once; fdatasync every fsyncIntervalMs (and when a segment is closed)
// bounds what a power loss or kernel crash can take to that interval. 0 syncs after every append call.
import { mkdirSync } from 'node:fs';
import { createJournalReader } from './journal-reader.js';
import { createJournalWriter } from './journal-writer.js';
import { lockSpillDir } from './lock.js';
import { openSegmentFiles } from './segments.js';

export interface JournalLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JournalOptions {
  dir: string;
  /** Bytes on disk at most, every segment counted whole; appends beyond are refused. */
  maxBytes: number;
  /** Size at which a segment is closed and a new one begun (default maxBytes / 16, at most 16 MiB). */
  segmentBytes?: number;
  /** fdatasync at most this often while records are being written; 0: after every append call (default 1000). */
  fsyncIntervalMs?: number;
  logger?: JournalLogger | undefined;
}

export interface JournalStats {
  /** Bytes of every segment file. */
  bytes: number;
  /** Records appended since the journal was opened. */
  appended: number;
  /** Records that could not be read back (a torn tail after a crash, damage), counted when skipped. */
  torn: number;
}

export interface Journal {
  /** Appends in order; returns how many fit (the rest are refused: the journal is at maxBytes). */
  append(payloads: readonly Buffer[]): number;
  /** Up to `max` records after the read position, which moves past them. */
  read(max: number): Buffer[];
  /** Everything read so far was delivered: segments left behind are deleted. */
  commit(): void;
  /** Moves the read position back to the last commit (the records read since will be read again). */
  rewind(): void;
  /** Whether records remain after the read position. */
  readonly readable: boolean;
  /** Whether nothing is left to deliver (no record after the last commit). */
  readonly drained: boolean;
  readonly stats: JournalStats;
  /** Syncs and closes the files and releases the directory. */
  close(): void;
}

/** Opens (or creates) the journal in options.dir, holding the directory's lock until close(). */
export function openJournal(options: JournalOptions): Journal {
  const { dir, maxBytes, logger } = options;
  const segmentBytes = Math.max(64 * 1024, Math.min(options.segmentBytes ?? Math.floor(maxBytes / 16), 16 * 1024 * 1024));
  const fsyncIntervalMs = options.fsyncIntervalMs ?? 1_000;
  mkdirSync(dir, { recursive: true });
  const unlock = lockSpillDir(dir);
  const { files, torn } = openSegmentFiles(dir, logger);
  const stats = { appended: 0, torn: torn ? 1 : 0 };
  const writer = createJournalWriter(files, { dir, maxBytes, segmentBytes, fsyncIntervalMs, logger });
  const reader = createJournalReader(files, { logger, onTorn: () => void stats.torn++ });
  let closed = false;

  return {
    append(payloads) {
      if (closed) return 0;
      const accepted = writer.append(payloads);
      stats.appended += accepted;
      return accepted;
    },
    read: (max) => reader.read(max),
    commit() {
      if (!reader.commit()) return;
      // Everything delivered: start over with no file at all.
      reader.close();
      writer.closeSegment();
      files.deleteAll();
      reader.restart();
    },
    rewind: () => reader.rewind(),
    get readable() {
      return reader.readable;
    },
    get drained() {
      return reader.drained;
    },
    get stats() {
      return { bytes: files.bytes, appended: stats.appended, torn: stats.torn };
    },
    close() {
      if (closed) return;
      closed = true;
      reader.close();
      writer.close();
      unlock();
    },
  };
}
