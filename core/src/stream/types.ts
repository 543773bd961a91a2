/**
 * The stream-and-cache contract shared by the Redis and the in-process implementations.
 *
 * Everything the data plane needs from Redis goes through these three small interfaces, so a
 * component never knows which backend it runs on: `palisade all` wires the in-process one, Kubernetes
 * wires Redis (REDIS_URL). Both implementations pass the same contract suite (testing/streams-contract/).
 */

/** Milliseconds since the epoch. Injectable so in-process tests can move time without sleeping. */
export interface StreamsClock {
  now(): number;
}

export const systemClock: StreamsClock = { now: () => Date.now() };

/** Result of one hit on a sliding-window rate limiter. */
export interface RateLimitResult {
  /** Whether this hit is within the limit (and was therefore counted). */
  allowed: boolean;
  /** Hits counted in the current window, this one included when allowed. */
  count: number;
  /** The limit the hit was checked against. */
  limit: number;
  /** Hits still allowed in the current window: `max(0, limit - count)`. */
  remaining: number;
  /** When the oldest counted hit leaves the window, i.e. when one more hit becomes possible (epoch ms). */
  resetAtMs: number;
  /** 0 when allowed; otherwise how long to wait before the next hit can succeed (> 0). */
  retryAfterMs: number;
}

/**
 * Key/value cache with TTLs, atomic counters and a sliding-window limiter (provider-match cache,
 * upstream OAuth tokens, gateway API-key rate limits). Keys live in separate namespaces per kind:
 * a `slidingWindow` key never collides with a `get`/`set`/`incr` key of the same name.
 */
export interface Cache {
  /** The value, or null when absent or expired. */
  get(key: string): Promise<string | null>;
  /** Stores the value; without ttlMs the key never expires (and any previous TTL is dropped). */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Removes the key; true when it existed. */
  del(key: string): Promise<boolean>;
  /**
   * Atomically adds `by` (an integer, default 1) and returns the new value. A missing key counts as 0.
   * ttlMs is applied only when this call creates the key, so a fixed window is not extended by later hits.
   * Rejects when the stored value is not an integer.
   */
  incr(key: string, by?: number, ttlMs?: number): Promise<number>;
  /**
   * One hit on an exact sliding-window limiter: allowed when fewer than `limit` hits were counted in the
   * last `windowMs`. Refused hits are not counted, so a client that keeps retrying is not locked out
   * forever. Atomic across every gateway replica sharing the backend. `now` defaults to the backend's
   * clock (Redis server time, so replicas with skewed clocks still agree).
   */
  slidingWindow(key: string, limit: number, windowMs: number, now?: number): Promise<RateLimitResult>;
}

export type PubSubHandler = (message: string, channel: string) => void;
export type PubSubUnsubscribe = () => Promise<void>;

/**
 * Fire-and-forget broadcast (configuration change notices: "bundle revision changed, reload").
 * A message reaches only subscribers active when it is published; nothing is stored.
 */
export interface PubSub {
  publish(channel: string, message: string): Promise<void>;
  /**
   * Resolves once the subscription is active, so a message published afterwards is delivered.
   * Handlers run asynchronously; one that throws is reported through the bundle's `onError`
   * and does not affect the others. The returned function removes this handler only.
   */
  subscribe(channel: string, handler: PubSubHandler): Promise<PubSubUnsubscribe>;
}

/** JSON as it comes back from a stream entry. */
export type EventPayload = string | number | boolean | null | EventPayload[] | { [key: string]: EventPayload };

export interface StreamEntry {
  /** `<ms>-<seq>`, increasing within a stream (the Redis Streams id format in both implementations). */
  id: string;
  /**
   * The appended payload, deep-equal to what was appended (after a JSON round trip). A flat object of
   * strings is stored as stream fields, anything else as JSON; the caller validates the shape (zod).
   */
  payload: EventPayload;
}

export interface StreamReadOptions {
  /** Most entries to return (default 10). */
  count?: number;
  /**
   * Wait up to this long for a new entry when none is ready; returns early as soon as one arrives.
   * 0 or absent: do not wait. (Redis' "block forever" is deliberately not offered: a consumer loop must
   * wake regularly to notice shutdown.) A read in progress when the bundle closes resolves to [].
   */
  blockMs?: number;
}

