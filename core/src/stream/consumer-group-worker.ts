// The one skeleton of every consumer-group worker (event writer, usage writer, exporter workers): a
// loop that creates the group, claims entries a crashed replica left pending, reads new ones, hands
// them to the worker's own cycle (which acks only after its work is durable), and on any failure backs
// off with jitter and tries again, nothing acked meanwhile. Writers differ only in their cycle.
import { hostname } from 'node:os';
import { createBackoff } from '../service/backoff.js';
import { createExclusive } from './exclusive.js';
import { StreamsError, type EventStream, type StreamEntry } from './types.js';
import { createWakeablePause } from './wakeable-pause.js';

export interface ConsumerGroupReader {
  readonly stream: string;
  readonly group: string;
  readonly consumer: string;
  /**
   * Up to `count` entries: first those idle with another consumer for claimIdleMs (looked for at most
   * every few seconds unless `forceClaim`), then new ones, waiting up to `blockMs` only when nothing was
   * claimed. `exclude`: ids the caller holds already (a claim would hand back its own slow entries).
   */
  fetch(count: number, options?: { blockMs?: number; forceClaim?: boolean; exclude?: ReadonlySet<string> }): Promise<StreamEntry[]>;
  ack(ids: readonly string[]): Promise<void>;
}

export interface ConsumerGroupCycleResult {
  /** Entries the cycle took from the stream. */
  read: number;
  /** More is waiting: the next cycle runs at once. */
  more?: boolean;
  /** Pause before the next cycle (default none: the read's own blocking wait paces the loop). */
  pauseMs?: number;
}

export interface ConsumerGroupWorkerOptions {
  events: EventStream;
  stream: string;
  group: string;
  /** Unique per replica (default `<hostname>-<pid>`). */
  consumer?: string | undefined;
  /** Entries pending this long with another consumer are taken over (default 30 s). */
  claimIdleMs?: number | undefined;
  /**
   * How often the worker removes what every group of the stream has acked (default 5 s; trimAcked is
   * safe for any group to run, so the stream stays short without a length cap that could drop unread entries).
   */
  trimEveryMs?: number | undefined;
  /** First retry delay after a failure (default 250 ms), doubled up to retryMaxMs (default 10 s). */
  retryInitialMs?: number | undefined;
  retryMaxMs?: number | undefined;
  now?: () => number;
  /** One step of the worker; `force` is drainOnce(): claim now and do not wait for anything. */
  cycle(reader: ConsumerGroupReader, force: boolean): Promise<ConsumerGroupCycleResult>;
  /** Once when the worker starts failing, with the error; once when a cycle succeeds again. */
  onDegraded?(error: string): void;
  onRecovered?(): void;
  /** The stream lost the group (NOGROUP: a Redis restart without persistence, or another replica dropped it). */
  onGroupLost?(): void;
  /** Run by stop() before it waits for the cycle in progress (to abort a delivery's own retries). */
  onStopping?(): Promise<void>;
}

/**
 * The settings a component built on the worker takes from its caller (the event writer, the usage
 * writer): written once here so each reader documents and defaults them the same way.
 */
export interface StreamReaderOptions {
  events: EventStream;
  /** The stream to read (each reader has its own default). */
  stream?: string;
  /** Consumer group (each reader has its own default); every replica of a reader joins the same one. */
  group?: string;
  consumer?: ConsumerGroupWorkerOptions['consumer'];
  /** Entries per read. */
  batchSize?: number;
  /** How long a read waits for new entries (default 1000 ms); also the longest stop() waits for one. */
  blockMs?: number;
  claimIdleMs?: ConsumerGroupWorkerOptions['claimIdleMs'];
  retryInitialMs?: ConsumerGroupWorkerOptions['retryInitialMs'];
  retryMaxMs?: ConsumerGroupWorkerOptions['retryMaxMs'];
}

export interface ConsumerGroupWorkerState {
  running: boolean;
  /** True from a failure until the next successful cycle. */
  degraded: boolean;
  /** Cycles that failed; each is retried. */
  failures: number;
  lastError: string | null;
  /** Entries taken over from other (crashed) consumers. */
  claimed: number;
}

