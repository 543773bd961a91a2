import type { FastifyInstance } from 'fastify';

export interface ListenOptions {
  port: number;
  host?: string;
}

/** Listens and returns the base URL (port 0 picks a free port, as tests do). */
export async function listen(app: FastifyInstance, options: ListenOptions): Promise<string> {
  await app.listen({ port: options.port, host: options.host ?? '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') return String(address);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;
}

export interface ShutdownOptions {
  /** Each closer stops one thing; run in order, each awaited, errors reported and skipped. */
  closers: Array<() => Promise<void>>;
  signals?: NodeJS.Signals[];
  /** After this long the process exits even if something still hangs. */
  timeoutMs?: number;
  log?: (message: string) => void;
  exit?: (code: number) => void;
}

/**
 * Graceful shutdown on SIGTERM/SIGINT: fastify's close stops accepting, lets in-flight requests
 * finish, then closes pools. Called from a main(); returns a function that runs the same sequence.
 */
export function installShutdown(options: ShutdownOptions): () => Promise<void> {
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let running: Promise<void> | undefined;

  const shutdown = (): Promise<void> => {
    running ??= (async () => {
      const timer = setTimeout(() => {
        log('shutdown timed out; exiting');
        exit(1);
      }, options.timeoutMs ?? 30_000);
      timer.unref();
      let failed = false;
      for (const close of options.closers) {
        try {
          await close();
        } catch (error) {
          failed = true;
          log(`error during shutdown: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      clearTimeout(timer);
      if (failed) process.exitCode = 1;
    })();
    return running;
  };

  for (const signal of signals) {
    process.once(signal, () => {
      log(`received ${signal}, shutting down`);
      void shutdown().then(() => exit(process.exitCode === 1 ? 1 : 0));
    });
  }
  return shutdown;
}
