import { request } from 'undici';
import { envBool, envInt, PalisadeError, type EnvValues, type Provider, type ProviderHealthCheck, type ResourceStore } from '@palisade/core';

/** The spec's Limits rows for background health checks. */
export const HEALTH_CHECK_ENV = {
  HEALTH_CHECK_ENABLED: envBool(true),
  HEALTH_CHECK_INTERVAL_SECONDS: envInt(10, 3600, 60),
  HEALTH_CHECK_TIMEOUT_SECONDS: envInt(1, 30, 5),
  HEALTH_CHECK_RETRIES: envInt(0, 5, 2),
} as const;
export type HealthCheckConfig = EnvValues<typeof HEALTH_CHECK_ENV>;

export interface HealthCheckerDeps {
  store: ResourceStore;
  config: HealthCheckConfig;
  record: (id: string, result: Pick<Provider, 'health_status' | 'health_latency_ms' | 'health_error_message'>) => Promise<unknown>;
  log?: (message: string) => void;
}

/**
 * One attempt: GET the backend's base URL. 2xx/3xx is HEALTHY (spec); a 4xx also proves the backend
 * answers (most LLM APIs refuse an unauthenticated GET), so it counts as HEALTHY too; 5xx, a
 * connection error or no answer within the timeout is a failure.
 */
async function probe(url: string, timeoutMs: number): Promise<{ ok: boolean; latency: number; error: string | null }> {
  const started = performance.now();
  try {
    const res = await request(url, { method: 'GET', headersTimeout: timeoutMs, bodyTimeout: timeoutMs, signal: AbortSignal.timeout(timeoutMs) });
    await res.body.dump();
    const latency = Math.round(performance.now() - started);
    return res.statusCode >= 500 ? { ok: false, latency, error: `HTTP ${res.statusCode}` } : { ok: true, latency, error: null };
  } catch (error) {
    const latency = Math.round(performance.now() - started);
    const e = error as { code?: string; name?: string; message?: string };
    const reason = e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' ? `no answer within ${timeoutMs} ms` : e.code ?? e.message ?? String(error);
    return { ok: false, latency, error: reason };
  }
}

export function createHealthChecker(deps: HealthCheckerDeps) {
  const { config } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function check(provider: Provider, performedBy: string): Promise<ProviderHealthCheck> {
    const timeoutMs = config.HEALTH_CHECK_TIMEOUT_SECONDS * 1000;
    let attempt = 0;
    let last = await probe(provider.target_base_url, timeoutMs);
    // RETRIES=0: the first failure is UNHEALTHY; otherwise that many more tries before giving up.
    while (!last.ok && attempt < config.HEALTH_CHECK_RETRIES) {
      attempt++;
      last = await probe(provider.target_base_url, timeoutMs);
    }
    const result = {
      health_status: last.ok ? ('HEALTHY' as const) : ('UNHEALTHY' as const),
      health_latency_ms: last.latency,
      health_error_message: last.error,
    };
    await deps.record(provider.id, result);
    return { provider_id: provider.id, ...result, health_checked_at: new Date().toISOString(), attempts: attempt + 1, performed_by: performedBy };
  }

  async function checkAllActive(): Promise<void> {
    for (let offset = 0; ; offset += 200) {
      const page = await deps.store.providers.list({ where: { status: 'ACTIVE' }, limit: 200, offset });
      await Promise.all(page.items.map((p) => check(p, 'scheduler').catch((e: unknown) => deps.log?.(`health check of ${p.name} failed: ${String(e)}`))));
      if (offset + page.items.length >= page.total) return;
    }
  }

  return {
    /** A check now, for POST /providers/{id}/health-check. */
    async checkOne(id: string, tenantId: string, performedBy: string): Promise<ProviderHealthCheck> {
      const provider = await deps.store.providers.get(id);
      if (!provider || provider.tenant_id !== tenantId) throw new PalisadeError('NOT_FOUND', { message: { en: `provider ${id} not found`, ru: `провайдер ${id} не найден` } });
      return check(provider, performedBy);
    },
    checkAllActive,
    start() {
      if (!config.HEALTH_CHECK_ENABLED || timer) return;
      timer = setInterval(() => {
        running ??= checkAllActive().finally(() => (running = undefined));
      }, config.HEALTH_CHECK_INTERVAL_SECONDS * 1000);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
