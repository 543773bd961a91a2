/**
 * Opening ioredis connections that fail fast: a wrong URL must stop a component at start-up with a
 * readable error instead of retrying in the background while requests hang.
 *
 * - lazyConnect + an explicit connect() we await, raced against our own timer (covers a peer that
 *   accepts TCP but never answers the ready check);
 * - no reconnect before the first success; after it, reconnect with a capped backoff;
 * - enableOfflineQueue false and maxRetriesPerRequest 1: while Redis is down, commands fail at once
 *   rather than queueing (a rate-limit check must not stall a request for seconds).
 */
import { Redis } from 'ioredis';
import { backoffDelay } from '../service/backoff.js';
import { StreamsError, type StreamsErrorReporter } from './types.js';

export interface ConnectionOptions {
  url: string;
  /** What the connection is for, in error messages ("commands", "subscriber", "blocking-reads"). */
  role: string;
  /** CLIENT SETNAME, so operators can tell connections apart in CLIENT LIST: `<name>:<role>`. */
  name: string;
  connectTimeoutMs: number;
  /** Per-command timeout; never set on connections that run blocking commands. */
  commandTimeoutMs?: number;
  onError: StreamsErrorReporter;
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

export async function openConnection(options: ConnectionOptions): Promise<Redis> {
  const { url, role, connectTimeoutMs } = options;
  let connected = false;
  let healthy = false;
  let lastError: Error | undefined;
  const client = new Redis(url, {
    lazyConnect: true,
    connectionName: `${options.name}:${role}`,
    connectTimeout: connectTimeoutMs,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    ...(options.commandTimeoutMs === undefined ? {} : { commandTimeout: options.commandTimeoutMs }),
    // ioredis counts reconnect attempts from 1: 200 ms, doubled up to 2 s.
    retryStrategy: (times) => (connected ? backoffDelay(times - 1, { initialMs: 200, maxMs: 2_000 }) : null),
  });
  // Report the first trouble after being healthy, not every failed reconnect attempt.
  const report = (err: Error): void => {
    if (!healthy) return;
    healthy = false;
    options.onError(err, `Redis connection (${role}) to ${redactUrl(url)}`);
  };
  client.on('error', (err: Error) => {
    lastError = err;
    report(err);
  });
  // A connection the server closed cleanly emits no 'error'; 'reconnecting' is never emitted after
  // our own quit()/disconnect(), so it means a real loss.
  client.on('reconnecting', () => report(new Error(`connection lost (${lastError?.message ?? 'closed by the server'}), reconnecting`)));
  client.on('ready', () => {
    healthy = true;
  });

  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${connectTimeoutMs + 1_000} ms`)), connectTimeoutMs + 1_000);
  });
  const connecting = client.connect();
  connecting.catch(() => undefined); // when the timer wins, its later rejection is expected
  try {
    await Promise.race([connecting, timeout]);
    connected = true;
    return client;
  } catch (err) {
    client.disconnect();
    // connect() rejects with a generic "Connection is closed."; the cause is in the 'error' event.
    const cause = lastError ?? (err as Error);
    throw new StreamsError('CONNECT', `cannot connect to Redis at ${redactUrl(url)} (${role}): ${cause.message}`, { cause });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Connections for blocking XREADGROUP. A blocking command occupies its connection until it returns,
 * so it must never run on the shared command connection; each concurrent blocking read borrows one.
 */
export class BlockingPool {
  private readonly idle: Redis[] = [];
  private readonly all = new Set<Redis>();
  private closed = false;

  constructor(
    private readonly open: () => Promise<Redis>,
    private readonly maxIdle = 4,
  ) {}

  async acquire(): Promise<Redis> {
    for (let c = this.idle.pop(); c !== undefined; c = this.idle.pop()) {
      if (c.status === 'ready') return c;
      this.drop(c);
    }
    const c = await this.open();
    if (this.closed) {
      c.disconnect();
      throw new StreamsError('CLOSED', 'Redis streams bundle is closed');
    }
    this.all.add(c);
    return c;
  }

  release(c: Redis): void {
    if (this.closed || c.status !== 'ready' || this.idle.length >= this.maxIdle) this.drop(c);
    else this.idle.push(c);
  }

  private drop(c: Redis): void {
    // Disconnect once only: ioredis arms a 2 s destroy timer per disconnect() that only a later
    // 'close' event clears, so a second call on an already closed socket holds the process open.
    if (this.all.delete(c)) c.disconnect();
  }

  /** Disconnects at once: a blocked read in flight rejects, and its caller turns that into []. */
  close(): void {
    this.closed = true;
    for (const c of this.all) c.disconnect();
    this.all.clear();
    this.idle.length = 0;
  }
}
