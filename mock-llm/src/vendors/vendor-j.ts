// vendor_j (YandexGPT-style): foundationModels completion with `text` message fields. With
// `completionOptions.stream: true` it streams NDJSON lines, each repeating the whole text so far.
import { argumentsObject, asObject, chunkText, estimateTokens, lastUserText } from '../text.js';
import { vendorJ } from '@palisade/core/vendors';
import { NDJSON_CONTENT_TYPE, ndjsonLine } from '../sse.js';
import type { LlmRoute, RouteContext, StreamSpec } from '../types.js';
import { fromApi } from './api.js';

const yandexError = vendorJ.errorBody;

const prompt = (ctx: RouteContext): string => lastUserText(ctx.body.messages, 'text');

/** The answer so far as the API writes it: one alternative, its status, the usage up to here. */
function result(ctx: RouteContext, text: string, status: string): Record<string, unknown> {
  const input = estimateTokens(prompt(ctx));
  const output = estimateTokens(text);
  // A tool call asked for with x-mock-tool-arguments ends the answer (status TOOL_CALLS), its arguments an object.
  const toolCalls = ctx.toolArguments !== undefined && status !== 'ALTERNATIVE_STATUS_PARTIAL';
  const message = toolCalls
    ? { role: 'assistant', text, toolCallList: { toolCalls: [{ functionCall: { name: 'mock_tool', arguments: argumentsObject(ctx.toolArguments ?? '') } }] } }
    : { role: 'assistant', text };
  return {
    result: {
      alternatives: [{ message, status: toolCalls ? 'ALTERNATIVE_STATUS_TOOL_CALLS' : status }],
      // The real API writes token counts as strings (int64 in JSON).
      usage: { inputTextTokens: String(input), completionTokens: String(output), totalTokens: String(input + output) },
      modelVersion: '23.10.2024',
    },
  };
}

/** Cumulative NDJSON: a PARTIAL line per piece carrying the text so far, then the FINAL line with all of it. */
const cumulativeStream: StreamSpec = {
  when: (ctx) => asObject(ctx.body.completionOptions).stream === true,
  render(text, ctx) {
    const frames: string[] = [];
    let sofar = '';
    for (const piece of chunkText(text)) {
      sofar += piece;
      frames.push(ndjsonLine(result(ctx, sofar, 'ALTERNATIVE_STATUS_PARTIAL')));
    }
    frames.push(ndjsonLine(result(ctx, text, 'ALTERNATIVE_STATUS_FINAL')));
    return { contentType: NDJSON_CONTENT_TYPE, frames };
  },
};

export const vendorJRoutes: LlmRoute[] = [
  {
    kind: 'llm',
    vendor: 'vendor_j',
    name: 'vendor_j.completion',
    ...fromApi(vendorJ.apis.completion),
    model: (ctx) => (typeof ctx.body.modelUri === 'string' ? ctx.body.modelUri : undefined),
    prompt,
    reply: (text, ctx) => result(ctx, text, 'ALTERNATIVE_STATUS_FINAL'),
    stream: cumulativeStream,
    error: yandexError,
  },
];
