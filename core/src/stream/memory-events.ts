/**
 * In-process EventStream with Redis Streams semantics: `<ms>-<seq>` ids, one cursor per consumer
 * group starting at 0, a pending-entries list (PEL) per group, XAUTOCLAIM-style takeover.
 * A blocking read parks on a per-stream notification (no polling) and is woken by append or close.
 */
import { checkIds, checkInteger, checkMinIdle, checkName, checkReadOptions } from './args.js';
import type { Lifecycle } from './lifecycle.js';
import { decodePayload, encodePayload, type Fields } from './payload.js';
import { StreamsError, type StreamsClock, type EventStream, type StreamAppendOptions, type StreamReadOptions, type StreamEntry } from './types.js';

interface Id {
  ms: number;
  seq: number;
}

interface Entry extends Id {
  id: string;
  fields: Fields;
}

interface PendingInfo {
  consumer: string;
  deliveredAt: number;
  deliveries: number;
}

interface Group {
  lastDelivered: Id;
  /** Keyed by entry id; Map order is delivery order, which is id order (claims update in place). */
  pel: Map<string, PendingInfo>;
}

interface Stream {
  /** Ascending by id. */
  entries: Entry[];
  lastId: Id;
  groups: Map<string, Group>;
}

function compare(a: Id, b: Id): number {
  return a.ms - b.ms || a.seq - b.seq;
}

function noGroup(stream: string, group: string): StreamsError {
  return new StreamsError('NOGROUP', `no consumer group "${group}" on stream "${stream}" (call ensureGroup first)`);
}

function toEntry(e: Entry): StreamEntry {
  return { id: e.id, payload: decodePayload(e.fields) };
}

/** Keeps the newest maxLen entries; returns how many were removed. (Pending ids of removed entries are dropped on claim.) */
function dropOldest(s: Stream, maxLen: number): number {
  if (s.entries.length <= maxLen) return 0;
  const removed = s.entries.length - maxLen;
  s.entries.splice(0, removed);
  return removed;
}

export class MemoryEventStream implements EventStream {
  private readonly streams = new Map<string, Stream>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private unreadTrimmed = 0;

  get trimmedUnread(): number {
    return this.unreadTrimmed;
  }

  /** How many of the oldest `n` entries some group (or, with none, nobody) has not been delivered. */
  private static unreadAmongOldest(s: Stream, n: number): number {
    let slowest: Id | undefined;
    for (const g of s.groups.values()) if (slowest === undefined || compare(g.lastDelivered, slowest) < 0) slowest = g.lastDelivered;
    if (slowest === undefined) return n;
    return Math.max(0, n - MemoryEventStream.firstAfter(s.entries, slowest));
  }

  constructor(
    private readonly clock: StreamsClock,
    private readonly life: Lifecycle,
  ) {}

  private stream(name: string, create: boolean): Stream | undefined {
    let s = this.streams.get(name);
    if (s === undefined && create) {
      s = { entries: [], lastId: { ms: 0, seq: 0 }, groups: new Map() };
      this.streams.set(name, s);
    }
    return s;
  }

  private group(stream: string, group: string): { s: Stream; g: Group } {
    const s = this.streams.get(stream);
    const g = s?.groups.get(group);
    if (s === undefined || g === undefined) throw noGroup(stream, group);
    return { s, g };
  }

