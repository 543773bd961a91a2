// Decompression of RecordBatch v2 payloads, by the codec in the batch attributes' low three bits.
/// <reference path="../../../admin/src/event-exporter/codec-modules.d.ts" />
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import snappy from 'snappyjs';
import lz4 from 'lz4js';
import zstdCodec, { type ZstdStreaming } from 'zstd-codec';

export type CompressionName = 'none' | 'gzip' | 'snappy' | 'lz4' | 'zstd';

/** Codec ids as Kafka numbers them in the batch attributes. */
export const COMPRESSION_BY_ID: Readonly<Record<number, CompressionName>> = { 0: 'none', 1: 'gzip', 2: 'snappy', 3: 'lz4', 4: 'zstd' };

/** Guards the test process against a decompression bomb. */
const MAX_DECOMPRESSED_BYTES = 64 * 1024 * 1024;

// snappy-java's SnappyOutputStream framing ("xerial"): magic, int32 version, int32 compatible version,
// then [int32 length][raw snappy block]... The Java client and librdkafka write it; kafkajs-snappy writes
// a bare raw block. Kafka brokers read both, so this does too.
const XERIAL_MAGIC = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00]);
const XERIAL_HEADER_LENGTH = 16;

const gunzipAsync = promisify(gunzip);

const toBuffer = (bytes: Uint8Array | number[]): Buffer =>
  Array.isArray(bytes) ? Buffer.from(bytes) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function snappyBlock(block: Buffer): Buffer {
  return toBuffer(snappy.uncompress(new Uint8Array(block), MAX_DECOMPRESSED_BYTES));
}

export function snappyDecompress(data: Buffer): Buffer {
  if (data.length < XERIAL_HEADER_LENGTH || !data.subarray(0, XERIAL_MAGIC.length).equals(XERIAL_MAGIC)) return snappyBlock(data);
  const blocks: Buffer[] = [];
  let total = 0;
  let offset = XERIAL_HEADER_LENGTH;
  while (offset < data.length) {
    if (offset + 4 > data.length) throw new Error('xerial snappy: truncated block length');
    const size = data.readUInt32BE(offset);
    offset += 4;
    if (offset + size > data.length) throw new Error('xerial snappy: truncated block');
    const block = snappyBlock(data.subarray(offset, offset + size));
    total += block.length;
    if (total > MAX_DECOMPRESSED_BYTES) throw new Error('xerial snappy: decompressed size over the limit');
    blocks.push(block);
    offset += size;
  }
  return Buffer.concat(blocks);
}

export interface Decompressor {
  decompress(codec: CompressionName, data: Buffer): Promise<Buffer>;
}

/** zstd-codec initialises its wasm module asynchronously; each decompressor does it once, on first use. */
export function createDecompressor(): Decompressor {
  let zstdReady: Promise<ZstdStreaming> | undefined;
  const zstd = (): Promise<ZstdStreaming> => {
    zstdReady ??= new Promise((resolve) => zstdCodec.ZstdCodec.run((binding) => resolve(new binding.Streaming())));
    return zstdReady;
  };

  return {
    async decompress(codec, data) {
      switch (codec) {
        case 'none':
          return data;
        case 'gzip':
          return gunzipAsync(data, { maxOutputLength: MAX_DECOMPRESSED_BYTES });
        case 'snappy':
          return snappyDecompress(data);
        case 'lz4':
          // LZ4 frame format (KIP-57); lz4js sizes its output from the frame's blocks.
          return toBuffer(lz4.decompress(new Uint8Array(data)));
        case 'zstd': {
          // Streaming, not Simple: zstd-jni (the Java client) writes frames without a content size.
          const out = (await zstd()).decompress(new Uint8Array(data));
          if (!out) throw new Error('zstd: invalid frame');
          if (out.length > MAX_DECOMPRESSED_BYTES) throw new Error('zstd: decompressed size over the limit');
          return toBuffer(out);
        }
      }
    },
  };
}
