// Snappy, LZ4 and zstd codecs for kafkajs, which ships gzip only. Written here because the codec
// packages for kafkajs (kafkajs-snappy, kafkajs-lz4, @kafkajs/zstd) wrap native modules; these wrap the
// pure-JS libraries instead. kafkajs keeps its codec table in a module-level object, so registering is
// a process-wide, idempotent act.
// The libraries ship no types: codec-modules.d.ts declares them (the test broker reads that copy too).
/// <reference path="./codec-modules.d.ts" />
import kafkajs from 'kafkajs';
import snappy from 'snappyjs';
import lz4 from 'lz4js';
import zstdCodec from 'zstd-codec';

const { CompressionCodecs, CompressionTypes } = kafkajs;

/** A kafkajs codec: compress receives the encoder of the record batch. */
export interface KafkaCodec {
  compress(encoder: { buffer: Buffer }): Promise<Buffer>;
  decompress(buffer: Buffer): Promise<Buffer>;
}

// snappy-java's SnappyOutputStream framing ("xerial"), which the Java client and librdkafka write and
// every Kafka client reads: magic, version 1, compatible version 1, then [int32 length][raw block]...
const XERIAL_MAGIC = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00]);
const XERIAL_HEADER = Buffer.concat([XERIAL_MAGIC, Buffer.from([0, 0, 0, 1, 0, 0, 0, 1])]);
const XERIAL_BLOCK = 32 * 1024;

const toBuffer = (bytes: Uint8Array | number[]): Buffer => (Array.isArray(bytes) ? Buffer.from(bytes) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

export function snappyXerialCompress(data: Buffer): Buffer {
  const parts: Buffer[] = [XERIAL_HEADER];
  for (let offset = 0; offset < data.length || offset === 0; offset += XERIAL_BLOCK) {
    const block = toBuffer(snappy.compress(new Uint8Array(data.subarray(offset, offset + XERIAL_BLOCK))));
    const length = Buffer.alloc(4);
    length.writeUInt32BE(block.length);
    parts.push(length, block);
    if (data.length === 0) break;
  }
  return Buffer.concat(parts);
}

/** Reads xerial-framed data and, as kafkajs-snappy does, a raw snappy block too. */
export function snappyDecompress(data: Buffer): Buffer {
  if (data.length < 16 || !data.subarray(0, 8).equals(XERIAL_MAGIC)) return toBuffer(snappy.uncompress(new Uint8Array(data)));
  const parts: Buffer[] = [];
  let offset = 16;
  while (offset < data.length) {
    const size = data.readUInt32BE(offset);
    offset += 4;
    parts.push(toBuffer(snappy.uncompress(new Uint8Array(data.subarray(offset, offset + size)))));
    offset += size;
  }
  return Buffer.concat(parts);
}

const snappyCodec: KafkaCodec = {
  compress: async ({ buffer }) => snappyXerialCompress(buffer),
  decompress: async (buffer) => snappyDecompress(buffer),
};

/** LZ4 frame format (Kafka's lz4 since KIP-57). */
const lz4Codec: KafkaCodec = {
  compress: async ({ buffer }) => toBuffer(lz4.compress(new Uint8Array(buffer))),
  decompress: async (buffer) => toBuffer(lz4.decompress(new Uint8Array(buffer))),
};

type ZstdSimple = InstanceType<Parameters<Parameters<typeof zstdCodec.ZstdCodec.run>[0]>[0]['Simple']>;

/** zstd through the wasm build of zstd-codec, which initialises asynchronously, once per codec. */
export function createZstdCodec(): KafkaCodec {
  let ready: Promise<ZstdSimple> | undefined;
  const simple = () => (ready ??= new Promise((resolve) => zstdCodec.ZstdCodec.run((binding) => resolve(new binding.Simple()))));
  return {
    async compress({ buffer }) {
      const out = (await simple()).compress(new Uint8Array(buffer), 3);
      if (!out) throw new Error('zstd compression failed');
      return toBuffer(out);
    },
    async decompress(buffer) {
      const out = (await simple()).decompress(new Uint8Array(buffer));
      if (!out) throw new Error('zstd decompression failed');
      return toBuffer(out);
    },
  };
}

export const SNAPPY_CODEC = snappyCodec;
export const LZ4_CODEC = lz4Codec;

/** Installs the codecs in kafkajs' table unless an earlier call did (the table is kafkajs' module state). */
export function registerKafkaCodecs(): void {
  const table = CompressionCodecs as unknown as Record<number, (() => KafkaCodec) & { palisade?: true }>;
  if (table[CompressionTypes.ZSTD]?.palisade) return;
  const zstdCodecForKafka = createZstdCodec();
  table[CompressionTypes.Snappy] = () => snappyCodec;
  table[CompressionTypes.LZ4] = () => lz4Codec;
  table[CompressionTypes.ZSTD] = Object.assign(() => zstdCodecForKafka, { palisade: true as const });
}
