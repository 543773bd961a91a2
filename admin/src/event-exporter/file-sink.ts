// JSON Lines file destination with size rotation. Writers of the same path in this process (two
// exporters, or a test call beside the consumer) take turns through a shared FileLocks, so lines never
// interleave and a rotation never races an append.
import { constants } from 'node:fs';
import { open, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FileConfig } from '@palisade/core';
import { DeliveryError, type ExportItem, type Sink } from './sink.js';

/** Serialises work per file path; one instance per process component (passed in, never global). */
export interface FileLocks {
  run<T>(file: string, fn: () => Promise<T>): Promise<T>;
}

export function createFileLocks(): FileLocks {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(file, fn) {
      const key = path.resolve(file);
      const previous = tails.get(key) ?? Promise.resolve();
      const run = previous.then(fn, fn);
      const tail = run.catch(() => undefined);
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return run;
    },
  };
}

/** `events.jsonl` → `events.jsonl.20240501T101502123Z`, with `-1`, `-2`… when that name is taken. */
async function rotatedName(file: string, now: Date): Promise<string> {
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? `${file}.${stamp}` : `${file}.${stamp}-${n}`;
    try {
      await stat(candidate);
    } catch {
      return candidate;
    }
  }
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
}

export function createFileSink(config: FileConfig, deps: { locks: FileLocks; now?: () => Date }): Sink {
  const maxBytes = config.max_size_mb * 1024 * 1024;
  const now = deps.now ?? (() => new Date());
  return {
    chunkSize: 100,
    async send(items: readonly ExportItem[]) {
      const data = Buffer.from(items.map((i) => `${JSON.stringify(i.mapped)}\n`).join(''), 'utf8');
      try {
        await deps.locks.run(config.path, async () => {
          // Rotate before a write that would pass the limit, so a file stays within max_size_mb (a
          // single chunk larger than the limit still goes to one file: lines are never split).
          const size = await sizeOf(config.path);
          if (config.rotate && size > 0 && size + data.length > maxBytes) await rename(config.path, await rotatedName(config.path, now()));
          // The directory is not created: a path whose directory is missing is a destination that is
          // down (e.g. an unmounted volume), and the events wait for it.
          const handle = await open(config.path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o640);
          try {
            await handle.write(data);
            await handle.datasync(); // acked only after this: the lines survive a crash of the host too
          } finally {
            await handle.close();
          }
        });
      } catch (err) {
        throw new DeliveryError(`cannot write ${config.path}: ${(err as Error).message}`, { retryable: true, cause: err });
      }
    },
    close: async () => undefined,
  };
}
