// Step 6: the call to the provider. The client going away stops it; a failure after the client left
// is the client's (499), not the upstream's; the provider call is a GenAI client span when traced.
import type { Socket } from 'node:net';
import type { FastifyReply } from 'fastify';
import { inSpan, isSampled, PalisadeError, SpanKind, type TraceContext, type Tracer } from '@palisade/core';
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from '../upstream/index.js';
import { requestModelOf, tokenUsageOf } from '../usage/index.js';

/** The abort of the upstream call now running for a socket's request. */
const RUNNING_CALL = Symbol('palisade.runningUpstreamCall');
type TrackedSocket = Socket & { [RUNNING_CALL]?: ((reason: Error) => void) | null };

/**
 * The client going away before its answer is written stops the upstream call too. One 'close'
 * listener per connection (not per request) reads the abort of the call in flight; an HTTP/1.1
 * connection carries one request at a time.
 */
export function abortOnClientClose(reply: FastifyReply) {
  return (abort: (reason: Error) => void) => {
    const socket = reply.raw.socket as TrackedSocket | null;
    if (!socket) return;
    if (socket[RUNNING_CALL] === undefined) {
      socket.once('close', () => socket[RUNNING_CALL]?.(new Error('the client closed the connection')));
    }
    socket[RUNNING_CALL] = abort;
  };
}

function callFinished(reply: FastifyReply): void {
  const socket = reply.raw.socket as TrackedSocket | null;
  if (socket && socket[RUNNING_CALL]) socket[RUNNING_CALL] = null;
}

/**
 * Calls the upstream; when the client went away meanwhile, the failure is the client's (499, logged at
 * info as nginx does), not an upstream error.
 */
export async function callUpstream(upstream: UpstreamClient, reply: FastifyReply, request: UpstreamRequest): Promise<UpstreamResponse> {
  try {
    return await upstream.send(request);
  } catch (error) {
    if (reply.raw.destroyed && !reply.raw.writableFinished) {
      throw new PalisadeError('LLM_REQUEST_FAILED', { status: 499, message: 'The client closed the connection before the answer', cause: error });
    }
    throw error;
  } finally {
    callFinished(reply);
  }
}

/**
 * The provider call as an OpenTelemetry GenAI client span: provider, requested model and the token
 * usage the answer reports (never the prompt or the answer).
 */
export function upstreamSpan(
  tracer: Tracer | undefined,
  parent: TraceContext | undefined,
  provider: { id: string; name: string; provider_type: string },
  json: unknown,
  call: () => Promise<UpstreamResponse>,
): Promise<UpstreamResponse> {
  if (!tracer || !isSampled(parent)) return call();
  const model = requestModelOf(json);
  const attributes = { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': provider.provider_type, 'gen_ai.request.model': model, 'palisade.provider_id': provider.id };
  return inSpan(
    tracer,
    parent,
    model ? `chat ${model}` : 'chat',
    async (_ctx, span) => {
      const answer = await call();
      span?.setAttribute('http.response.status_code', answer.status);
      const tokens = tokenUsageOf(answer);
      if (tokens) span?.setAttributes({ 'gen_ai.usage.input_tokens': tokens.input, 'gen_ai.usage.output_tokens': tokens.output });
      return answer;
    },
    { kind: SpanKind.CLIENT, attributes },
  );
}

/** The answer to the client as the upstream gave it (headers already filtered by the client). */
export function sendAnswer(reply: FastifyReply, answer: UpstreamResponse): FastifyReply {
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  return reply.code(answer.status).send(answer.body);
}
