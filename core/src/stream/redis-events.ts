/**
 * Redis EventStream over Redis Streams: XADD, XGROUP CREATE … 0 MKSTREAM, XREADGROUP '>', XACK,
 * XAUTOCLAIM, XPENDING, XTRIM. Blocking reads run on connections borrowed from a BlockingPool, never
 * on the shared command connection (a blocked command would stall every other command behind it).
 */
import type { Redis } from 'ioredis';
import { checkIds, checkInteger, checkMinIdle, checkName, checkReadOptions } from './args.js';
import type { Lifecycle } from './lifecycle.js';
import { argsToFields, decodePayload, encodePayload, fieldsToArgs } from './payload.js';
import type { BlockingPool } from './redis-connection.js';
import { StreamsError, type EventStream, type StreamAppendOptions, type StreamReadOptions, type StreamEntry } from './types.js';

/** [[id, [field, value, …]] | null, …] as XREADGROUP and XAUTOCLAIM reply. */
function parseEntries(raw: unknown): { entries: StreamEntry[]; missing: string[] } {
  const entries: StreamEntry[] = [];
  const missing: string[] = [];
  if (!Array.isArray(raw)) return { entries, missing };
  for (const item of raw) {
    if (!Array.isArray(item)) continue;
    const [id, flat] = item as [unknown, unknown];
    if (Array.isArray(flat)) entries.push({ id: String(id), payload: decodePayload(argsToFields(flat)) });
    else missing.push(String(id)); // Redis 6.2 XAUTOCLAIM: deleted entry
  }
  return { entries, missing };
}