export interface StreamAppendOptions {
  /**
   * Caps the stream at about this many entries: older ones are trimmed in batches (Redis' MAXLEN ~),
   * so at least the newest maxLen always stay. Without it the stream grows until trimmed.
   */
  maxLen?: number;
}

/**
 * Durable, consumer-group based event log (gateway → event writer, gateway → exporter).
 * At-least-once: an entry read but not acked stays pending for its consumer, and after a crash another
 * consumer takes it over with `claimStale`. Each group has its own cursor; a new group starts at the
 * beginning of the stream, so nothing appended before the group existed is lost.
 */
export interface EventStream {
  /**
   * Appends and returns the new id. The payload must be JSON-serialisable; a flat object of strings is
   * stored as plain stream fields (readable with redis-cli), anything else as one JSON field.
   */
  append(stream: string, payload: unknown, options?: StreamAppendOptions): Promise<string>;
  /** Creates the group (and the stream) if missing, positioned at the start of the stream. Idempotent. */
  ensureGroup(stream: string, group: string): Promise<void>;
  /**
   * Removes a group with its cursor and pending entries (its reader is gone for good: a deleted
   * exporter). Returns whether it existed; a missing stream or group is not an error.
   */
  dropGroup(stream: string, group: string): Promise<boolean>;
  /** New entries for this consumer (never delivered to any consumer of the group before). */
  read(stream: string, group: string, consumer: string, options?: StreamReadOptions): Promise<StreamEntry[]>;
  /** Acknowledges processed entries; returns how many were pending. */
  ack(stream: string, group: string, ids: readonly string[]): Promise<number>;
  /**
   * Takes over entries that have been pending (delivered, not acked) for at least minIdleMs — typically
   * with a consumer that crashed — and re-delivers them to `consumer`, oldest first, at most `count`.
   * Entries trimmed from the stream meanwhile are dropped from the pending list, not returned.
   */
  claimStale(stream: string, group: string, consumer: string, minIdleMs: number, count?: number): Promise<StreamEntry[]>;
  /** Entries delivered to the group and not yet acked. */
  pending(stream: string, group: string): Promise<number>;
  /** Keeps only the newest maxLen entries (exactly); returns how many were removed. */
  trim(stream: string, maxLen: number): Promise<number>;
  /**
   * Removes the entries every consumer group of the stream has acked (those older than each group's
   * oldest pending entry and not after its last delivered one); returns how many. A stream without a
   * group is left whole: nobody has read it yet. This is how a consumed stream stays short without a
   * cap that could drop what a slow group has not read.
   */
  trimAcked(stream: string): Promise<number>;
  /**
   * Entries an append's maxLen cap removed before every consumer group of their stream had been
   * delivered them (with no group at all: every one removed), over all streams. The in-process stream
   * counts them; Redis trims inside the server without saying what, so there it is undefined.
   */
  readonly trimmedUnread?: number;
}

/** One backend: the three facets plus its lifecycle. */
export interface Streams {
  readonly kind: 'redis' | 'memory';
  readonly cache: Cache;
  readonly pubsub: PubSub;
  readonly events: EventStream;
  /** Resolves when the backend answers within timeoutMs (default 2 s), for readiness probes; rejects with StreamsError UNAVAILABLE (or CLOSED) otherwise. */
  ping(timeoutMs?: number): Promise<void>;
  /** Releases every connection and timer; idempotent. Later calls reject with code CLOSED. */
  close(): Promise<void>;
}

/**
 * CONNECT: the backend could not be reached at start-up; UNAVAILABLE: it stopped answering (ping);
 * CLOSED: the bundle was closed; NOGROUP: read/pending/claim on a group never created; INVALID: a bad
 * argument or a value of the wrong kind (incr of a non-integer).
 */
export type StreamsErrorCode = 'CONNECT' | 'UNAVAILABLE' | 'CLOSED' | 'NOGROUP' | 'INVALID';

/** The one error type both implementations throw for conditions a caller may want to branch on. */
export class StreamsError extends Error {
  readonly code: StreamsErrorCode;
  constructor(code: StreamsErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StreamsError';
    this.code = code;
  }
}

/** Reports errors that have no caller to reject (a throwing subscriber, a lost connection). */
export type StreamsErrorReporter = (error: Error, context: string) => void;

export const defaultErrorReporter: StreamsErrorReporter = (error, context) => {
  process.emitWarning(`${context}: ${error.message}`, { code: 'PALISADE_STREAMS' });
};
