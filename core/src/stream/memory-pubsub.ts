/**
 * In-process PubSub. Delivery is asynchronous (a microtask per handler), as with Redis, so a publisher
 * is never re-entered by its own subscribers, and a handler removed before delivery is not called.
 */
import { checkName } from './args.js';
import type { Lifecycle } from './lifecycle.js';
import { StreamsError, type StreamsErrorReporter, type PubSubHandler, type PubSub, type PubSubUnsubscribe } from './types.js';

/** One subscribe() call; the same function subscribed twice is two subscriptions. */
interface Subscription {
  handler: PubSubHandler;
}

export class MemoryPubSub implements PubSub {
  private readonly channels = new Map<string, Set<Subscription>>();

  constructor(
    private readonly life: Lifecycle,
    private readonly onError: StreamsErrorReporter,
  ) {}

  async publish(channel: string, message: string): Promise<void> {
    this.life.assertOpen();
    checkName('channel', channel);
    if (typeof message !== 'string') throw new StreamsError('INVALID', 'pub/sub messages are strings');
    const subs = this.channels.get(channel);
    if (subs === undefined) return;
    for (const sub of [...subs]) {
      queueMicrotask(() => {
        if (!subs.has(sub) || this.life.closed) return;
        try {
          sub.handler(message, channel);
        } catch (err) {
          this.onError(err instanceof Error ? err : new Error(String(err)), `pub/sub handler for "${channel}"`);
        }
      });
    }
  }

  async subscribe(channel: string, handler: PubSubHandler): Promise<PubSubUnsubscribe> {
    this.life.assertOpen();
    checkName('channel', channel);
    const sub: Subscription = { handler };
    let subs = this.channels.get(channel);
    if (subs === undefined) {
      subs = new Set();
      this.channels.set(channel, subs);
    }
    subs.add(sub);
    return async () => {
      const current = this.channels.get(channel);
      if (current === undefined) return;
      current.delete(sub);
      if (current.size === 0) this.channels.delete(channel);
    };
  }

  clear(): void {
    this.channels.clear();
  }
}
