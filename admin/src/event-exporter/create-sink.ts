// The sink of a stored exporter record, with its sealed secrets (webhook header values, kafka
// sasl_password) opened just before use.
import { parseDurationMs, type Exporter, type SecretBox } from '@palisade/core';
import { createCefSink } from './cef-sink.js';
import { createFileSink, type FileLocks } from './file-sink.js';
import { createKafkaSink } from './kafka-sink.js';
import type { Sink, SinkHooks } from './sink.js';
import { createSyslogSink } from './syslog-sink.js';
import { createWebhookSink } from './webhook-sink.js';

export interface SinkDeps {
  secrets: SecretBox;
  locks: FileLocks;
  hooks?: SinkHooks;
  /** Webhook backoff base (default 1 s). */
  webhookRetryBaseMs?: number;
  /** Webhook retries instead of config.max_retries (the test call uses 0). */
  webhookMaxRetries?: number;
}

export function createSink(exporter: Exporter, deps: SinkDeps): Sink {
  switch (exporter.type) {
    case 'syslog':
      return createSyslogSink(exporter.config);
    case 'cef':
      return createCefSink(exporter.config);
    case 'webhook': {
      const headers = Object.fromEntries(Object.entries(exporter.config.headers).map(([k, v]) => [k, deps.secrets.open(v)]));
      return createWebhookSink(exporter.config, {
        headers,
        ...(deps.hooks ? { hooks: deps.hooks } : {}),
        ...(deps.webhookRetryBaseMs === undefined ? {} : { retryBaseMs: deps.webhookRetryBaseMs }),
        ...(deps.webhookMaxRetries === undefined ? {} : { maxRetries: deps.webhookMaxRetries }),
      });
    }
    case 'kafka': {
      const password = exporter.config.sasl_password;
      return createKafkaSink(exporter.config, { saslPassword: password === undefined ? undefined : deps.secrets.open(password) });
    }
    case 'file':
      return createFileSink(exporter.config, { locks: deps.locks });
  }
}

/** How long events may wait to fill a chunk: kafka's flush_interval; the others send what a poll read. */
export function flushIntervalMs(exporter: Exporter): number {
  return exporter.type === 'kafka' ? parseDurationMs(exporter.config.flush_interval) : 0;
}
