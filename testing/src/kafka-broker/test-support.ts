// Helpers for the broker's own tests: kafkajs clients with small retry settings, and client-side codecs
// for the compressions kafkajs does not ship (built on the same libraries the broker decompresses with,
// in each of the framings real clients write).
import kafkajs, { type Producer, type ProducerConfig } from 'kafkajs';
import snappy from 'snappyjs';
import lz4 from 'lz4js';
import zstdCodec, { type ZstdBinding } from 'zstd-codec';
import type { KafkaTestBroker } from './types.js';

const { Kafka, CompressionCodecs, CompressionTypes, logLevel } = kafkajs;

export { CompressionTypes };

interface KafkaCodec {
  compress(encoder: { buffer: Buffer }): Promise<Buffer>;
  decompress(buffer: Buffer): Promise<Buffer>;
}

const toBuffer = (bytes: Uint8Array | number[]): Buffer =>
  Array.isArray(bytes) ? Buffer.from(bytes) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

const notForDecompression = async (): Promise<Buffer> => {
  throw new Error('the broker tests only produce');
};

/** kafkajs-snappy writes a bare raw snappy block. */
export const snappyRawCodec: KafkaCodec = {
  compress: async ({ buffer }) => toBuffer(snappy.compress(new Uint8Array(buffer))),
  decompress: notForDecompression,
};

/** The Java client writes snappy-java's xerial framing; small blocks so a batch spans several. */
export const snappyXerialCodec: KafkaCodec = {
  async compress({ buffer }) {
    const header = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00, 0, 0, 0, 1, 0, 0, 0, 1]);
    const parts: Buffer[] = [header];
    for (let offset = 0; offset < buffer.length; offset += 64) {
      const block = toBuffer(snappy.compress(new Uint8Array(buffer.subarray(offset, offset + 64))));
      const length = Buffer.alloc(4);
      length.writeUInt32BE(block.length);
      parts.push(length, block);
    }
    return Buffer.concat(parts);
  },
  decompress: notForDecompression,
};

export const lz4Codec: KafkaCodec = {
  compress: async ({ buffer }) => toBuffer(lz4.compress(new Uint8Array(buffer))),
  decompress: notForDecompression,
};

export function zstdCodecs(): { withContentSize: KafkaCodec; streamed: KafkaCodec } {
  const ready = new Promise<ZstdBinding>((resolve) => zstdCodec.ZstdCodec.run(resolve));
  const compressed = (out: Uint8Array | null): Buffer => {
    if (!out) throw new Error('zstd compression failed');
    return toBuffer(out);
  };
  return {
    // What the exporter's codec writes (zstd-codec Simple records the content size in the frame).
    withContentSize: { compress: async ({ buffer }) => compressed(new (await ready).Simple().compress(new Uint8Array(buffer), 3)), decompress: notForDecompression },
    // What zstd-jni's stream (the Java client) writes: no content size in the frame header.
    streamed: { compress: async ({ buffer }) => compressed(new (await ready).Streaming().compress(new Uint8Array(buffer), 3)), decompress: notForDecompression },
  };
}

/** kafkajs keeps its codec table in a module-level object: this replaces one entry for this process. */
export function useCodec(type: number, codec: KafkaCodec): void {
  (CompressionCodecs as unknown as Record<number, () => KafkaCodec>)[type] = () => codec;
}

export interface ClientOptions {
  clientId?: string;
  ssl?: { ca: string[]; servername?: string } | boolean;
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
  retries?: number;
}

/** A connected kafkajs producer with small, fast retry settings. */
export async function connectProducer(broker: KafkaTestBroker, options: ClientOptions = {}, producerConfig: ProducerConfig = {}): Promise<Producer> {
  const kafka = new Kafka({
    clientId: options.clientId ?? 'kafka-broker-test',
    brokers: broker.brokers,
    ssl: options.ssl,
    sasl: options.sasl as never,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 3000,
    requestTimeout: 10_000,
    retry: { retries: options.retries ?? 2, initialRetryTime: 50, maxRetryTime: 500 },
  });
  const producer = kafka.producer({ allowAutoTopicCreation: true, ...producerConfig });
  await producer.connect();
  return producer;
}
