// The journal's on-disk framing. A segment file starts with an 8-byte magic (format version); each
// record is [u32 LE payload length][u32 LE CRC-32 of the payload][payload]. A record cut short by a
// crash, or one whose checksum does not match, ends the readable part of its segment: the length says
// where the record should end, the checksum says whether what is there is what was written.
import { crc32 } from 'node:zlib';

export const SEGMENT_MAGIC = Buffer.from('PLSPILL1', 'latin1');
export const RECORD_HEADER_BYTES = 8;
/** A security event is a few KiB at most (its strings are cut to the record's limits); anything longer is damage. */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;

export function frameRecord(payload: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(RECORD_HEADER_BYTES + payload.length);
  frame.writeUInt32LE(payload.length, 0);
  frame.writeUInt32LE(crc32(payload), 4);
  payload.copy(frame, RECORD_HEADER_BYTES);
  return frame;
}

export type ParseStep =
  /** A whole, intact record: its payload and the offset just after it. */
  | { kind: 'record'; payload: Buffer; next: number }
  /** The buffer ends inside the record (read more, or, at the end of the file, a torn tail). */
  | { kind: 'incomplete'; needed: number }
  /** A length beyond any record, or a checksum mismatch: nothing from here on can be trusted. */
  | { kind: 'corrupt'; reason: string };

/** Parses the record starting at `offset` of `chunk`. */
export function parseRecord(chunk: Buffer, offset: number): ParseStep {
  if (chunk.length - offset < RECORD_HEADER_BYTES) return { kind: 'incomplete', needed: RECORD_HEADER_BYTES };
  const length = chunk.readUInt32LE(offset);
  if (length > MAX_RECORD_BYTES) return { kind: 'corrupt', reason: `record length ${length} exceeds ${MAX_RECORD_BYTES}` };
  const end = offset + RECORD_HEADER_BYTES + length;
  if (end > chunk.length) return { kind: 'incomplete', needed: RECORD_HEADER_BYTES + length };
  const payload = chunk.subarray(offset + RECORD_HEADER_BYTES, end);
  if (crc32(payload) !== chunk.readUInt32LE(offset + 4)) return { kind: 'corrupt', reason: 'checksum mismatch' };
  return { kind: 'record', payload, next: end };
}
