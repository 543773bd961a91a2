// Webhook destination: one request per event, or a JSON array per request in batch mode. 5xx answers
// and timeouts are retried max_retries times with backoff 1 s, 2 s, 4 s…, then the events are
// dead-lettered; a 4xx is not retried (the receiver refused them). A receiver that cannot be reached at
// all (connection refused, host not found) is "down": the events stay pending and are retried until it
// is back, as for every other exporter type.
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay, type WebhookConfig } from '@palisade/core';
import { DeliveryError, describeNetworkError, type ExportItem, type Sink, type SinkHooks } from './sink.js';

export interface WebhookSinkOptions {
  /** Header values in clear (the stored ones are sealed; the caller opens them). */
  headers: Record<string, string>;
  /** First backoff delay (default 1000 ms; tests shorten it), doubled after each retry. */
  retryBaseMs?: number;
  /** Retries on 5xx / timeout; default config.max_retries (the test call sends with 0). */
  maxRetries?: number;
  hooks?: SinkHooks;
  userAgent?: string;
}

/** Errors of fetch() that mean nothing answered at the address. */
function isUnreachable(err: unknown): boolean {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 5; depth++, e = e.cause as typeof e) {
    if (typeof e.code === 'string' && ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].includes(e.code)) return true;
  }
  return false;
}

function rootCause(err: unknown): unknown {
  let e = err as { cause?: unknown } | undefined;
  while (e && typeof e === 'object' && e.cause !== undefined) e = e.cause as typeof e;
  return e ?? err;
}

export function createWebhookSink(config: WebhookConfig, options: WebhookSinkOptions): Sink {
  const retryBaseMs = options.retryBaseMs ?? 1_000;
  const maxRetries = options.maxRetries ?? config.max_retries;
  const url = new URL(config.url);
  const target = url.host;
  const headers = { 'content-type': 'application/json', 'user-agent': options.userAgent ?? 'palisade-exporter', ...options.headers };
  const inFlight = new Set<AbortController>();
  const lifetime = new AbortController();

  /** One request: resolves on 2xx/3xx; throws DeliveryError with retryable meaning "worth another attempt". */
  async function attempt(body: string): Promise<void> {
    const controller = new AbortController();
    inFlight.add(controller);
    const timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), config.timeout_sec * 1000);
    try {
      const response = await fetch(url, { method: config.method, headers, body, signal: controller.signal, redirect: 'manual' });
      await response.body?.cancel().catch(() => undefined); // the answer's body is not used; free the connection
      if (response.status >= 500) throw new DeliveryError(`HTTP ${response.status}`, { retryable: true });
      if (response.status >= 400) throw new DeliveryError(`HTTP ${response.status}`, { retryable: false });
    } catch (err) {
      if (err instanceof DeliveryError) throw err;
      if (controller.signal.aborted) throw new DeliveryError(`timeout after ${config.timeout_sec} s (${target})`, { retryable: true, cause: err });
      throw Object.assign(new DeliveryError(describeNetworkError(rootCause(err), target), { retryable: true, cause: err }), { unreachable: isUnreachable(err) });
    } finally {
      clearTimeout(timer);
      inFlight.delete(controller);
    }
  }

  async function deliver(body: string): Promise<void> {
    for (let retry = 0; ; retry++) {
      try {
        return await attempt(body);
      } catch (err) {
        const e = err as DeliveryError & { unreachable?: boolean };
        // Down: pending until it is back (the consumer's own backoff), no dead letter.
        if (e.unreachable) throw e;
        if (!e.retryable) throw e;
        if (retry >= maxRetries) {
          throw new DeliveryError(maxRetries === 0 ? e.message : `${e.message} after ${maxRetries} retries`, { retryable: false, cause: e });
        }
        options.hooks?.onRetry?.(e.message);
        try {
          await sleep(backoffDelay(retry, { initialMs: retryBaseMs }), undefined, { signal: lifetime.signal });
        } catch {
          // closed while waiting (reconfiguration, shutdown): the events stay pending, nothing is lost
          throw new DeliveryError(`sink closed while retrying after ${e.message}`, { retryable: true });
        }
      }
    }
  }

  return {
    chunkSize: config.batch_mode ? 100 : 1,
    async send(items: readonly ExportItem[]) {
      if (config.batch_mode) return deliver(JSON.stringify(items.map((i) => i.mapped)));
      for (const item of items) await deliver(JSON.stringify(item.mapped));
    },
    async close() {
      lifetime.abort();
      for (const c of inFlight) c.abort();
    },
  };
}
