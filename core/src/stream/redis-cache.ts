/**
 * Redis Cache. incr and slidingWindow are Lua scripts, so each is one atomic step on the server and
 * concurrent hits from every gateway replica are counted exactly.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { checkInteger, checkName, checkTtl, checkWindow } from './args.js';
import type { Lifecycle } from './lifecycle.js';
import { LuaScript } from './redis-script.js';
import { StreamsError, type Cache, type RateLimitResult } from './types.js';

/** INCRBY, plus the TTL when this call created the key (a later hit never extends a fixed window). */
const INCR = new LuaScript(`
local existed = redis.call('EXISTS', KEYS[1])
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if existed == 0 and ARGV[2] ~= '' then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return value
`);

/**
 * Sliding log over a sorted set scored by hit time (ms). Drops hits that left the window, counts the
 * rest, records this hit only if under the limit. Without a caller-supplied time it uses the server
 * clock, so replicas with skewed clocks share one timeline. The key expires when its newest hit leaves
 * the window. Returns {allowed, count, now, resetAt}.
 */
const SLIDING_WINDOW = new LuaScript(`
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  count = count + 1
  allowed = 1
end
local resetAt = now + window
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if oldest[2] then resetAt = tonumber(oldest[2]) + window end
return {allowed, count, now, resetAt}
`);

export class RedisCache implements Cache {
  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
    private readonly life: Lifecycle,
  ) {}

  private key(key: string): string {
    checkName('key', key);
    return `${this.prefix}cache:${key}`;
  }

  async get(key: string): Promise<string | null> {
    this.life.assertOpen();
    return this.client.get(this.key(key));
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    this.life.assertOpen();
    const k = this.key(key);
    if (typeof value !== 'string') throw new StreamsError('INVALID', 'cache values are strings');
    const ttl = checkTtl(ttlMs);
    if (ttl === undefined) await this.client.set(k, value);
    else await this.client.set(k, value, 'PX', ttl);
  }

  async del(key: string): Promise<boolean> {
    this.life.assertOpen();
    return (await this.client.del(this.key(key))) > 0;
  }

  async incr(key: string, by = 1, ttlMs?: number): Promise<number> {
    this.life.assertOpen();
    const k = this.key(key);
    checkInteger('by', by, -Number.MAX_SAFE_INTEGER);
    const ttl = checkTtl(ttlMs);
    try {
      return Number(await INCR.run(this.client, [k], [by, ttl ?? '']));
    } catch (err) {
      if (err instanceof Error && /not an integer|overflow/.test(err.message)) {
        throw new StreamsError('INVALID', `cache value of "${key}" is not an integer (or incr would overflow)`, { cause: err });
      }
      throw err;
    }
  }

  async slidingWindow(key: string, limit: number, windowMs: number, now?: number): Promise<RateLimitResult> {
    this.life.assertOpen();
    checkName('key', key);
    checkWindow(limit, windowMs, now);
    const window = Math.ceil(windowMs);
    const reply = (await SLIDING_WINDOW.run(
      this.client,
      [`${this.prefix}rl:${key}`],
      [limit, window, now === undefined ? '' : Math.floor(now), randomUUID()],
    )) as [number, number, number, number];
    const [allowed, count, t, resetAtMs] = reply.map(Number) as [number, number, number, number];
    return {
      allowed: allowed === 1,
      count,
      limit,
      remaining: Math.max(0, limit - count),
      resetAtMs,
      retryAfterMs: allowed === 1 ? 0 : Math.max(0, resetAtMs - t),
    };
  }
}
