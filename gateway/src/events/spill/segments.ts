// The journal's segment files: numbered `<seq>.seg`, oldest first, and the bytes they take together.
// Opening a directory finds them and cuts a torn record off the newest (the gateway stopped while
// writing it); the writer adds segments at the end, commits delete them from the front.
import { closeSync, ftruncateSync, openSync, readdirSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseRecord, SEGMENT_MAGIC } from './records.js';

export interface Segment {
  seq: number;
  path: string;
  size: number;
}

export interface SegmentLogger {
  warn(obj: object, msg: string): void;
}

export interface SegmentFiles {
  /** Oldest first; records are appended to the last. */
  readonly list: readonly Segment[];
  /** Bytes of every segment file. */
  readonly bytes: number;
  /** Creates the next segment file with its header; it is open for appending on `fd`. */
  create(): { segment: Segment; fd: number };
  /** Counts `n` bytes appended to a segment. */
  grew(segment: Segment, n: number): void;
  /** Deletes the oldest segment file. */
  deleteOldest(): void;
  deleteAll(): void;
}

const SEGMENT_NAME = /^(\d{16})\.seg$/;
const READ_CHUNK_BYTES = 1024 * 1024;

function segmentPath(dir: string, seq: number): string {
  return join(dir, `${String(seq).padStart(16, '0')}.seg`);
}

/** The offset after the last intact record of a segment file (reading it whole, chunk by chunk). */
function validEnd(path: string, size: number): { end: number; problem?: string } {
  const fd = openSync(path, 'r');
  try {
    const magic = Buffer.alloc(SEGMENT_MAGIC.length);
    if (readSync(fd, magic, 0, magic.length, 0) < magic.length || !magic.equals(SEGMENT_MAGIC)) return { end: 0, problem: 'no segment header' };
    let offset = SEGMENT_MAGIC.length;
    let chunk = Buffer.alloc(0);
    let chunkStart = offset;
    for (;;) {
      const step = parseRecord(chunk, offset - chunkStart);
      if (step.kind === 'record') {
        offset = chunkStart + step.next;
        continue;
      }
      if (step.kind === 'corrupt') return { end: offset, problem: step.reason };
      if (offset + step.needed > size) return offset === size ? { end: offset } : { end: offset, problem: 'record cut short' };
      chunk = Buffer.alloc(Math.max(READ_CHUNK_BYTES, step.needed));
      chunkStart = offset;
      chunk = chunk.subarray(0, readSync(fd, chunk, 0, chunk.length, offset));
      if (chunk.length < step.needed) return { end: offset, problem: 'record cut short' };
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Only the newest segment can end in a torn record (older ones were synced and closed); cut it there
 * so that appends continue after the last intact record. Returns whether a record was cut off.
 */
function cutTornTail(segments: Segment[], logger: SegmentLogger | undefined): boolean {
  const last = segments[segments.length - 1];
  if (!last) return false;
  const { end, problem } = validEnd(last.path, last.size);
  if (problem === undefined) return false;
  logger?.warn({ segment: last.path, offset: end, discarded_bytes: last.size - end, problem }, 'event spill: skipped a torn record at the end of the journal (the gateway stopped while writing it)');
  if (end === 0) {
    rmSync(last.path, { force: true });
    segments.pop();
  } else {
    const fd = openSync(last.path, 'r+');
    ftruncateSync(fd, end);
    closeSync(fd);
    last.size = end;
  }
  return true;
}

/** The segment files of `dir` (which exists); `torn` says whether a torn record was cut off the newest. */
export function openSegmentFiles(dir: string, logger: SegmentLogger | undefined): { files: SegmentFiles; torn: boolean } {
  const segments: Segment[] = readdirSync(dir)
    .map((name) => SEGMENT_NAME.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ seq: Number(m[1]), path: join(dir, m[0]), size: 0 }))
    .sort((a, b) => a.seq - b.seq);
  for (const s of segments) s.size = statSync(s.path).size;
  const torn = cutTornTail(segments, logger);
  let nextSeq = (segments[segments.length - 1]?.seq ?? 0) + 1;
  let bytes = segments.reduce((sum, s) => sum + s.size, 0);

  const files: SegmentFiles = {
    list: segments,
    get bytes() {
      return bytes;
    },
    create() {
      const seq = nextSeq++;
      const segment: Segment = { seq, path: segmentPath(dir, seq), size: SEGMENT_MAGIC.length };
      const fd = openSync(segment.path, 'wx');
      writeSync(fd, SEGMENT_MAGIC);
      segments.push(segment);
      bytes += segment.size;
      return { segment, fd };
    },
    grew(segment, n) {
      segment.size += n;
      bytes += n;
    },
    deleteOldest() {
      const segment = segments.shift() as Segment;
      rmSync(segment.path, { force: true });
      bytes -= segment.size;
    },
    deleteAll() {
      for (const segment of segments.splice(0)) rmSync(segment.path, { force: true });
      bytes = 0;
    },
  };
  return { files, torn };
}
