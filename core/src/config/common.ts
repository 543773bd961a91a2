import { envBool, envEnum, envInt, envSecret, envString, envUrl, parseEnv, type EnvValues } from './env.js';

/** Variables every component reads: where storage is, how to log, and the internal-call token. */
export const COMMON_ENV = {
  DATABASE_URL: envUrl(['postgres', 'postgresql']),
  REDIS_URL: envUrl(['redis', 'rediss']),
  PALISADE_DATA_DIR: envString('.data'),
  PALISADE_HOST: envString('0.0.0.0'),
  LOG_LEVEL: envEnum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  INTERNAL_SERVICE_TOKEN: envSecret(),
  /** Encrypts stored credentials (provider upstream_auth, exporter secrets); a development key without it. */
  PALISADE_SECRET_KEY: envSecret(),
  AUTH_PROXY_ENABLED: envBool(true),
  /** Nice steps the process's helper threads (V8's collector, libuv's pool) run below its event loop; 0: same priority. */
  PALISADE_HELPER_THREADS_NICENESS: envInt(0, 19, 5),
} as const;

export type CommonConfig = EnvValues<typeof COMMON_ENV>;

export function loadCommonConfig(env: NodeJS.ProcessEnv = process.env): CommonConfig {
  return parseEnv(COMMON_ENV, env);
}
