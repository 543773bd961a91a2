import type { FastifyInstance } from 'fastify';

/** A dependency check for /health/ready: resolves when the dependency answers, throws when not. */
export type ReadinessCheck = () => Promise<void>;

export interface HealthOptions {
  service: string;
  checks: Record<string, ReadinessCheck>;
  /** Each check's time limit; a slow dependency counts as down. */
  checkTimeoutMs?: number;
  /** Facts added to the /health/ready answer (the gateway's bundle revision). */
  details?: () => Record<string, unknown>;
  /** Extra liveness paths some components also answer (the content policy service's GET /health). */
  livenessPaths?: string[];
}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

export function registerHealth(app: FastifyInstance, options: HealthOptions): void {
  const live = async () => ({ status: 'ok', service: options.service });
  for (const path of ['/health/live', ...(options.livenessPaths ?? [])]) app.get(path, { logLevel: 'warn' }, live);

  app.get('/health/ready', { logLevel: 'warn' }, async (_request, reply) => {
    const names = Object.keys(options.checks);
    const results = await Promise.all(names.map((name) => runCheck(options.checks[name]!, options.checkTimeoutMs ?? 2000)));
    const checks: Record<string, { status: 'ok' | 'down'; error?: string }> = {};
    const down: string[] = [];
    names.forEach((name, i) => {
      const error = results[i];
      checks[name] = error === undefined ? { status: 'ok' } : { status: 'down', error };
      if (error !== undefined) down.push(name);
    });
    const details = options.details?.() ?? {};
    if (down.length === 0) return { status: 'ok', service: options.service, ...details, checks };
    reply.code(503);
    return { status: 'unavailable', service: options.service, message: `${down.join(', ')} unavailable`, ...details, checks };
  });
}
