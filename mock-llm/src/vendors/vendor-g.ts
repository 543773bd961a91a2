// vendor_g (Ollama-style local runner): /api/chat and /api/generate, NDJSON when stream is true,
// and /api/tags (the listing health checks call).
import { vendorG } from '@palisade/core/vendors';
import { NDJSON_CONTENT_TYPE, ndjsonLine } from '../sse.js';
import { argumentsObject, asString, chunkText, estimateTokens, lastUserText } from '../text.js';
import type { LlmRoute, RouteContext, StreamSpec, VendorRoute } from '../types.js';
import { fromApi } from './api.js';

const ollamaError = vendorG.errorBody;

function stats(prompt: string, text: string): Record<string, unknown> {
  return {
    done_reason: 'stop',
    total_duration: 1_000_000,
    load_duration: 100_000,
    prompt_eval_count: estimateTokens(prompt),
    prompt_eval_duration: 200_000,
    eval_count: estimateTokens(text),
    eval_duration: 700_000,
  };
}

const chatPrompt = (ctx: RouteContext): string => lastUserText(ctx.body.messages);
const generatePrompt = (ctx: RouteContext): string => asString(ctx.body.prompt);
const createdAt = (ctx: RouteContext): string => new Date(ctx.now).toISOString();

/** A tool call asked for with x-mock-tool-arguments: the runner sends the call whole, its arguments an object. */
const toolCalls = (ctx: RouteContext): Record<string, unknown> =>
  ctx.toolArguments === undefined ? {} : { tool_calls: [{ function: { index: 0, name: 'mock_tool', arguments: argumentsObject(ctx.toolArguments) } }] };

/** NDJSON: one object per piece with done:false (chat: the tool call in a line of its own), then a final done:true object with stats. */
function ndjson(piece: (text: string) => Record<string, unknown>, prompt: (ctx: RouteContext) => string, calls?: (ctx: RouteContext) => Record<string, unknown>): StreamSpec {
  return {
    when: (ctx) => ctx.body.stream === true,
    render(text, ctx) {
      const head = { model: ctx.model, created_at: createdAt(ctx) };
      const frames = chunkText(text).map((p) => ndjsonLine({ ...head, ...piece(p), done: false }));
      if (calls && ctx.toolArguments !== undefined) frames.push(ndjsonLine({ ...head, message: { role: 'assistant', content: '', ...calls(ctx) }, done: false }));
      frames.push(ndjsonLine({ ...head, ...piece(''), done: true, ...stats(prompt(ctx), text) }));
      return { contentType: NDJSON_CONTENT_TYPE, frames };
    },
  };
}

const chatPiece = (content: string): Record<string, unknown> => ({ message: { role: 'assistant', content } });
const generatePiece = (response: string): Record<string, unknown> => ({ response });

const routes: LlmRoute[] = [
  {
    kind: 'llm',
    vendor: 'vendor_g',
    name: 'vendor_g.chat',
    ...fromApi(vendorG.apis.chat),
    prompt: chatPrompt,
    reply: (text, ctx) => ({ model: ctx.model, created_at: createdAt(ctx), message: { role: 'assistant', content: text, ...toolCalls(ctx) }, done: true, ...stats(chatPrompt(ctx), text) }),
    stream: ndjson(chatPiece, chatPrompt, toolCalls),
    error: ollamaError,
  },
  {
    kind: 'llm',
    vendor: 'vendor_g',
    name: 'vendor_g.generate',
    ...fromApi(vendorG.apis.generate),
    prompt: generatePrompt,
    reply: (text, ctx) => ({ model: ctx.model, created_at: createdAt(ctx), ...generatePiece(text), done: true, ...stats(generatePrompt(ctx), text) }),
    stream: ndjson(generatePiece, generatePrompt),
    error: ollamaError,
  },
];

export const vendorGRoutes: VendorRoute[] = [
  ...routes,
  {
    kind: 'plain',
    vendor: 'vendor_g',
    name: 'vendor_g.tags',
    ...fromApi(vendorG.apis.tags),
    handle: (ctx) => ({ body: { models: [{ name: 'mock-model:latest', model: 'mock-model:latest', modified_at: createdAt(ctx), size: 0 }] } }),
    error: ollamaError,
  },
];
