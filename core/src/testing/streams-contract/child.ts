// A child process that opens and closes a Streams bundle must exit on its own.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Test } from 'tap';

/**
 * The stream sources as plain ESM JavaScript in a temporary folder, so a child process can run them
 * without a TypeScript loader (which costs seconds at start-up). When this file itself runs compiled,
 * the compiled stream folder is used as is.
 */
async function plainJsFolder(t: Test): Promise<string> {
  // The stream sources sit in src/stream (dist/stream compiled), two folders up from this one.
  const here = fileURLToPath(new URL('../../stream/', import.meta.url));
  if (!import.meta.url.endsWith('.ts')) return here;
  const ts = (await import('typescript')).default;
  const ioredis = import.meta.resolve('ioredis');
  const dir = await mkdtemp(join(tmpdir(), 'palisade-stream-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  for (const file of await readdir(here)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.endsWith('.d.ts')) continue;
    const { outputText } = ts.transpileModule(await readFile(join(here, file), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    // The temporary folder is outside the workspace: point the one bare import at its resolved file.
    const js = outputText.replace(/(from\s*)(['"])ioredis\2/g, `$1${JSON.stringify(ioredis)}`);
    await writeFile(join(dir, file.replace(/\.ts$/, '.js')), js);
  }
  await writeFile(join(dir, 'package.json'), '{"type":"module"}');
  return dir;
}

/**
 * Runs a child Node process that uses a bundle (subscriber, blocking reads, timers) and closes it:
 * it must exit on its own, which proves close() leaves nothing holding the event loop.
 */
export async function childExitsAfterClose(t: Test, redisUrl: string | undefined, keyPrefix: string): Promise<void> {
  const index = pathToFileURL(join(await plainJsFolder(t), 'index.js')).href;
  const script = `
    const { createStreams } = await import(${JSON.stringify(index)});
    const s = await createStreams(process.env.CHILD_REDIS_URL || undefined, { keyPrefix: ${JSON.stringify(keyPrefix)} });
    await s.cache.set('child', 'v', 5000);
    await s.cache.slidingWindow('child', 5, 5000);
    await s.pubsub.subscribe('child', () => {});
    await s.events.ensureGroup('child', 'g');
    const reading = [s.events.read('child', 'g', 'c', { blockMs: 20000 }), s.events.read('child', 'g', 'd', { blockMs: 20000 })];
    await s.events.append('other', { a: 'b' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await s.close();
    await Promise.all(reading);
    console.log('closed');
  `;
  const env: NodeJS.ProcessEnv = { ...process.env, CHILD_REDIS_URL: redisUrl ?? '' };
  delete env.NODE_OPTIONS; // tap's coverage hooks are not needed in the child
  const started = Date.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 8_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  clearTimeout(timer);
  t.equal(code, 0, `child exited by itself after close(), in ${Date.now() - started} ms (output: ${output.trim()})`);
  t.match(output, /closed/);
}
