// The two transports of the decision point behind one interface (ARCHITECTURE.md, "Process model"):
// HTTP to the 8086 service over a keep-alive undici Pool, or a direct call of decide(). The HTTP
// client rejects when no valid decision comes back — network error, timeout, non-200, bad body — and
// the caller then applies decideFailSafe(profile, reason).
import { PalisadeError } from '@palisade/core';
import { createJsonServiceClient } from '@palisade/detectors';
import { decide } from './decide.js';
import { DECISION_PATH } from './service.js';
import { DecisionResult, type DecisionCallOptions, type DecisionInput, type DecisionPoint, type DecisionResultFor } from './types.js';

export const DECISION_CLIENT_DEFAULTS = {
  connections: 64,
  keepAliveTimeoutMs: 10_000,
} as const;

export interface DecisionClientOptions {
  /** Base URL of the decision point, e.g. http://decision-point:8086. */
  url: string;
  internalToken?: string | undefined;
  /** The whole call, from sending to the parsed answer. */
  timeoutMs: number;
  connections?: number;
  keepAliveTimeoutMs?: number;
}

export function createDecisionClient(options: DecisionClientOptions): DecisionPoint {
  const client = createJsonServiceClient<DecisionInput, DecisionResult>({
    url: options.url,
    path: DECISION_PATH,
    service: 'The decision point',
    internalToken: options.internalToken,
    timeoutMs: options.timeoutMs,
    connections: options.connections ?? DECISION_CLIENT_DEFAULTS.connections,
    keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? DECISION_CLIENT_DEFAULTS.keepAliveTimeoutMs,
    parse: (body) => DecisionResult.parse(body),
  });
  return {
    async decide<I extends DecisionInput>(input: I, callOptions: DecisionCallOptions = {}) {
      let result: DecisionResult;
      try {
        result = await client.call(input, callOptions);
      } catch (error) {
        // Whatever went wrong, the caller falls back to decideFailSafe: one code for all of it.
        if (error instanceof PalisadeError && error.code === 'SERVICE_UNAVAILABLE') throw error;
        throw new PalisadeError('SERVICE_UNAVAILABLE', { message: `The decision point failed: ${error instanceof Error ? error.message : String(error)}`, cause: error });
      }
      if (result.direction !== input.direction) throw new PalisadeError('SERVICE_UNAVAILABLE', { message: 'The decision point answered for the other direction' });
      return result as DecisionResultFor<I>;
    },
    close: () => client.close(),
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
