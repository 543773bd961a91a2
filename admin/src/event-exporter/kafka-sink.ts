// Kafka destination through kafkajs: one produce request per chunk of up to batch_size events, the
// event's trace_id as the message key (a trace's events land in one partition, in order), the mapped
// event as JSON value, acks from all in-sync replicas.
import { readFile } from 'node:fs/promises';
import type { KafkaConfig } from '@palisade/core';
import kafkajs, { type Producer, type SASLOptions } from 'kafkajs';
import { registerKafkaCodecs } from './kafka-codecs.js';
import { DeliveryError, describeNetworkError, type ExportItem, type Sink } from './sink.js';

const { Kafka, CompressionTypes, logLevel } = kafkajs;

export const KAFKA_COMPRESSION = {
  none: CompressionTypes.None,
  gzip: CompressionTypes.GZIP,
  snappy: CompressionTypes.Snappy,
  lz4: CompressionTypes.LZ4,
  zstd: CompressionTypes.ZSTD,
} as const;

export interface KafkaSinkOptions {
  /** sasl_password in clear (the stored one is sealed; the caller opens it). */
  saslPassword?: string | undefined;
  clientId?: string;
  /** Connect / request timeouts in ms (default 10 s / 30 s). */
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
}

function sasl(config: KafkaConfig, password: string | undefined): SASLOptions | undefined {
  if (config.sasl_mechanism === 'none') return undefined;
  const mechanism = config.sasl_mechanism.toLowerCase() as 'plain' | 'scram-sha-256' | 'scram-sha-512';
  return { mechanism, username: config.sasl_username ?? '', password: password ?? '' } as SASLOptions;
}

/** The innermost error with a message an operator understands. */
function describeKafkaError(err: unknown, target: string): string {
  let e = err as { code?: unknown; cause?: unknown; originalError?: unknown; message?: string } | undefined;
  for (let depth = 0; e && depth < 6; depth++) {
    if (typeof e.code === 'string') return describeNetworkError(e, target);
    const inner = e.originalError ?? e.cause;
    if (!inner) break;
    e = inner as typeof e;
  }
  return `${(e?.message ?? String(err)).replace(/\s+/g, ' ')} (${target})`;
}

export function createKafkaSink(config: KafkaConfig, options: KafkaSinkOptions = {}): Sink {
  registerKafkaCodecs();
  const target = config.brokers.join(',');
  let producer: Producer | undefined;
  let connecting: Promise<Producer> | undefined;

  async function connect(): Promise<Producer> {
    const ssl = config.tls_enabled ? (config.tls_ca_file ? { ca: [await readFile(config.tls_ca_file, 'utf8')] } : true) : false;
    const saslOptions = sasl(config, options.saslPassword);
    const kafka = new Kafka({
      clientId: options.clientId ?? 'palisade-exporter',
      brokers: config.brokers,
      ssl,
      ...(saslOptions ? { sasl: saslOptions } : {}),
      connectionTimeout: options.connectionTimeoutMs ?? 10_000,
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      // The consumer retries with its own backoff and keeps the events pending; kafkajs' retries would
      // only hide an outage from the metrics.
      retry: { retries: 1, initialRetryTime: 300 },
      logLevel: logLevel.NOTHING,
    });
    const p = kafka.producer({ allowAutoTopicCreation: true, retry: { retries: 1, initialRetryTime: 300 } });
    await p.connect();
    return p;
  }

  async function drop(): Promise<void> {
    const p = producer;
    producer = undefined;
    connecting = undefined;
    await p?.disconnect().catch(() => undefined);
  }

  return {
    chunkSize: config.batch_size,
    async send(items: readonly ExportItem[]) {
      try {
        if (!producer) {
          connecting ??= connect();
          producer = await connecting;
        }
        await producer.send({
          topic: config.topic,
          acks: -1,
          compression: KAFKA_COMPRESSION[config.compression],
          messages: items.map((i) => ({
            key: i.event.trace_id,
            value: JSON.stringify(i.mapped),
            timestamp: String(Date.parse(i.event.timestamp)),
          })),
        });
      } catch (err) {
        await drop();
        // A broker that refuses the data itself (too large, invalid) will refuse it again: dead-letter.
        const e = err as { name?: string; retriable?: boolean; type?: string };
        const refused = e.name === 'KafkaJSProtocolError' && e.retriable === false && e.type !== 'TOPIC_AUTHORIZATION_FAILED';
        throw new DeliveryError(describeKafkaError(err, target), { retryable: !refused, cause: err });
      }
    },
    close: () => drop(),
  };
}
