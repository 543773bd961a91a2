/**
 * In CI (and with PALISADE_REQUIRE_SERVICES=1) a missing PostgreSQL or Redis must fail the run, so a
 * green result always means the real servers were exercised; on a laptop without them the suites that
 * need them are skipped with a reason.
 */
export function servicesRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.CI) || env.PALISADE_REQUIRE_SERVICES === '1';
}

export const TEST_POSTGRES_URL = process.env.PALISADE_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** TEST_POSTGRES_URL pointed at `database`, with `params` (application_name, …) added to its query. */
export function testPostgresUrl(database: string, params: Record<string, string> = {}): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${database}`;
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
