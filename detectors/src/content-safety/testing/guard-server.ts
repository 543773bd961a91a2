// A real OpenAI-compatible HTTP server on 127.0.0.1 that answers like a Qwen3Guard-Gen model, from a
// rule table the test gives: the peer of the content safety tests and of offline demos (no GPU). It
// serves POST …/v1/chat/completions and GET …/v1/models under any path prefix, records what it got,
// and can be told to fail, hang or answer garbage.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ContentSafetyVerdict } from '@palisade/core';
import { CONTENT_SAFETY_DEFAULT_MODEL } from '../limits.js';

export interface GuardRule {
  /** Tested against the content of the last message (the prompt, or the answer in response moderation). */
  match: RegExp | string | ((content: string) => boolean);
  safety: ContentSafetyVerdict;
  /** The guard's own names: Violent, Non-violent Illegal Acts, …, Jailbreak. None when left out. */
  categories?: string[];
  /** The `Refusal:` answer when the last message is the assistant's; default No. */
  refusal?: boolean;
  /** Answer this text verbatim instead (e.g. with a <think> block, or another model's wording). */
  raw?: string;
}

export interface GuardServerRequest {
  method: string;
  /** Path with query, e.g. /prefix/v1/chat/completions. */
  path: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body; undefined for GET or a body that is not JSON. */
  body: unknown;
}

export interface GuardServerOptions {
  rules?: GuardRule[];
  /** The model id served; a chat completion for another model gets vLLM's 404. */
  model?: string;
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
}

export interface GuardServer {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly model: string;
  /** Every request received, oldest first. */
  readonly requests: GuardServerRequest[];
  /** The chat completion requests only. */
  chatRequests(): GuardServerRequest[];
  setRules(rules: GuardRule[]): void;
  /** Answer every request with this status and an OpenAI error body. */
  fail(status?: number): void;
  /** Accept requests and never answer (until recover() or close()). */
  hang(): void;
  /** Answer chat completions with this content instead of a verdict. */
  garbage(content?: string): void;
  /** Back to answering from the rules; hanging requests are dropped. */
  recover(): void;
  close(): Promise<void>;
}

type Mode = { kind: 'rules' } | { kind: 'fail'; status: number } | { kind: 'hang' } | { kind: 'garbage'; content: string };

interface ChatBody {
  model?: unknown;
  messages?: Array<{ role?: unknown; content?: unknown }>;
}

const matches = (rule: GuardRule, content: string) =>
  typeof rule.match === 'function' ? rule.match(content) : typeof rule.match === 'string' ? content.includes(rule.match) : rule.match.test(content);

/** The answer of a Qwen3Guard-Gen model, in its own format. */
export function guardAnswer(rules: readonly GuardRule[], lastRole: string, content: string): string {
  const rule = rules.find((r) => matches(r, content));
  if (rule?.raw !== undefined) return rule.raw;
  const categories = rule?.categories && rule.categories.length > 0 ? rule.categories.join(', ') : 'None';
  const lines = [`Safety: ${rule?.safety ?? 'Safe'}`, `Categories: ${categories}`];
  if (lastRole === 'assistant') lines.push(`Refusal: ${rule?.refusal ? 'Yes' : 'No'}`);
  return lines.join('\n');
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const openAiError = (message: string, type: string, code: number) => ({ error: { message, type, param: null, code }, object: 'error', message, type, code });

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startGuardServer(options: GuardServerOptions = {}): Promise<GuardServer> {
  let rules = options.rules ?? [];
  let mode: Mode = { kind: 'rules' };
  const model = options.model ?? CONTENT_SAFETY_DEFAULT_MODEL;
  const requests: GuardServerRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let completions = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const path = req.url ?? '/';
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
    const route = path.split('?')[0]!;

    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) return send(res, 401, openAiError('Unauthorized', 'invalid_request_error', 401));
    if (mode.kind === 'fail') return send(res, mode.status, openAiError(`guard server told to fail with ${mode.status}`, 'InternalServerError', mode.status));
    if (mode.kind === 'hang') {
      hanging.add(res);
      res.once('close', () => hanging.delete(res));
      return;
    }
    if (req.method === 'GET' && route.endsWith('/v1/models')) {
      return send(res, 200, { object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'palisade-guard-server', max_model_len: 32768 }] });
    }
    if (req.method !== 'POST' || !route.endsWith('/v1/chat/completions')) return send(res, 404, openAiError(`no route for ${req.method} ${route}`, 'NotFoundError', 404));

    const chat = body as ChatBody | undefined;
    if (!chat || !Array.isArray(chat.messages) || chat.messages.length === 0) return send(res, 400, openAiError('messages: a non-empty list is required', 'BadRequestError', 400));
    if (chat.model !== model) return send(res, 404, openAiError(`The model \`${String(chat.model)}\` does not exist.`, 'NotFoundError', 404));
    const last = chat.messages[chat.messages.length - 1]!;
    const lastRole = typeof last.role === 'string' ? last.role : 'user';
    const content = typeof last.content === 'string' ? last.content : '';
    const answer = mode.kind === 'garbage' ? mode.content : guardAnswer(rules, lastRole, content);
    completions += 1;
    const promptTokens = chat.messages.reduce((n, m) => n + Math.ceil(String(m.content ?? '').length / 4), 0);
    const completionTokens = Math.ceil(answer.length / 4);
    send(res, 200, {
      id: `chatcmpl-guard-${completions}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, openAiError(error instanceof Error ? error.message : String(error), 'InternalServerError', 500));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const dropHanging = () => {
    for (const res of hanging) res.destroy();
    hanging.clear();
  };

  return {
    url: `http://127.0.0.1:${port}`,
    model,
    requests,
    chatRequests: () => requests.filter((r) => r.method === 'POST' && r.path.split('?')[0]!.endsWith('/v1/chat/completions')),
    setRules(next) {
      rules = next;
    },
    fail(status = 500) {
      mode = { kind: 'fail', status };
    },
    hang() {
      mode = { kind: 'hang' };
    },
    garbage(content = 'I am not sure what you mean.') {
      mode = { kind: 'garbage', content };
    },
    recover() {
      mode = { kind: 'rules' };
      dropHanging();
    },
    async close() {
      dropHanging();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
