// The two transports of the decision point behind one interface (ARCHITECTURE.md, "Process model"):
// HTTP to the 8086 service over a keep-alive undici Pool, or a direct call of decide(). The HTTP
// client rejects when no valid decision comes back — network error, timeout, non-200, bad body — and
// the caller then applies decideFailSafe(profile, reason).
import { Pool } from 'undici';
import { PalisadeError } from '@palisade/core';
import { decide } from './decide.js';
import { DECISION_PATH } from './service.js';
import { DecisionResult, type DecisionCallOptions, type DecisionInput, type DecisionPoint, type DecisionResultFor } from './types.js';

export const DECISION_CLIENT_DEFAULTS = {
  connections: 64,
  keepAliveTimeoutMs: 10_000,
} as const;

/** undici's own timers only back up ours, which always fire first. */
const UNDICI_BACKSTOP_MS = 1_000;

export interface DecisionClientOptions {
  /** Base URL of the decision point, e.g. http://decision-point:8086. */
  url: string;
  internalToken?: string | undefined;
  /** The whole call, from sending to the parsed answer. */
  timeoutMs: number;
  connections?: number;
  keepAliveTimeoutMs?: number;
}

function unavailable(message: string, cause?: unknown): PalisadeError {
  return new PalisadeError('SERVICE_UNAVAILABLE', { message, ...(cause === undefined ? {} : { cause }) });
}

export function createDecisionClient(options: DecisionClientOptions): DecisionPoint {
  const { timeoutMs } = options;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError(`invalid decision point timeoutMs: ${String(timeoutMs)}`);
  const base = new URL(options.url);
  const path = `${base.pathname.replace(/\/+$/, '')}${DECISION_PATH}`;
  const pool = new Pool(base.origin, {
    connections: options.connections ?? DECISION_CLIENT_DEFAULTS.connections,
    pipelining: 1,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? DECISION_CLIENT_DEFAULTS.keepAliveTimeoutMs,
    headersTimeout: timeoutMs + UNDICI_BACKSTOP_MS,
    bodyTimeout: timeoutMs + UNDICI_BACKSTOP_MS,
  });
  const fixedHeaders: Record<string, string> = { 'content-type': 'application/json' };
  if (options.internalToken) fixedHeaders['x-internal-token'] = options.internalToken;

  async function call(input: DecisionInput, callOptions: DecisionCallOptions, signal: AbortSignal): Promise<DecisionResult> {
    const headers = callOptions.traceId ? { ...fixedHeaders, 'x-trace-id': callOptions.traceId } : fixedHeaders;
    const response = await pool.request({ path, method: 'POST', headers, body: JSON.stringify(input), signal });
    if (response.statusCode !== 200) {
      const text = await response.body.text();
      throw unavailable(`The decision point answered ${response.statusCode}: ${text.slice(0, 500)}`);
    }
    const parsed = DecisionResult.safeParse(await response.body.json());
    if (!parsed.success) throw unavailable('The decision point answered with an invalid decision', parsed.error);
    if (parsed.data.direction !== input.direction) throw unavailable('The decision point answered for the other direction');
    return parsed.data;
  }

  return {
    async decide<I extends DecisionInput>(input: I, callOptions: DecisionCallOptions = {}) {
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new Error('decision point timeout'));
      }, timeoutMs);
      const callerSignal = callOptions.signal;
      const onCallerAbort = () => controller.abort(callerSignal?.reason);
      if (callerSignal?.aborted) onCallerAbort();
      else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
      try {
        // call() checked that the answer is for the input's direction.
        return (await call(input, callOptions, controller.signal)) as DecisionResultFor<I>;
      } catch (error) {
        if (timedOut) throw unavailable(`The decision point did not answer within ${timeoutMs} ms`, error);
        if (callerSignal?.aborted) throw unavailable('The call to the decision point was aborted by the caller', error);
        if (error instanceof PalisadeError) throw error;
        throw unavailable(`The decision point could not be reached: ${error instanceof Error ? error.message : String(error)}`, error);
      } finally {
        clearTimeout(timer);
        callerSignal?.removeEventListener('abort', onCallerAbort);
      }
    },
    close: () => pool.close(),
  };
}

/** decide() in this process, behind the same interface; an already aborted call is refused. */
export function createInProcessDecisionPoint(): DecisionPoint {
  return {
    async decide<I extends DecisionInput>(input: I, callOptions?: DecisionCallOptions) {
      callOptions?.signal?.throwIfAborted();
      return decide(input);
    },
    close: async () => {},
  };
}
