import { ConfigError, envBool, envInt, envSeconds, envString, envUrl, parseEnv, type EnvValues } from '@palisade/core';

/** The gateway's knobs (spec "Limits" and "Authentication / Gateway"; DECISIONS.md "Gateway credentials"). */
export const GATEWAY_ENV = {
  /** API keys and rate limits on every proxied call (spec default false). */
  AUTH_ENABLED: envBool(false),
  /** Requests per minute per API key when the key names no limit of its own. */
  GATEWAY_RATE_LIMIT_PER_MINUTE: envInt(1, 1_000_000, 60),
  /** Largest request body the gateway itself accepts (413 above); the spec leaves it open. */
  GATEWAY_MAX_BODY_BYTES: envInt(1024, 1024 * 1024 * 1024, 10 * 1024 * 1024),
  /** From the end of the request headers to the end of the answer; must exceed the front proxy's read timeout. */
  GATEWAY_SERVER_WRITE_TIMEOUT: envSeconds(1, 86_400, 660),
  /**
   * From a request's first byte to the end of its headers; a slower client (slowloris) gets 408 and
   * its connection is closed. Front proxies send headers at once.
   */
  GATEWAY_HEADERS_TIMEOUT: envSeconds(1, 3600, 10),
  /** From a request's first byte to the end of its body (10 MiB takes 30 s at 2.8 Mbit/s); then 408. */
  GATEWAY_BODY_TIMEOUT: envSeconds(1, 3600, 30),
  /** Open client connections at most; more are closed at once (the timeouts above free slow ones). */
  GATEWAY_MAX_CONNECTIONS: envInt(1, 1_000_000, 10_000),
  /** Idle keep-alive connections from the front proxy are closed after this long. */
  GATEWAY_KEEPALIVE_TIMEOUT: envSeconds(1, 3600, 120),
  /** Accept any TLS certificate from https LLM backends. */
  GATEWAY_LLM_INSECURE_SKIP_VERIFY: envBool(false),
  /** Whether X-Real-Backend may send unmatched requests to a client-named backend (spec routing rule 6). */
  GATEWAY_FALLBACK_ENABLED: envBool(true),
  /** Where the policy bundle is served. */
  BUNDLE_STORE_URL: envUrl(['http', 'https'], 'http://127.0.0.1:9000'),
  /** Safety-net bundle check interval; change notices reload at once. */
  GATEWAY_CONFIG_POLL_SECONDS: envSeconds(0, 3600, 10),
  /**
   * 0 (default): no cap; the event writer removes what every reader has acked. A number caps the stream
   * at about that many entries, and a reader further behind loses the oldest (for a gateway whose
   * events nobody reads, e.g. in a bench).
   */
  GATEWAY_EVENTS_STREAM_MAX_LEN: envInt(0, 100_000_000, 0),
  /** Security events held in memory (queued or being appended) before they go to the spill (or, without one, are dropped). */
  GATEWAY_EVENTS_MEMORY_BUFFER: envInt(1, 10_000_000, 10_000),
  /** Where security events wait on disk while the event stream is unreachable (default <PALISADE_DATA_DIR>/gateway-events). */
  GATEWAY_EVENTS_SPILL_DIR: envString(),
  /** The spill journal's size on disk at most; events beyond are dropped, counted and logged (0: no spill, memory only). */
  GATEWAY_EVENTS_SPILL_MAX_BYTES: envInt(0, 1024 * 1024 * 1024 * 1024, 512 * 1024 * 1024),
  /** How often spilled events are fdatasync'ed (0: after every write); a process crash loses none either way. */
  GATEWAY_EVENTS_SPILL_FSYNC_MS: envInt(0, 60_000, 1000),
  /**
   * Inspection work one turn of the event loop runs under load before the rest waits for the next turn
   * (milliseconds, 0 = no limit): bounds the event-loop delay that timers and sockets see.
   */
  GATEWAY_CPU_SLICE_MS: envInt(0, 1000, 2),
} as const;
export type GatewayConfig = EnvValues<typeof GATEWAY_ENV>;

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const config = parseEnv(GATEWAY_ENV, env);
  // node measures both from the request's first byte: headers cannot be given longer than the whole.
  if (config.GATEWAY_HEADERS_TIMEOUT > config.GATEWAY_BODY_TIMEOUT) {
    throw new ConfigError(
      `Invalid configuration: GATEWAY_HEADERS_TIMEOUT=${config.GATEWAY_HEADERS_TIMEOUT} — must not exceed GATEWAY_BODY_TIMEOUT (${config.GATEWAY_BODY_TIMEOUT})`,
      'GATEWAY_HEADERS_TIMEOUT',
    );
  }
  return config;
}
