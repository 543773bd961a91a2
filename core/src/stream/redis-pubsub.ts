/**
 * Redis PubSub. A connection in subscriber mode can run nothing else, so subscriptions live on a
 * dedicated connection, opened on the first subscribe (components that only publish never open it).
 * ioredis re-subscribes by itself after a reconnect.
 *
 * SUBSCRIBE/UNSUBSCRIBE are issued one at a time through a queue, each deciding from the current
 * handler set what the server should have, so a subscribe racing an unsubscribe of the same channel
 * always ends with the server state matching the handlers.
 */
import type { Redis } from 'ioredis';
import { checkName } from './args.js';
import type { Lifecycle } from './lifecycle.js';
import { StreamsError, type StreamsErrorReporter, type PubSubHandler, type PubSub, type PubSubUnsubscribe } from './types.js';

interface Subscription {
  handler: PubSubHandler;
}

export class RedisPubSub implements PubSub {
  private readonly handlers = new Map<string, Set<Subscription>>();
  /** Channels (unprefixed) the subscriber connection is subscribed to on the server. */
  private readonly active = new Set<string>();
  private queue: Promise<void> = Promise.resolve();
  private subscriber: Promise<Redis> | undefined;

  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
    private readonly life: Lifecycle,
    private readonly openSubscriber: () => Promise<Redis>,
    private readonly onError: StreamsErrorReporter,
  ) {}

  async publish(channel: string, message: string): Promise<void> {
    this.life.assertOpen();
    checkName('channel', channel);
    if (typeof message !== 'string') throw new StreamsError('INVALID', 'pub/sub messages are strings');
    await this.client.publish(this.prefix + channel, message);
  }

  async subscribe(channel: string, handler: PubSubHandler): Promise<PubSubUnsubscribe> {
    this.life.assertOpen();
    checkName('channel', channel);
    const sub: Subscription = { handler };
    let subs = this.handlers.get(channel);
    if (subs === undefined) {
      subs = new Set();
      this.handlers.set(channel, subs);
    }
    subs.add(sub);
    try {
      await this.reconcile(channel);
    } catch (err) {
      this.remove(channel, sub);
      throw err;
    }
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      this.remove(channel, sub);
      if (!this.life.closed) await this.reconcile(channel);
    };
  }

  private remove(channel: string, sub: Subscription): void {
    const subs = this.handlers.get(channel);
    subs?.delete(sub);
    if (subs?.size === 0) this.handlers.delete(channel);
  }

  private connection(): Promise<Redis> {
    if (this.subscriber === undefined) {
      const opening = this.openSubscriber().then((conn) => {
        conn.on('message', (fullChannel: string, message: string) => this.dispatch(fullChannel, message));
        return conn;
      });
      this.subscriber = opening;
      opening.catch(() => {
        if (this.subscriber === opening) this.subscriber = undefined; // let the next subscribe retry
      });
    }
    return this.subscriber;
  }

  private reconcile(channel: string): Promise<void> {
    const run = async (): Promise<void> => {
      this.life.assertOpen();
      const want = (this.handlers.get(channel)?.size ?? 0) > 0;
      const have = this.active.has(channel);
      if (want === have) return;
      const conn = await this.connection();
      if (want) {
        await conn.subscribe(this.prefix + channel);
        this.active.add(channel);
      } else {
        await conn.unsubscribe(this.prefix + channel);
        this.active.delete(channel);
      }
    };
    const result = this.queue.then(run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private dispatch(fullChannel: string, message: string): void {
    if (!fullChannel.startsWith(this.prefix) || this.life.closed) return;
    const channel = fullChannel.slice(this.prefix.length);
    const subs = this.handlers.get(channel);
    if (subs === undefined) return;
    for (const sub of [...subs]) {
      if (!subs.has(sub)) continue; // removed by an earlier handler of this message
      try {
        sub.handler(message, channel);
      } catch (err) {
        this.onError(err instanceof Error ? err : new Error(String(err)), `pub/sub handler for "${channel}"`);
      }
    }
  }

  /** The subscriber connection, if one was opened, for close() to release. */
  async takeSubscriber(): Promise<Redis | undefined> {
    const s = this.subscriber;
    this.subscriber = undefined;
    this.handlers.clear();
    this.active.clear();
    return s?.catch(() => undefined);
  }
}
