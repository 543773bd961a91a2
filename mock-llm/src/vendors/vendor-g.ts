// vendor_g (Ollama-style local runner): /api/chat and /api/generate, NDJSON when stream is true,
// and /api/tags (the listing health checks call).
import { vendorG } from '@palisade/core/vendors';
import { NDJSON_CONTENT_TYPE, ndjsonLine } from '../sse.js';
import { asString, chunkText, estimateTokens, lastUserText } from '../text.js';
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

/** NDJSON: one object per piece with done:false, then a final done:true object with stats. */
function ndjson(piece: (text: string) => Record<string, unknown>, prompt: (ctx: RouteContext) => string): StreamSpec {
  return {
    when: (ctx) => ctx.body.stream === true,
    render(text, ctx) {
      const head = { model: ctx.model, created_at: createdAt(ctx) };
      const frames = chunkText(text).map((p) => ndjsonLine({ ...head, ...piece(p), done: false }));
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
    reply: (text, ctx) => ({ model: ctx.model, created_at: createdAt(ctx), ...chatPiece(text), done: true, ...stats(chatPrompt(ctx), text) }),
    stream: ndjson(chatPiece, chatPrompt),
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