export class RedisEventStream implements EventStream {
  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
    private readonly life: Lifecycle,
    private readonly blocking: BlockingPool,
  ) {}

  private key(stream: string): string {
    checkName('stream', stream);
    return `${this.prefix}stream:${stream}`;
  }

  /** Runs a command and turns NOGROUP into the error the in-process stream throws. */
  private async withGroup<T>(stream: string, group: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('NOGROUP')) {
        throw new StreamsError('NOGROUP', `no consumer group "${group}" on stream "${stream}" (call ensureGroup first)`, { cause: err });
      }
      throw err;
    }
  }

  async append(stream: string, payload: unknown, options: StreamAppendOptions = {}): Promise<string> {
    this.life.assertOpen();
    const key = this.key(stream);
    if (options.maxLen !== undefined) checkInteger('maxLen', options.maxLen, 1);
    const fields = encodePayload(payload);
    // "~": Redis trims whole radix-tree nodes only, which keeps XADD O(1).
    const cap = options.maxLen === undefined ? [] : ['MAXLEN', '~', options.maxLen];
    return String(await this.client.call('XADD', key, ...cap, '*', ...fieldsToArgs(fields)));
  }

  async ensureGroup(stream: string, group: string): Promise<void> {
    this.life.assertOpen();
    const key = this.key(stream);
    checkName('group', group);
    try {
      await this.client.call('XGROUP', 'CREATE', key, group, '0', 'MKSTREAM');
    } catch (err) {
      if (!(err instanceof Error && err.message.startsWith('BUSYGROUP'))) throw err;
    }
  }

  async dropGroup(stream: string, group: string): Promise<boolean> {
    this.life.assertOpen();
    const key = this.key(stream);
    checkName('group', group);
    // XGROUP DESTROY on a stream that does not exist is an error, not a 0.
    if (Number(await this.client.call('EXISTS', key)) === 0) return false;
    return Number(await this.client.call('XGROUP', 'DESTROY', key, group)) === 1;
  }

  async read(stream: string, group: string, consumer: string, options: StreamReadOptions = {}): Promise<StreamEntry[]> {
    this.life.assertOpen();
    const key = this.key(stream);
    checkName('group', group);
    checkName('consumer', consumer);
    const { count, blockMs } = checkReadOptions(options.count, options.blockMs);
    const args = ['GROUP', group, consumer, 'COUNT', count, ...(blockMs > 0 ? ['BLOCK', blockMs] : []), 'STREAMS', key, '>'];
    const reply = await this.withGroup(stream, group, async () => {
      if (blockMs === 0) return this.client.call('XREADGROUP', ...args);
      let conn: Redis | undefined;
      try {
        conn = await this.blocking.acquire();
        return await conn.call('XREADGROUP', ...args);
      } catch (err) {
        if (this.life.closed) return null; // close() cut the blocked read short
        throw err;
      } finally {
        if (conn !== undefined) this.blocking.release(conn);
      }
    });
    if (!Array.isArray(reply)) return [];
    const first = reply[0] as unknown;
    return Array.isArray(first) ? parseEntries(first[1]).entries : [];
  }

  async ack(stream: string, group: string, ids: readonly string[]): Promise<number> {
    this.life.assertOpen();
    const key = this.key(stream);
    checkName('group', group);
    checkIds(ids);
    if (ids.length === 0) return 0;
    return Number(await this.client.call('XACK', key, group, ...new Set(ids)));
  }

  async claimStale(stream: string, group: string, consumer: string, minIdleMs: number, count = 10): Promise<StreamEntry[]> {
    this.life.assertOpen();
    const key = this.key(stream);
    checkName('group', group);
    checkName('consumer', consumer);
    const minIdle = checkMinIdle(minIdleMs);
    checkInteger('count', count, 1);
    const claimed: StreamEntry[] = [];
    // XAUTOCLAIM scans a bounded slice of the PEL per call; follow its cursor until we have `count`
    // entries or the whole PEL was scanned.
    let cursor = '0-0';
    do {
      const reply = await this.withGroup(stream, group, () =>
        this.client.call('XAUTOCLAIM', key, group, consumer, minIdle, cursor, 'COUNT', count - claimed.length),
      );
      const [next, raw] = reply as [unknown, unknown];
      const { entries, missing } = parseEntries(raw);
      claimed.push(...entries);
      if (missing.length > 0) await this.client.call('XACK', key, group, ...missing);
      cursor = String(next);
    } while (cursor !== '0-0' && claimed.length < count);
    return claimed;
  }

  async pending(stream: string, group: string): Promise<number> {
    this.life.assertOpen();
    const key = this.key(stream);
    checkName('group', group);
    const reply = await this.withGroup(stream, group, () => this.client.call('XPENDING', key, group));
    return Array.isArray(reply) ? Number(reply[0]) : 0;
  }

  async trimAcked(stream: string): Promise<number> {
    this.life.assertOpen();
    const key = this.key(stream);
    let groups: unknown;
    try {
      groups = await this.client.call('XINFO', 'GROUPS', key);
    } catch (err) {
      if (err instanceof Error && /no such key/i.test(err.message)) return 0;
      throw err;
    }
    if (!Array.isArray(groups) || groups.length === 0) return 0;
    // The first id some group still needs: its oldest pending one, else the one after its last delivered.
    let minId: [number, number] | undefined;
    for (const raw of groups as unknown[][]) {
      const info = new Map<string, unknown>();
      for (let i = 0; i + 1 < raw.length; i += 2) info.set(String(raw[i]), raw[i + 1]);
      let needed: [number, number];
      if (Number(info.get('pending')) > 0) {
        const summary = (await this.client.call('XPENDING', key, String(info.get('name')))) as unknown[];
        needed = parseId(String(summary[1]));
      } else {
        const [ms, seq] = parseId(String(info.get('last-delivered-id')));
        needed = [ms, seq + 1];
      }
      if (minId === undefined || needed[0] < minId[0] || (needed[0] === minId[0] && needed[1] < minId[1])) minId = needed;
    }
    if (minId === undefined) return 0;
    // Exact MINID (not "~"): what it removes is known acked, and the count it returns is true.
    return Number(await this.client.call('XTRIM', key, 'MINID', `${minId[0]}-${minId[1]}`));
  }

  async trim(stream: string, maxLen: number): Promise<number> {
    this.life.assertOpen();
    const key = this.key(stream);
    checkInteger('maxLen', maxLen, 0);
    return Number(await this.client.call('XTRIM', key, 'MAXLEN', maxLen));
  }
}

/** A stream id's two parts (`<ms>-<seq>`). */
function parseId(id: string): [number, number] {
  const [ms, seq] = id.split('-');
  return [Number(ms), Number(seq ?? 0)];
}
