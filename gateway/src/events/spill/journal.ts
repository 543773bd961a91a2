// A durable FIFO of records on local disk, for security events the stream cannot take now.
//
// Hand-written because no well-kept npm package is this: the persistent queues on npm are SQLite
// wrappers whose native build downloads binaries at install (better-sqlite3), LevelDB (classic-level:
// a native key-value store, where order, byte bounds and segment deletion would still be ours), or
// replicated signed logs (hypercore). What is needed is small: append, read in order, forget what was
// delivered, survive a crash, stay under a byte budget.
//
// Layout: numbered segment files `<seq>.seg` (records.ts has the framing). Records are appended to the
// newest segment; a segment that reaches segmentBytes is synced and closed, and a new one begun.
// Reading starts at the oldest segment; once every record of a segment is delivered (commit), the file
// is deleted. After a crash the oldest segment is read again from its start: records delivered before
// the crash are delivered again (at-least-once; the event writer keeps one row per event id).
//
// Durability: a record is written with write(2) before append() returns, so it survives the process
// (crash, kill -9, OOM kill) at once; fdatasync every fsyncIntervalMs (and when a segment is closed)
// bounds what a power loss or kernel crash can take to that interval. 0 syncs after every append call.
import { closeSync, fdatasync, fdatasyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { lockSpillDir } from './lock.js';
import { frameRecord, MAX_RECORD_BYTES, parseRecord, SEGMENT_MAGIC } from './records.js';

export interface JournalLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JournalOptions {
  dir: string;
  /** Bytes on disk at most, every segment counted whole; appends beyond are refused. */
  maxBytes: number;
  /** Size at which a segment is closed and a new one begun (default maxBytes / 16, at most 16 MiB). */
  segmentBytes?: number;
  /** fdatasync at most this often while records are being written; 0: after every append call (default 1000). */
  fsyncIntervalMs?: number;
  logger?: JournalLogger | undefined;
}

export interface JournalStats {
  /** Bytes of every segment file. */
  bytes: number;
  /** Records appended since the journal was opened. */
  appended: number;
  /** Records that could not be read back (a torn tail after a crash, damage), counted when skipped. */
  torn: number;
}

export interface Journal {
  /** Appends in order; returns how many fit (the rest are refused: the journal is at maxBytes). */
  append(payloads: readonly Buffer[]): number;
  /** Up to `max` records after the read position, which moves past them. */
  read(max: number): Buffer[];
  /** Everything read so far was delivered: segments left behind are deleted. */
  commit(): void;
  /** Moves the read position back to the last commit (the records read since will be read again). */
  rewind(): void;
  /** Whether records remain after the read position. */
  readonly readable: boolean;
  /** Whether nothing is left to deliver (no record after the last commit). */
  readonly drained: boolean;
  readonly stats: JournalStats;
  /** Syncs and closes the files and releases the directory. */
  close(): void;
}

interface Segment {
  seq: number;
  path: string;
  size: number;
}

interface Position {
  /** Index into segments. */
  seg: number;
  offset: number;
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

export function openJournal(options: JournalOptions): Journal {
  const { dir, maxBytes, logger } = options;
  const segmentBytes = Math.max(64 * 1024, Math.min(options.segmentBytes ?? Math.floor(maxBytes / 16), 16 * 1024 * 1024));
  const fsyncIntervalMs = options.fsyncIntervalMs ?? 1_000;
  mkdirSync(dir, { recursive: true });
  const unlock = lockSpillDir(dir);
  const stats = { appended: 0, torn: 0 };

  const segments: Segment[] = readdirSync(dir)
    .map((name) => SEGMENT_NAME.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ seq: Number(m[1]), path: join(dir, m[0]), size: 0 }))
    .sort((a, b) => a.seq - b.seq);
  for (const s of segments) s.size = statSync(s.path).size;
  // Only the newest segment can end in a torn record (older ones were synced and closed); cut it
  // there so that appends continue after the last intact record.
  const last = segments[segments.length - 1];
  if (last) {
    const { end, problem } = validEnd(last.path, last.size);
    if (problem !== undefined) {
      stats.torn++;
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
    }
  }
  let nextSeq = (segments[segments.length - 1]?.seq ?? 0) + 1;
  let bytes = segments.reduce((sum, s) => sum + s.size, 0);
  /** The segment being appended to (always the last of segments) and its descriptor. */
  let writeFd: number | undefined;
  let dirty = false;
  let syncing = false;
  let closed = false;
  let read: Position = { seg: 0, offset: SEGMENT_MAGIC.length };
  let committed: Position = { ...read };
  let readFd: { seg: Segment; fd: number } | undefined;

  const syncTimer = fsyncIntervalMs > 0 ? setInterval(syncSoon, fsyncIntervalMs) : undefined;
  syncTimer?.unref();

  function syncSoon(): void {
    if (!dirty || syncing || writeFd === undefined) return;
    dirty = false;
    syncing = true;
    const fd = writeFd;
    fdatasync(fd, (err) => {
      syncing = false;
      // A segment closed meanwhile was synced by closeWriter: its descriptor's error says nothing.
      if (err && fd === writeFd) logger?.error({ dir, err: err.message }, 'event spill: fdatasync failed');
    });
  }

  function closeWriter(): void {
    if (writeFd === undefined) return;
    fdatasyncSync(writeFd);
    closeSync(writeFd);
    writeFd = undefined;
    dirty = false;
  }

  function openWriter(need: number): Segment {
    const tail = segments[segments.length - 1];
    if (tail && tail.size + need <= segmentBytes) {
      writeFd ??= openSync(tail.path, 'a');
      return tail;
    }
    closeWriter();
    const seg: Segment = { seq: nextSeq++, path: segmentPath(dir, nextSeq - 1), size: SEGMENT_MAGIC.length };
    writeFd = openSync(seg.path, 'wx');
    writeSync(writeFd, SEGMENT_MAGIC);
    segments.push(seg);
    bytes += seg.size;
    return seg;
  }

  function closeReader(): void {
    if (readFd) closeSync(readFd.fd);
    readFd = undefined;
  }

  /** Deletes the segments before the committed one (all delivered). */
  function dropDelivered(): void {
    while (committed.seg > 0) {
      const seg = segments.shift() as Segment;
      if (readFd?.seg === seg) closeReader();
      rmSync(seg.path, { force: true });
      bytes -= seg.size;
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
      closeReader();
      readFd = { seg, fd: openSync(seg.path, 'r') };
    }
    const buf = Buffer.allocUnsafe(Math.min(length, seg.size - offset));
    return buf.subarray(0, readSync(readFd.fd, buf, 0, buf.length, offset));
  }

  return {
    append(payloads) {
      if (closed) return 0;
      let accepted = 0;
      const frames: Buffer[] = [];
      let seg: Segment | undefined;
      const flush = (): void => {
        if (frames.length === 0 || writeFd === undefined) return;
        const data = frames.length === 1 ? (frames[0] as Buffer) : Buffer.concat(frames);
        writeSync(writeFd, data);
        frames.length = 0;
        dirty = true;
      };
      for (const payload of payloads) {
        const frame = frameRecord(payload);
        const tail = segments[segments.length - 1];
        const rolls = !tail || tail.size + frame.length > segmentBytes;
        if (payload.length > MAX_RECORD_BYTES || bytes + frame.length + (rolls ? SEGMENT_MAGIC.length : 0) > maxBytes) break;
        if (rolls || seg === undefined) {
          flush();
          seg = openWriter(frame.length);
        }
        frames.push(frame);
        seg.size += frame.length;
        bytes += frame.length;
        accepted++;
      }
      flush();
      stats.appended += accepted;
      if (accepted > 0 && fsyncIntervalMs === 0 && writeFd !== undefined) {
        fdatasyncSync(writeFd);
        dirty = false;
      }
      return accepted;
    },
    read(max) {
      const out: Buffer[] = [];
      while (out.length < max) {
        read = normalize(read);
        if (atEnd(read)) break;
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
            stats.torn++;
            logger?.error({ segment: seg.path, offset: read.offset + at, skipped_bytes: seg.size - read.offset - at, problem: step.kind === 'corrupt' ? step.reason : 'record cut short' }, 'event spill: unreadable records skipped');
            at = seg.size - read.offset;
          }
          break;
        }
        read = { seg: read.seg, offset: read.offset + at };
      }
      return out;
    },
    commit() {
      committed = normalize(read);
      dropDelivered();
      if (atEnd(committed) && segments.length > 0) {
        // Everything delivered: start over with no file at all.
        closeReader();
        closeWriter();
        for (const seg of segments.splice(0)) rmSync(seg.path, { force: true });
        bytes = 0;
        read = committed = { seg: 0, offset: SEGMENT_MAGIC.length };
      }
    },
    rewind() {
      read = { ...committed };
    },
    get readable() {
      return !atEnd(normalize(read));
    },
    get drained() {
      return atEnd(normalize(committed));
    },
    get stats() {
      return { bytes, appended: stats.appended, torn: stats.torn };
    },
    close() {
      if (closed) return;
      closed = true;
      if (syncTimer) clearInterval(syncTimer);
      closeReader();
      closeWriter();
      unlock();
    },
  };
}
