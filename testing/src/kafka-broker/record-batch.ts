// RecordBatch v2 (magic 2) decoding, as produce v3+ carries it:
// baseOffset int64, batchLength int32, partitionLeaderEpoch int32, magic int8, crc uint32 (CRC-32C of
// everything after it), attributes int16, lastOffsetDelta int32, firstTimestamp int64, maxTimestamp int64,
// producerId int64, producerEpoch int16, baseSequence int32, recordCount int32, records (compressed as a
// whole when the codec bits are set). Each record: length varint, attributes int8, timestampDelta varlong,
// offsetDelta varint, key varint-bytes, value varint-bytes, headers [varint-string key, varint-bytes value].
import { crc32c } from './crc32c.js';
import { COMPRESSION_BY_ID, type CompressionName, type Decompressor } from './compression.js';
import { ERROR_CODES } from './error-codes.js';
import { WireReader } from './wire.js';

export interface DecodedRecord {
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, Buffer>;
  timestamp: number;
}

export interface DecodedBatch {
  compression: CompressionName;
  producerId: bigint;
  producerEpoch: number;
  baseSequence: number;
  records: DecodedRecord[];
}

/** A batch the broker refuses; the partition's response carries `code`. */
export class BatchRejectedError extends Error {
  override readonly name = 'BatchRejectedError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const MAGIC_V2 = 2;
const CODEC_MASK = 0x07;
const LOG_APPEND_TIME_FLAG = 0x08;
// partitionLeaderEpoch + magic + crc: the bytes between batchLength and the CRC-covered part.
const BEFORE_CRC_BODY = 4 + 1 + 4;

/**
 * Decodes the record set of one partition in a produce request. Produce v3+ must carry exactly one
 * batch of magic 2, as a Kafka broker insists.
 */
export async function decodeRecordSet(recordSet: Buffer, decompressor: Decompressor, produceVersion: number): Promise<DecodedBatch> {
  const reader = new WireReader(recordSet);
  if (reader.remaining < 8 + 4 + BEFORE_CRC_BODY) throw new BatchRejectedError(ERROR_CODES.CORRUPT_MESSAGE, 'record set shorter than a batch header');
  reader.int64(); // baseOffset: the client writes 0; the broker assigns offsets.
  const batchLength = reader.int32();
  if (batchLength !== reader.remaining) {
    throw new BatchRejectedError(ERROR_CODES.INVALID_RECORD, `batch length ${batchLength} does not match the ${reader.remaining} bytes sent (exactly one batch per partition)`);
  }
  reader.int32(); // partitionLeaderEpoch
  const magic = reader.int8();
  if (magic !== MAGIC_V2) throw new BatchRejectedError(ERROR_CODES.INVALID_RECORD, `record batch magic ${magic}; produce v3+ needs magic 2`);
  const expectedCrc = reader.uint32();
  const body = reader.rest();
  const actualCrc = crc32c(body);
  if (actualCrc !== expectedCrc) {
    throw new BatchRejectedError(ERROR_CODES.CORRUPT_MESSAGE, `CRC-32C mismatch: batch says ${expectedCrc}, content is ${actualCrc}`);
  }

  const header = new WireReader(body);
  const attributes = header.int16();
  header.int32(); // lastOffsetDelta
  const firstTimestamp = header.int64();
  const maxTimestamp = header.int64();
  const producerId = header.int64();
  const producerEpoch = header.int16();
  const baseSequence = header.int32();
  const recordCount = header.int32();
  if (recordCount < 0) throw new BatchRejectedError(ERROR_CODES.CORRUPT_MESSAGE, `negative record count ${recordCount}`);

  const compression = COMPRESSION_BY_ID[attributes & CODEC_MASK];
  if (!compression) throw new BatchRejectedError(ERROR_CODES.CORRUPT_MESSAGE, `unknown compression codec ${attributes & CODEC_MASK}`);
  // zstd needs produce v7 (KIP-110); older requests cannot carry it.
  if (compression === 'zstd' && produceVersion < 7) {
    throw new BatchRejectedError(ERROR_CODES.UNSUPPORTED_COMPRESSION_TYPE, `zstd needs produce v7, request is v${produceVersion}`);
  }

  let payload: Buffer;
  try {
    payload = await decompressor.decompress(compression, header.rest());
  } catch (error) {
    throw new BatchRejectedError(ERROR_CODES.CORRUPT_MESSAGE, `${compression} decompression failed: ${(error as Error).message}`);
  }

  const logAppendTime = (attributes & LOG_APPEND_TIME_FLAG) !== 0;
  const records: DecodedRecord[] = [];
  const recordsReader = new WireReader(payload);
  try {
    for (let index = 0; index < recordCount; index += 1) {
      const record = decodeRecord(recordsReader, firstTimestamp);
      if (logAppendTime) record.timestamp = Number(maxTimestamp);
      records.push(record);
    }
  } catch (error) {
    throw new BatchRejectedError(ERROR_CODES.CORRUPT_MESSAGE, `record ${records.length} of ${recordCount}: ${(error as Error).message}`);
  }
  if (recordsReader.remaining !== 0) {
    throw new BatchRejectedError(ERROR_CODES.CORRUPT_MESSAGE, `${recordsReader.remaining} bytes after the last of ${recordCount} records`);
  }
  return { compression, producerId, producerEpoch, baseSequence, records };
}

function decodeRecord(reader: WireReader, firstTimestamp: bigint): DecodedRecord {
  const length = reader.varint();
  if (length < 0) throw new Error(`negative record length ${length}`);
  const record = new WireReader(reader.raw(length));
  record.int8(); // attributes: unused by Kafka so far
  const timestampDelta = record.varlong();
  record.varint(); // offsetDelta: the broker assigns consecutive offsets itself
  const key = record.varintBytes();
  const value = record.varintBytes();
  const headerCount = record.varint();
  if (headerCount < 0) throw new Error(`negative header count ${headerCount}`);
  const headers: Record<string, Buffer> = {};
  for (let index = 0; index < headerCount; index += 1) {
    const headerKey = record.varintBytes();
    if (headerKey === null) throw new Error('null header key');
    // A null header value is legal on the wire; the record model keeps it as an empty buffer.
    headers[headerKey.toString('utf8')] = record.varintBytes() ?? Buffer.alloc(0);
  }
  if (record.remaining !== 0) throw new Error(`${record.remaining} bytes left inside the record`);
  return { key, value, headers, timestamp: Number(firstTimestamp + timestampDelta) };
}