export interface ConsumerGroupWorker {
  readonly reader: ConsumerGroupReader;
  /** Creates the consumer group (rejects if the stream cannot), then runs the loop in the background. */
  start(): Promise<void>;
  /** Ends the loop after the cycle in progress. */
  stop(): Promise<void>;
  /** One cycle without waiting; resolves to the entries read; rejects on failure. */
  drainOnce(): Promise<number>;
  readonly state: ConsumerGroupWorkerState;
}

const errorMessage = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export function createConsumerGroupWorker(options: ConsumerGroupWorkerOptions): ConsumerGroupWorker {
  const { events, stream, group } = options;
  const consumer = options.consumer ?? `${hostname()}-${process.pid}`;
  const claimIdleMs = options.claimIdleMs ?? 30_000;
  // Jitter, so that replicas failing together do not retry together.
  const retry = { initialMs: options.retryInitialMs ?? 250, maxMs: options.retryMaxMs ?? 10_000, jitter: 0.25 };
  const now = options.now ?? Date.now;
  const trimEveryMs = options.trimEveryMs ?? 5_000;
  let lastTrimAt = now();
  // Stale entries appear at most once per claimIdleMs; looking more often than that (bounded) is enough.
  const claimEveryMs = Math.min(claimIdleMs, 5_000);
  const state: ConsumerGroupWorkerState = { running: false, degraded: false, failures: 0, lastError: null, claimed: 0 };
  let groupReady = false;
  let lastClaimAt = Number.NEGATIVE_INFINITY;
  let loopDone: Promise<void> | undefined;
  const { pause, wake } = createWakeablePause();
  // The loop and drainOnce() share what the cycle holds: cycles never overlap.
  const exclusively = createExclusive();

  const reader: ConsumerGroupReader = {
    stream,
    group,
    consumer,
    async fetch(count, { blockMs = 0, forceClaim = false, exclude } = {}) {
      let entries: StreamEntry[] = [];
      const t = now();
      if (forceClaim || t - lastClaimAt >= claimEveryMs) {
        const taken = await events.claimStale(stream, group, consumer, claimIdleMs, count);
        // A full claim may have left more behind: look again on the next cycle.
        lastClaimAt = taken.length === count ? Number.NEGATIVE_INFINITY : t;
        entries = exclude ? taken.filter((e) => !exclude.has(e.id)) : taken;
        state.claimed += entries.length;
      }
      if (entries.length < count) {
        entries = entries.concat(await events.read(stream, group, consumer, { count: count - entries.length, blockMs: entries.length > 0 ? 0 : blockMs }));
      }
      return entries;
    },
    async ack(ids) {
      if (ids.length > 0) await events.ack(stream, group, ids);
    },
  };

  async function runCycle(force: boolean): Promise<ConsumerGroupCycleResult> {
    if (!groupReady) {
      await events.ensureGroup(stream, group);
      groupReady = true;
    }
    const result = await options.cycle(reader, force);
    if (result.read > 0 && now() - lastTrimAt >= trimEveryMs) {
      lastTrimAt = now();
      // Housekeeping: a failure here is not the cycle's; the next trim removes the same entries.
      await events.trimAcked(stream).catch(() => 0);
    }
    if (state.degraded) {
      state.degraded = false;
      options.onRecovered?.();
    }
    return result;
  }

  async function loop(): Promise<void> {
    const backoff = createBackoff(retry);
    while (state.running) {
      try {
        const result = await exclusively(() => runCycle(false));
        backoff.reset();
        if (!result.more && result.pauseMs && state.running) await pause(result.pauseMs);
      } catch (err) {
        state.failures++;
        state.lastError = errorMessage(err);
        if (err instanceof StreamsError && err.code === 'NOGROUP') {
          groupReady = false;
          options.onGroupLost?.();
        }
        if (!state.degraded) {
          state.degraded = true;
          options.onDegraded?.(state.lastError);
        }
        const delayMs = backoff.fail();
        if (state.running) await pause(delayMs);
      }
    }
  }

  return {
    reader,
    async start() {
      if (state.running) return;
      state.running = true; // before the await, so that a second start() does not run a second loop
      try {
        await events.ensureGroup(stream, group);
      } catch (err) {
        state.running = false;
        throw err;
      }
      groupReady = true;
      loopDone = loop();
    },
    async stop() {
      state.running = false;
      wake();
      await options.onStopping?.();
      await loopDone;
      loopDone = undefined;
    },
    drainOnce: () => exclusively(async () => (await runCycle(true)).read),
    get state() {
      return { ...state };
    },
  };
}
