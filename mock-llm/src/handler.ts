// The per-request pipeline shared by every vendor route: record, apply the controls
// (delay → close/hang → forced status/JSON), then the route's checks, and answer or stream.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { flattenQuery } from './body.js';
import { ControlError, readControls, sleep, type Controls } from './controls.js';
import type { OAuthStore } from './oauth.js';
import { frameStream } from './sse.js';
import { asObject } from './text.js';
import type { HttpAnswer, LlmRoute, RecordedRequest, RouteContext, VendorRoute } from './types.js';

export interface HandlerDeps {
  now: () => number;
  echo: (prompt: string) => string;
  oauth: OAuthStore;
  state: Map<string, unknown>;
  vendorCApiKey: string | undefined;
  /** Aborted by close(): ends delays, hangs and streams. */
  shutdown: AbortSignal;
  record(request: FastifyRequest, route: string | undefined): RecordedRequest | undefined;
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | void>;

/** A handler for one method+path; several routes share a path when they differ by `action`. */
export function makeHandler(candidates: VendorRoute[], deps: HandlerDeps): Handler {
  return async (request, reply) => {
    const params = { ...(request.params as Record<string, string>) };
    if (params.modelAction !== undefined) splitModelAction(params);
    const route = candidates.find((r) => r.action === undefined || r.action === params.action);
    const recorded = deps.record(request, route?.name);
    const fallback = candidates[0] as VendorRoute;
    if (!route) return send(reply, { status: 404, body: fallback.error(404, `unknown action '${params.action ?? ''}'`) });

    let controls: Controls;
    try {
      controls = readControls(request.headers, flattenQuery(request.query));
    } catch (err) {
      if (err instanceof ControlError) return send(reply, { status: 400, body: route.error(400, err.message) });
      throw err;
    }
    await sleep(controls.delayMs, deps.shutdown);
    if (controls.close || deps.shutdown.aborted) return destroy(request, reply);
    if (controls.hang) return hang(request, reply, deps.shutdown);
    const forced = controls.status;
    if (controls.replyJson) return send(reply, { status: forced ?? 200, body: controls.replyJson.value });
    if (forced !== undefined && forced >= 400) return send(reply, { status: forced, body: route.error(forced, `mock error ${forced}`) });

    const ctx = context(request, params, deps);
    if (controls.toolArguments !== undefined) ctx.toolArguments = controls.toolArguments;
    const isObject = asObject(request.body) === request.body;
    const answer = route.kind === 'plain' ? route.handle(ctx) : answerLlm(route, ctx, isObject, controls.reply, deps);
    // A forced 1xx-3xx status dresses a normal answer; it never turns a rejection into a success.
    if (forced !== undefined && (answer.status ?? 200) < 400) answer.status = forced;
    if (answer.body instanceof StreamFrames) {
      const stream = frameStream(answer.body.frames, controls.chunkDelayMs, deps.shutdown, {
        stallAfterFrames: controls.stallAfterFrames,
        onEnd: (outcome) => {
          if (recorded) recorded.stream = outcome;
        },
      });
      return send(reply, { ...answer, body: stream });
    }
    return send(reply, answer);
  };
}

/** Marker for an answer that must be written as a stream. */
class StreamFrames {
  constructor(readonly frames: string[]) {}
}

function answerLlm(route: LlmRoute, ctx: RouteContext, isObject: boolean, forcedReply: string | undefined, deps: HandlerDeps): HttpAnswer {
  const rejected = route.check?.(ctx);
  if (rejected) return { status: rejected.status, headers: rejected.headers, body: route.error(rejected.status, rejected.message) };
  if (!isObject) {
    return { status: 400, body: route.error(400, 'request body must be a JSON object') };
  }
  const missing = route.required?.find((field) => ctx.body[field] === undefined);
  if (missing) return { status: 400, body: route.error(400, `'${missing}' is required`) };
  ctx.model = route.model?.(ctx) ?? ctx.model;
  const prompt = route.prompt(ctx);
  const text = forcedReply ?? route.defaultText?.(prompt, ctx) ?? deps.echo(prompt);
  if (route.stream?.when(ctx)) {
    const rendered = route.stream.render(text, ctx);
    return { headers: { 'content-type': rendered.contentType, 'cache-control': 'no-cache' }, body: new StreamFrames(rendered.frames) };
  }
  return { body: route.reply(text, ctx) };
}

function context(request: FastifyRequest, params: Record<string, string>, deps: HandlerDeps): RouteContext {
  const body = asObject(request.body);
  return {
    body,
    params,
    query: flattenQuery(request.query),
    headers: request.headers,
    model: typeof body.model === 'string' && body.model !== '' ? body.model : 'mock-model',
    id: randomBytes(9).toString('base64url'),
    now: deps.now(),
    origin: `http://${request.headers.host ?? 'localhost'}`,
    oauth: deps.oauth,
    state: deps.state,
    vendorCApiKey: deps.vendorCApiKey,
  };
}

/** `gemini-pro:generateContent` → model + action (the model part may itself hold no colon). */
function splitModelAction(params: Record<string, string>): void {
  const value = params.modelAction ?? '';
  const at = value.lastIndexOf(':');
  params.model = at < 0 ? value : value.slice(0, at);
  params.action = at < 0 ? '' : value.slice(at + 1);
}

function send(reply: FastifyReply, answer: HttpAnswer): FastifyReply {
  reply.code(answer.status ?? 200);
  if (answer.headers) reply.headers(answer.headers);
  return reply.send(answer.body);
}

/** Drops the connection without a byte of answer (simulates an upstream crash). */
function destroy(request: FastifyRequest, reply: FastifyReply): void {
  reply.hijack();
  request.raw.socket.destroy();
}

/** Never answers; the socket is freed when the client gives up or the mock closes. */
async function hang(request: FastifyRequest, reply: FastifyReply, shutdown: AbortSignal): Promise<void> {
  reply.hijack();
  const socket = request.raw.socket;
  await new Promise<void>((resolve) => {
    if (shutdown.aborted || socket.destroyed) return resolve();
    const done = (): void => {
      shutdown.removeEventListener('abort', done);
      socket.off('close', done);
      resolve();
    };
    shutdown.addEventListener('abort', done, { once: true });
    socket.once('close', done);
  });
  socket.destroy();
}
