// The contract between the consumer and a destination: a sink sends a chunk of events and resolves
// once the destination accepted all of them, or rejects with a DeliveryError saying whether waiting
// and trying again can help.
import type { SecurityEvent } from '@palisade/core';
import type { MappedEvent } from './mapping.js';

export interface ExportItem {
  event: SecurityEvent;
  /** The event after the exporter's field mapping. */
  mapped: MappedEvent;
}

export interface Sink {
  /** Most events per send(): 1 for one-request-per-event destinations. */
  readonly chunkSize: number;
  send(items: readonly ExportItem[]): Promise<void>;
  close(): Promise<void>;
}

/** Hooks through which a sink with its own retries (webhook) reports them to the metrics. */
export interface SinkHooks {
  onRetry?(reason: string): void;
}

/**
 * retryable: the destination is down or slow — the consumer keeps the events pending and tries again.
 * Not retryable: the destination refused them (webhook 4xx) or the sink's own retries are exhausted —
 * the events are dead-lettered.
 */
export class DeliveryError extends Error {
  readonly retryable: boolean;
  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DeliveryError';
    this.retryable = options.retryable;
  }
}

const TLS_CODES = /^(ERR_TLS|ERR_SSL|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO|CERT_|HOSTNAME_MISMATCH|ERR_OSSL)/;

/** A short cause an operator understands: "connection refused (host:port)", "TLS error: …". */
export function describeNetworkError(err: unknown, target: string): string {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : String(err);
  if (code === 'ECONNREFUSED') return `connection refused (${target})`;
  if (code === 'ETIMEDOUT' || code === 'ECONNTIMEOUT') return `connection timed out (${target})`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `host not found (${target})`;
  if (code === 'ECONNRESET' || code === 'EPIPE') return `connection reset (${target})`;
  if (TLS_CODES.test(code) || /certificate|ssl|tls/i.test(message)) return `TLS error: ${message}`;
  return `${message} (${target})`;
}
