// Child-process helpers for the benchmark: spawn `node` children, wait until they answer HTTP,
// read their memory, and make sure none outlives the benchmark (normal end, error or Ctrl-C).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';

export interface Child {
  name: string;
  process: ChildProcess;
  pid: number;
  /** The last lines the child wrote (stdout and stderr), to explain a failure. */
  output(): string;
  /** Set once the child has exited (code or signal), undefined while it runs. */
  exited(): string | undefined;
  stop(): Promise<void>;
}

const children = new Set<Child>();
const OUTPUT_LINES = 40;

export interface SpawnOptions {
  cwd?: string;
  env?: Record<string, string>;
}

const ORPHAN_GUARD = new URL('./orphan-guard.js', import.meta.url).href;

/**
 * Starts `node <args>` with the environment of this process plus `env`, and with orphan-guard.js
 * preloaded, so the child goes away with this process however this one ends.
 */
export function spawnNode(name: string, args: string[], options: SpawnOptions = {}): Child {
  const proc = spawn(process.execPath, ['--import', ORPHAN_GUARD, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, PALISADE_BENCH_PARENT_PID: String(process.pid) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (proc.pid === undefined) throw new Error(`${name}: could not spawn ${process.execPath}`);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(line);
    if (lines.length > OUTPUT_LINES) lines.splice(0, lines.length - OUTPUT_LINES);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  let exit: string | undefined;
  const exitedPromise = new Promise<void>((resolve) => {
    proc.once('exit', (code, signal) => {
      exit = signal ? `signal ${signal}` : `exit code ${code}`;
      resolve();
    });
    proc.once('error', (error) => {
      exit = `spawn error: ${error.message}`;
      resolve();
    });
  });
  const child: Child = {
    name,
    process: proc,
    pid: proc.pid,
    output: () => lines.join('\n'),
    exited: () => exit,
    async stop() {
      children.delete(child);
      if (exit !== undefined) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 3000);
      await exitedPromise;
      clearTimeout(timer);
    },
  };
  children.add(child);
  return child;
}

/** Stops every child still running (SIGTERM, SIGKILL after 3 s). */
export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((c) => c.stop()));
}

let installed = false;
/**
 * Children are killed however the benchmark ends: Ctrl-C / SIGTERM stop them gracefully and exit
 * with 130 / 143; a plain or abrupt process exit SIGKILLs whatever is left (synchronously).
 */
export function installCleanup(): void {
  if (installed) return;
  installed = true;
  process.once('exit', () => {
    for (const child of children) if (child.exited() === undefined) child.process.kill('SIGKILL');
  });
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.once(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping child processes\n`);
      void stopAll().finally(() => process.exit(code));
    });
  }
}

/**
 * `count` distinct ports that were free a moment ago: the OS picks them while all are held, then
 * they are released for the children to bind shortly after.
 */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, host, resolve);
      });
    }
    return servers.map((s) => (s.address() as AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Fail at once when this child exits while waiting. */
  child?: Child;
}

/**
 * Calls `attempt` until it returns true, the time is up, or the child dies. The last error or
 * reason `attempt` gave is part of the failure message.
 */
export async function waitUntil(what: string, attempt: () => Promise<true | string>, options: WaitOptions = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let last = 'not tried';
  for (;;) {
    const exited = options.child?.exited();
    if (exited !== undefined) throw childFailure(options.child!, `exited (${exited}) while waiting for ${what}`);
    try {
      const outcome = await attempt();
      if (outcome === true) return;
      last = outcome;
    } catch (error) {
      last = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    }
    if (Date.now() >= deadline) {
      const message = `timed out waiting for ${what} (last: ${last})`;
      throw options.child ? childFailure(options.child, message) : new Error(message);
    }
    await sleep(options.intervalMs ?? 100);
  }
}

/** Waits until GET `url` answers 2xx. */
export function waitForHttp(url: string, options: WaitOptions = {}): Promise<void> {
  return waitUntil(
    `GET ${url}`,
    async () => {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      return res.ok ? true : `status ${res.status}`;
    },
    options,
  );
}

export function childFailure(child: Child, message: string): Error {
  const output = child.output();
  return new Error(`${child.name} (pid ${child.pid}) ${message}${output ? `\n--- last output of ${child.name} ---\n${output}` : ''}`);
}

export interface Memory {
  /** Resident set size now, in KiB (VmRSS). */
  rssKb: number;
  /** Peak resident set size, in KiB (VmHWM). */
  peakKb: number;
}

/**
 * CPU seconds (user + system, every thread: the event loop and the worker threads) a process has used,
 * from /proc/<pid>/stat (Linux, at USER_HZ = 100 ticks a second); undefined where that cannot be read.
 */
export function readCpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name (which may hold spaces) start at field 3: utime is 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) / 100 : undefined;
}

/** VmRSS and VmHWM of a process from /proc (Linux); undefined where that cannot be read. */
export function readMemory(pid: number): Memory | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const field = (name: string) => {
    const match = new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
    return match ? Number(match[1]) : undefined;
  };
  const rssKb = field('VmRSS');
  if (rssKb === undefined) return undefined;
  return { rssKb, peakKb: field('VmHWM') ?? rssKb };
}
