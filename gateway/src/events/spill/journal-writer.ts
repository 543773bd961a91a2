// The journal's appends: records framed and written to the newest segment with one write(2) per
// segment touched, a new segment begun when the next record would pass segmentBytes, appends past the
// byte budget refused. A record is in the file when append() returns (it survives the process at
// once); fdatasync runs every fsyncIntervalMs while records are written, when a segment is closed, and,
// with an interval of 0, after every append call.
import { closeSync, fdatasync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import { frameRecord, MAX_RECORD_BYTES, SEGMENT_MAGIC } from './records.js';
import type { Segment, SegmentFiles } from './segments.js';

export interface JournalWriterOptions {
  dir: string;
  maxBytes: number;
  segmentBytes: number;
  fsyncIntervalMs: number;
  logger?: { error(obj: object, msg: string): void } | undefined;
}

export interface JournalWriter {
  /** Appends in order; returns how many fit. */
  append(payloads: readonly Buffer[]): number;
  /** Syncs and closes the segment being appended to (the next append opens it again, or a new one). */
  closeSegment(): void;
  /** Stops the periodic sync and closes the segment. */
  close(): void;
}

export function createJournalWriter(files: SegmentFiles, options: JournalWriterOptions): JournalWriter {
  const { dir, maxBytes, segmentBytes, fsyncIntervalMs, logger } = options;
  /** The descriptor of the segment being appended to (always the last of the files). */
  let writeFd: number | undefined;
  let dirty = false;
  let syncing = false;

  const syncTimer = fsyncIntervalMs > 0 ? setInterval(syncSoon, fsyncIntervalMs) : undefined;
  syncTimer?.unref();

  function syncSoon(): void {
    if (!dirty || syncing || writeFd === undefined) return;
    dirty = false;
    syncing = true;
    const fd = writeFd;
    fdatasync(fd, (err) => {
      syncing = false;
      // A segment closed meanwhile was synced by closeSegment: its descriptor's error says nothing.
      if (err && fd === writeFd) logger?.error({ dir, err: err.message }, 'event spill: fdatasync failed');
    });
  }

  function closeSegment(): void {
    if (writeFd === undefined) return;
    fdatasyncSync(writeFd);
    closeSync(writeFd);
    writeFd = undefined;
    dirty = false;
  }

  /** The segment a record of `need` bytes goes to: the last one while it has room, else a new one. */
  function segmentFor(need: number): Segment {
    const tail = files.list[files.list.length - 1];
    if (tail && tail.size + need <= segmentBytes) {
      writeFd ??= openSync(tail.path, 'a');
      return tail;
    }
    closeSegment();
    const { segment, fd } = files.create();
    writeFd = fd;
    return segment;
  }

  function append(payloads: readonly Buffer[]): number {
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
      const tail = files.list[files.list.length - 1];
      const rolls = !tail || tail.size + frame.length > segmentBytes;
      if (payload.length > MAX_RECORD_BYTES || files.bytes + frame.length + (rolls ? SEGMENT_MAGIC.length : 0) > maxBytes) break;
      if (rolls || seg === undefined) {
        flush();
        seg = segmentFor(frame.length);
      }
      frames.push(frame);
      files.grew(seg, frame.length);
      accepted++;
    }
    flush();
    if (accepted > 0 && fsyncIntervalMs === 0 && writeFd !== undefined) {
      fdatasyncSync(writeFd);
      dirty = false;
    }
    return accepted;
  }

  return {
    append,
    closeSegment,
    close() {
      if (syncTimer) clearInterval(syncTimer);
      closeSegment();
    },
  };
}