  /** Index of the first entry with id > after. */
  private static firstAfter(entries: readonly Entry[], after: Id): number {
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(entries[mid] as Entry, after) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private static find(entries: readonly Entry[], id: string): Entry | undefined {
    const [ms, seq] = id.split('-').map(Number) as [number, number];
    const i = MemoryEventStream.firstAfter(entries, { ms, seq: seq - 1 });
    const e = entries[i];
    return e !== undefined && e.id === id ? e : undefined;
  }

  async append(stream: string, payload: unknown, options: StreamAppendOptions = {}): Promise<string> {
    this.life.assertOpen();
    checkName('stream', stream);
    if (options.maxLen !== undefined) checkInteger('maxLen', options.maxLen, 1);
    const fields = encodePayload(payload);
    const s = this.stream(stream, true) as Stream;
    const ms = Math.max(0, Math.floor(this.clock.now()));
    const next: Id = ms > s.lastId.ms ? { ms, seq: 0 } : { ms: s.lastId.ms, seq: s.lastId.seq + 1 };
    s.lastId = next;
    const id = `${next.ms}-${next.seq}`;
    s.entries.push({ ms: next.ms, seq: next.seq, id, fields });
    // In batches of a tenth, as Redis' "~" does, so an append does not shift the array each time.
    if (options.maxLen !== undefined && s.entries.length > options.maxLen + Math.ceil(options.maxLen / 10)) {
      this.unreadTrimmed += MemoryEventStream.unreadAmongOldest(s, s.entries.length - options.maxLen);
      dropOldest(s, options.maxLen);
    }
    const ws = this.waiters.get(stream);
    if (ws !== undefined) for (const wake of [...ws]) wake();
    return id;
  }

  async ensureGroup(stream: string, group: string): Promise<void> {
    this.life.assertOpen();
    checkName('stream', stream);
    checkName('group', group);
    const s = this.stream(stream, true) as Stream;
    if (!s.groups.has(group)) s.groups.set(group, { lastDelivered: { ms: 0, seq: 0 }, pel: new Map() });
  }

  async dropGroup(stream: string, group: string): Promise<boolean> {
    this.life.assertOpen();
    checkName('stream', stream);
    checkName('group', group);
    return (this.stream(stream, false) as Stream | undefined)?.groups.delete(group) ?? false;
  }

  /** Delivers up to count new entries to consumer; [] when there are none. */
  private deliver(stream: string, group: string, consumer: string, count: number): StreamEntry[] {
    const { s, g } = this.group(stream, group);
    const start = MemoryEventStream.firstAfter(s.entries, g.lastDelivered);
    const batch = s.entries.slice(start, start + count);
    const now = this.clock.now();
    for (const e of batch) g.pel.set(e.id, { consumer, deliveredAt: now, deliveries: 1 });
    const last = batch[batch.length - 1];
    if (last !== undefined) g.lastDelivered = { ms: last.ms, seq: last.seq };
    return batch.map(toEntry);
  }

  async read(stream: string, group: string, consumer: string, options: StreamReadOptions = {}): Promise<StreamEntry[]> {
    this.life.assertOpen();
    checkName('stream', stream);
    checkName('group', group);
    checkName('consumer', consumer);
    const { count, blockMs } = checkReadOptions(options.count, options.blockMs);
    const deadline = Date.now() + blockMs;
    for (;;) {
      if (this.life.closed) return [];
      const got = this.deliver(stream, group, consumer, count);
      if (got.length > 0) return got;
      const left = deadline - Date.now();
      if (left <= 0) return [];
      // Another reader may take the entry that woke us: then we loop and wait for the rest of blockMs.
      await this.waitForAppend(stream, left);
    }
  }

  private waitForAppend(stream: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      let ws = this.waiters.get(stream);
      if (ws === undefined) {
        ws = new Set();
        this.waiters.set(stream, ws);
      }
      const set = ws;
      const wake = (): void => {
        clearTimeout(timer);
        set.delete(wake);
        if (set.size === 0 && this.waiters.get(stream) === set) this.waiters.delete(stream);
        removeCloseHook();
        resolve();
      };
      // Bounded by blockMs and cleared on close, so it never holds the process open for long.
      const timer = setTimeout(wake, ms);
      const removeCloseHook = this.life.whenClosed(wake);
      set.add(wake);
    });
  }

  async ack(stream: string, group: string, ids: readonly string[]): Promise<number> {
    this.life.assertOpen();
    checkName('stream', stream);
    checkName('group', group);
    checkIds(ids);
    const g = this.streams.get(stream)?.groups.get(group);
    if (g === undefined) return 0; // as XACK: nothing pending under a missing group
    let acked = 0;
    for (const id of new Set(ids)) if (g.pel.delete(id)) acked++;
    return acked;
  }

  async claimStale(stream: string, group: string, consumer: string, minIdleMs: number, count = 10): Promise<StreamEntry[]> {
    this.life.assertOpen();
    checkName('stream', stream);
    checkName('group', group);
    checkName('consumer', consumer);
    const minIdle = checkMinIdle(minIdleMs);
    checkInteger('count', count, 1);
    const { s, g } = this.group(stream, group);
    const now = this.clock.now();
    const claimed: StreamEntry[] = [];
    for (const [id, info] of g.pel) {
      if (claimed.length >= count) break;
      if (now - info.deliveredAt < minIdle) continue;
      const entry = MemoryEventStream.find(s.entries, id);
      if (entry === undefined) {
        g.pel.delete(id); // trimmed meanwhile: XAUTOCLAIM drops it from the PEL too
        continue;
      }
      info.consumer = consumer;
      info.deliveredAt = now;
      info.deliveries++;
      claimed.push(toEntry(entry));
    }
    return claimed;
  }

  async pending(stream: string, group: string): Promise<number> {
    this.life.assertOpen();
    checkName('stream', stream);
    checkName('group', group);
    return this.group(stream, group).g.pel.size;
  }

  async trim(stream: string, maxLen: number): Promise<number> {
    this.life.assertOpen();
    checkName('stream', stream);
    checkInteger('maxLen', maxLen, 0);
    const s = this.streams.get(stream);
    return s === undefined ? 0 : dropOldest(s, maxLen);
  }

  async trimAcked(stream: string): Promise<number> {
    this.life.assertOpen();
    checkName('stream', stream);
    const s = this.streams.get(stream);
    if (s === undefined || s.groups.size === 0) return 0;
    // The first entry some group still needs: its oldest pending one, else the one after its last delivered.
    let keepFrom = s.entries.length;
    for (const g of s.groups.values()) {
      const oldestPending = g.pel.keys().next();
      const needed = oldestPending.done ? MemoryEventStream.firstAfter(s.entries, g.lastDelivered) : s.entries.findIndex((e) => e.id === oldestPending.value);
      if (needed >= 0) keepFrom = Math.min(keepFrom, needed);
    }
    s.entries.splice(0, keepFrom);
    return keepFrom;
  }

  clear(): void {
    this.streams.clear();
    this.waiters.clear();
  }
}
