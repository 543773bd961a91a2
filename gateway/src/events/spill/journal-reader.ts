// The journal's read side: a read position that moves as records are read, and a committed one that
// moves up to it once they were delivered (rewind goes back to it). Segments wholly behind the
// committed position are deleted. Damage inside a closed segment ends what can be read of it: the
// rest of that segment is skipped, counted and said.
import { closeSync, openSync, readSync } from 'node:fs';
import { parseRecord, SEGMENT_MAGIC } from './records.js';
import type { Segment, SegmentFiles } from './segments.js';

export interface JournalReaderOptions {
  logger?: { error(obj: object, msg: string): void } | undefined;
  /** Counts each unreadable stretch skipped. */
  onTorn(): void;
}

export interface JournalReader {
  /** Up to `max` records after the read position, which moves past them. */
  read(max: number): Buffer[];
  /** Everything read so far was delivered; true when nothing is left at all (the caller deletes the files, then calls restart). */
  commit(): boolean;
  rewind(): void;
  /** Both positions back to the start of the (new) first segment. */
  restart(): void;
  readonly readable: boolean;
  readonly drained: boolean;
  /** Closes the segment file being read. */
  close(): void;
}

interface Position {
  /** Index into the segment files. */
  seg: number;
  offset: number;
}

const READ_CHUNK_BYTES = 1024 * 1024;
const START: Position = { seg: 0, offset: SEGMENT_MAGIC.length };

export function createJournalReader(files: SegmentFiles, options: JournalReaderOptions): JournalReader {
  const { logger } = options;
  const segments = files.list;
  let read: Position = { ...START };
  let committed: Position = { ...read };
  let readFd: { seg: Segment; fd: number } | undefined;

  function close(): void {
    if (readFd) closeSync(readFd.fd);
    readFd = undefined;
  }

  /** Deletes the segments before the committed one (all delivered). */
  function dropDelivered(): void {
    while (committed.seg > 0) {
      if (readFd?.seg === segments[0]) close();
      files.deleteOldest();
      committed = { seg: committed.seg - 1, offset: committed.offset };
      read = { seg: read.seg - 1, offset: read.offset };
    }
  }

  function atEnd(p: Position): boolean {
    const seg = segments[p.seg];
    return seg === undefined || (p.seg === segments.length - 1 && p.offset >= seg.size);
  }

  /** Moves a position at the end of a finished segment to the start of the next one. */
  function normalize(p: Position): Position {
    while (p.seg < segments.length - 1 && p.offset >= (segments[p.seg] as Segment).size) p = { seg: p.seg + 1, offset: SEGMENT_MAGIC.length };
    return p;
  }

  function readChunk(seg: Segment, offset: number, length: number): Buffer {
    if (readFd?.seg !== seg) {
      close();
      readFd = { seg, fd: openSync(seg.path, 'r') };
    }
    const buf = Buffer.allocUnsafe(Math.min(length, seg.size - offset));
    return buf.subarray(0, readSync(readFd.fd, buf, 0, buf.length, offset));
  }

  /** Reads records of one segment from the read position into `out` (up to `max` in all); moves the position past them. */
  function readSegment(out: Buffer[], max: number): void {
    const seg = segments[read.seg] as Segment;
    let chunk = readChunk(seg, read.offset, READ_CHUNK_BYTES);
    let at = 0;
    for (;;) {
      if (out.length >= max) break;
      let step = parseRecord(chunk, at);
      if (step.kind === 'incomplete' && at === 0 && step.needed > chunk.length && read.offset + step.needed <= seg.size) {
        chunk = readChunk(seg, read.offset, step.needed); // a record longer than a chunk
        step = parseRecord(chunk, 0);
      }
      if (step.kind === 'record') {
        out.push(Buffer.from(step.payload));
        at = step.next;
        continue;
      }
      if (step.kind === 'corrupt' || (read.offset + at < seg.size && read.offset + at + step.needed > seg.size)) {
        // Damage inside a closed segment: what follows in it cannot be framed again.
        options.onTorn();
        logger?.error({ segment: seg.path, offset: read.offset + at, skipped_bytes: seg.size - read.offset - at, problem: step.kind === 'corrupt' ? step.reason : 'record cut short' }, 'event spill: unreadable records skipped');
        at = seg.size - read.offset;
      }
      break;
    }
    read = { seg: read.seg, offset: read.offset + at };
  }

  return {
    read(max) {
      const out: Buffer[] = [];
      while (out.length < max) {
        read = normalize(read);
        if (atEnd(read)) break;
        readSegment(out, max);
      }
      return out;
    },
    commit() {
      committed = normalize(read);
      dropDelivered();
      return atEnd(committed) && segments.length > 0;
    },
    rewind() {
      read = { ...committed };
    },
    restart() {
      read = committed = { ...START };
    },
    get readable() {
      return !atEnd(normalize(read));
    },
    get drained() {
      return atEnd(normalize(committed));
    },
    close,
  };
}
