/**
 * In-process Cache. JavaScript runs one callback at a time, so every operation is atomic by
 * construction; the semantics (TTL on creation for incr, refused hits not counted, separate key
 * namespaces) mirror the Redis scripts exactly.
 */
import { checkInteger, checkName, checkTtl, checkWindow } from './args.js';
import type { Lifecycle } from './lifecycle.js';
import { StreamsError, type Cache, type StreamsClock, type RateLimitResult } from './types.js';

interface Item {
  value: string;
  expiresAt: number | undefined;
}

interface Window {
  /** Hit times, ascending. */
  hits: number[];
  windowMs: number;
}

const INTEGER = /^-?(0|[1-9]\d*)$/;

export class MemoryCache implements Cache {
  private readonly items = new Map<string, Item>();
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly clock: StreamsClock,
    private readonly life: Lifecycle,
  ) {}

  private live(key: string, now = this.clock.now()): Item | undefined {
    const item = this.items.get(key);
    if (item?.expiresAt !== undefined && item.expiresAt <= now) {
      this.items.delete(key);
      return undefined;
    }
    return item;
  }

  async get(key: string): Promise<string | null> {
    this.life.assertOpen();
    checkName('key', key);
    return this.live(key)?.value ?? null;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    this.life.assertOpen();
    checkName('key', key);
    if (typeof value !== 'string') throw new StreamsError('INVALID', 'cache values are strings');
    const ttl = checkTtl(ttlMs);
    this.items.set(key, { value, expiresAt: ttl === undefined ? undefined : this.clock.now() + ttl });
  }

  async del(key: string): Promise<boolean> {
    this.life.assertOpen();
    checkName('key', key);
    const existed = this.live(key) !== undefined;
    this.items.delete(key);
    return existed;
  }

  async incr(key: string, by = 1, ttlMs?: number): Promise<number> {
    this.life.assertOpen();
    checkName('key', key);
    checkInteger('by', by, -Number.MAX_SAFE_INTEGER);
    const ttl = checkTtl(ttlMs);
    const now = this.clock.now();
    const item = this.live(key, now);
    if (item === undefined) {
      this.items.set(key, { value: String(by), expiresAt: ttl === undefined ? undefined : now + ttl });
      return by;
    }
    if (!INTEGER.test(item.value)) throw new StreamsError('INVALID', `cache value of "${key}" is not an integer`);
    const next = Number(item.value) + by;
    if (!Number.isSafeInteger(next)) throw new StreamsError('INVALID', `incr of "${key}" would overflow`);
    item.value = String(next);
    return next;
  }

  async slidingWindow(key: string, limit: number, windowMs: number, now?: number): Promise<RateLimitResult> {
    this.life.assertOpen();
    checkName('key', key);
    checkWindow(limit, windowMs, now);
    const window = Math.ceil(windowMs);
    const t = Math.floor(now ?? this.clock.now());
    // A hit at time h counts while t - h < window (the Redis script removes scores <= t - window).
    const hits = this.windows.get(key)?.hits ?? [];
    let expired = 0;
    while (expired < hits.length && (hits[expired] as number) <= t - window) expired++;
    hits.splice(0, expired);
    const allowed = hits.length < limit;
    if (allowed) {
      let i = hits.length;
      while (i > 0 && (hits[i - 1] as number) > t) i--;
      hits.splice(i, 0, t);
    }
    if (hits.length > 0) this.windows.set(key, { hits, windowMs: window });
    else this.windows.delete(key);
    const resetAtMs = (hits[0] ?? t) + window;
    return {
      allowed,
      count: hits.length,
      limit,
      remaining: Math.max(0, limit - hits.length),
      resetAtMs,
      retryAfterMs: allowed ? 0 : Math.max(0, resetAtMs - t),
    };
  }

  /** Drops expired keys and empty windows, so keys nobody reads again do not pile up. */
  sweep(): void {
    const now = this.clock.now();
    for (const [key, item] of this.items) if (item.expiresAt !== undefined && item.expiresAt <= now) this.items.delete(key);
    for (const [key, w] of this.windows) {
      const newest = w.hits[w.hits.length - 1];
      if (newest === undefined || newest <= now - w.windowMs) this.windows.delete(key);
    }
  }

  clear(): void {
    this.items.clear();
    this.windows.clear();
  }
}
