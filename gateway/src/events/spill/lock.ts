// One process per spill directory: two gateways appending to the same segments would interleave
// records and delete each other's files. A LOCK file names its holder (pid, host, when); a lock whose
// holder is gone is taken over, so a gateway that crashed (or a container restarted with pid 1 again)
// gets its journal back.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export class SpillLockedError extends Error {
  readonly userFacing = true;
  constructor(message: string) {
    super(message);
    this.name = 'SpillLockedError';
  }
}

interface Holder {
  pid: number;
  host: string;
  /** Epoch ms when the lock was taken. */
  at: number;
}

function readHolder(path: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.at === 'number') return parsed as Holder;
  } catch {
    // unreadable or half written (a crash while taking it): nobody can be holding it
  }
  return undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the recorded holder may still be running. */
function held(holder: Holder): boolean {
  if (holder.host !== hostname()) return true; // a shared volume: we cannot tell, so we do not steal it
  if (holder.pid !== process.pid) return alive(holder.pid);
  // Our own pid: this process took it (a second journal on the same directory) unless the lock is
  // older than the process (a restarted container, where the gateway is pid 1 every time).
  return holder.at >= Date.now() - process.uptime() * 1000;
}

/** Takes the directory's lock or throws SpillLockedError; returns the release function. */
export function lockSpillDir(dir: string): () => void {
  const path = join(dir, 'LOCK');
  const me: Holder = { pid: process.pid, host: hostname(), at: Date.now() };
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readHolder(path);
      if (holder && held(holder)) {
        throw new SpillLockedError(
          `the event spill directory ${dir} is in use by pid ${holder.pid} on ${holder.host}; give every gateway its own GATEWAY_EVENTS_SPILL_DIR (delete ${path} only if that process is gone)`,
        );
      }
      rmSync(path, { force: true });
      continue;
    }
    try {
      writeSync(fd, JSON.stringify(me));
    } finally {
      closeSync(fd);
    }
    return () => {
      if (readHolder(path)?.at === me.at) rmSync(path, { force: true });
    };
  }
  throw new SpillLockedError(`could not take the lock of the event spill directory ${dir}`);
}
