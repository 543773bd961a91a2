// The emitter's contract: its options, its counters and its interface.
import type { Logger } from 'pino';
import type { EventStream, SecurityEvent } from '@palisade/core';
import type { EventSpill } from './spill/spill.js';

/** The stream the gateway appends to and the event writer and exporter read. */
export const SECURITY_EVENTS_STREAM = 'palisade:security-events';

export interface EventEmitterOptions {
  events: EventStream;
  /** Default SECURITY_EVENTS_STREAM. */
  stream?: string;
  logger?: Pick<Logger, 'info' | 'warn' | 'error'> | undefined;
  /** Events held in memory (queued or being appended) at most; more go to the spill, or are dropped without one (default 10 000). */
  maxBuffer?: number;
  /** Appends in flight at most (default 16). */
  concurrency?: number;
  /** First retry delay after a failed append (default 100 ms), doubled up to retryMaxMs (default 5 s). */
  retryInitialMs?: number;
  retryMaxMs?: number;
  /** How long close() keeps trying by default (default 5 s). */
  closeTimeoutMs?: number;
  /**
   * Caps the stream at about this many entries (Redis' MAXLEN ~). Default: no cap — the stream's
   * consumers remove what every group has acked (trimAcked), so a slow or stopped reader loses nothing;
   * with a cap, a reader further behind than it loses the oldest entries.
   */
  streamMaxLen?: number;
  /** Where events go while the stream is unreachable or the memory buffer is full (closed with the emitter). */
  spill?: EventSpill | undefined;
  /** Events replayed from the spill per round of appends (default 256). */
  replayBatch?: number;
}

export interface EventEmitterStats {
  /** Events handed to emit(). */
  emitted: number;
  /** Events the stream accepted, replayed ones included. */
  appended: number;
  /** Events lost: buffer or spill full, emitted after close, or unsent when close() gave up without a spill. */
  dropped: number;
  /** Events queued in memory or being appended: emitted = appended − replayed + spilled + dropped + buffered. */
  buffered: number;
  /** Events written to the spill journal. */
  spilled: number;
  /** Events from the spill journal that the stream accepted (this process's and those a previous one left). */
  replayed: number;
  /** Bytes of the spill journal on disk. */
  spillBytes: number;
  /** In-process stream only: entries its length cap removed before any reader took them. */
  trimmedUnread: number;
  /** Append attempts that failed (each is retried). */
  failures: number;
  /** emitLater() builders that threw (their events are lost; the first error is logged). */
  buildErrors: number;
  /** True from a failed append until the next successful one. */
  degraded: boolean;
}

/** The counts the emitter's pieces keep together (the other stats are read from the buffer, the spill and the stream). */
export type EmitterCounts = Pick<EventEmitterStats, 'emitted' | 'appended' | 'dropped' | 'failures' | 'buildErrors' | 'replayed'>;

export type EmitterLogger = EventEmitterOptions['logger'];

/** What the emitter's pieces say in their log lines, and where they count. */
export interface EmitterContext {
  stream: string;
  logger: EmitterLogger;
  counts: EmitterCounts;
  /** The spill journal, when the gateway has one. */
  spill: EventSpill | undefined;
}

export interface EventEmitter {
  /** Queues the events; never throws and never waits. */
  emit(event: SecurityEvent | readonly SecurityEvent[]): void;
  /**
   * Runs `build` in the background, then emits what it returns: the request path pays for a closure
   * instead of building and validating the records. `build` must capture the request's time itself.
   */
  emitLater(build: () => SecurityEvent | readonly SecurityEvent[]): void;
  /** Resolves true once every event emitted so far (and the spill) is appended, false when timeoutMs (default 5 s) passes first. */
  flush(timeoutMs?: number): Promise<boolean>;
  /** Stops accepting events and flushes what it can within timeoutMs; the rest goes to the spill, or is dropped without one. */
  close(timeoutMs?: number): Promise<void>;
  readonly stats: EventEmitterStats;
}

