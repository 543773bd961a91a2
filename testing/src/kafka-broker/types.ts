import type { CompressionName } from './compression.js';
import type { SaslCredentials } from './sasl.js';

export interface KafkaBrokerOptions {
  /** Address to listen on and to advertise in Metadata; default 127.0.0.1. */
  host?: string;
  /** 0 (the default) picks a free port; start() after stop() reuses the one picked. */
  port?: number;
  /** When set, every client must authenticate with this mechanism and these credentials. */
  sasl?: SaslCredentials;
  /** PEM key and certificate: the listener speaks TLS. */
  tls?: { key: string; cert: string };
  /** Where protocol problems are reported (a closed connection, a refused batch); default stderr. */
  log?: (message: string) => void;
}

export interface KafkaTestRecord {
  topic: string;
  partition: number;
  offset: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, Buffer>;
  timestamp: number;
  compression: CompressionName;
}

export interface KafkaRequestSeen {
  api: string;
  version: number;
  clientId: string | null;
}

export interface KafkaTestBroker {
  /** ['host:port'], ready for kafkajs's `brokers` option. */
  readonly brokers: string[];
  readonly port: number;
  /** The records appended to the topic so far, in offset order. */
  records(topic: string): KafkaTestRecord[];
  /** Resolves with the topic's records once there are at least `count` (default timeout 10 s). */
  waitForRecords(topic: string, count: number, timeoutMs?: number): Promise<KafkaTestRecord[]>;
  /** Closes the listener and every connection but keeps the records: a broker outage. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
  /** Requests seen, by API name, for assertions (e.g. that SASL happened). */
  readonly requests: KafkaRequestSeen[];
}
