// vendor_d (Google-style): Gemini generateContent / streamGenerateContent (SSE with ?alt=sse,
// else a JSON array) and the legacy PaLM generateText. Paths are `/models/<model>:<action>`.
import { vendorD } from '@palisade/core/vendors';
import { SSE_CONTENT_TYPE, sseEvent } from '../sse.js';
import { argumentsObject, asArray, asObject, asString, chunkText, contentText, estimateTokens } from '../text.js';
import type { LlmRoute, RouteContext, StreamSpec } from '../types.js';
import { fromApi } from './api.js';

export const googleError = vendorD.errorBody;

/** Text of the last user turn: contents[].parts[].text (a content without role is the user's). */
function geminiPrompt(ctx: RouteContext): string {
  const contents = asArray(ctx.body.contents).map(asObject);
  const users = contents.filter((c) => c.role === undefined || c.role === 'user');
  const last = users.at(-1) ?? contents.at(-1);
  return last ? contentText(last.parts) : '';
}

function usageMetadata(ctx: RouteContext, text: string): Record<string, number> {
  const prompt = estimateTokens(geminiPrompt(ctx));
  const out = estimateTokens(text);
  return { promptTokenCount: prompt, candidatesTokenCount: out, totalTokenCount: prompt + out };
}

function response(ctx: RouteContext, text: string, finish: boolean, usageText: string): Record<string, unknown> {
  // A function call asked for with x-mock-tool-arguments comes whole in the last chunk.
  const call = finish && ctx.toolArguments !== undefined ? [{ functionCall: { name: 'mock_tool', args: argumentsObject(ctx.toolArguments) } }] : [];
  const candidate: Record<string, unknown> = { content: { parts: [{ text }, ...call], role: 'model' }, index: 0 };
  if (finish) candidate.finishReason = 'STOP';
  return { candidates: [candidate], usageMetadata: usageMetadata(ctx, usageText), modelVersion: ctx.model, responseId: ctx.id };
}

/** streamGenerateContent always streams; the real server frames SSE with CRLF. */
const geminiStream: StreamSpec = {
  when: () => true,
  render(text, ctx) {
    const pieces = chunkText(text);
    if (pieces.length === 0) pieces.push('');
    const chunks = pieces.map((piece, i) => response(ctx, piece, i === pieces.length - 1, text));
    if (ctx.query.alt === 'sse') return { contentType: SSE_CONTENT_TYPE, frames: chunks.map((c) => sseEvent(c, undefined, '\r\n')) };
    // Without alt=sse the answer is one JSON array, written element by element.
    const frames = chunks.map((c, i) => `${i === 0 ? '[' : ',\r\n'}${JSON.stringify(c)}`);
    frames.push(']');
    return { contentType: 'application/json; charset=utf-8', frames };
  },
};

const modelOf = (ctx: RouteContext): string | undefined => ctx.params.model;

export const vendorDRoutes: LlmRoute[] = [
  {
    kind: 'llm',
    vendor: 'vendor_d',
    name: 'vendor_d.generateContent',
    ...fromApi(vendorD.apis.generateContent),
    model: modelOf,
    prompt: geminiPrompt,
    reply: (text, ctx) => response(ctx, text, true, text),
    error: googleError,
  },
  {
    kind: 'llm',
    vendor: 'vendor_d',
    name: 'vendor_d.streamGenerateContent',
    ...fromApi(vendorD.apis.streamGenerateContent),
    model: modelOf,
    prompt: geminiPrompt,
    reply: (text, ctx) => [response(ctx, text, true, text)],
    stream: geminiStream,
    error: googleError,
  },
  {
    kind: 'llm',
    vendor: 'vendor_d',
    name: 'vendor_d.generateText',
    ...fromApi(vendorD.apis.generateText),
    model: modelOf,
    prompt: (ctx) => asString(asObject(ctx.body.prompt).text),
    reply: (text) => ({ candidates: [{ output: text, safetyRatings: [] }] }),
    error: googleError,
  },
];
