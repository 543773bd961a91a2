// vendor_j (YandexGPT-style): foundationModels completion with `text` message fields.
import { estimateTokens, lastUserText } from '../text.js';
import type { LlmRoute, RouteContext } from '../types.js';

const GRPC_CODES: Record<number, number> = { 400: 3, 401: 16, 403: 7, 404: 5, 429: 8, 500: 13, 503: 14, 504: 4 };

function yandexError(status: number, message: string): unknown {
  return { error: { grpcCode: GRPC_CODES[status] ?? 2, httpCode: status, message, httpStatus: String(status), details: [] } };
}

const prompt = (ctx: RouteContext): string => lastUserText(ctx.body.messages, 'text');

export const vendorJRoutes: LlmRoute[] = [
  {
    kind: 'llm',
    vendor: 'vendor_j',
    name: 'vendor_j.completion',
    method: 'POST',
    paths: ['/foundationModels/v1/completion'],
    required: ['messages'],
    model: (ctx) => (typeof ctx.body.modelUri === 'string' ? ctx.body.modelUri : undefined),
    prompt,
    reply: (text, ctx) => {
      const input = estimateTokens(prompt(ctx));
      const output = estimateTokens(text);
      return {
        result: {
          alternatives: [{ message: { role: 'assistant', text }, status: 'ALTERNATIVE_STATUS_FINAL' }],
          // The real API writes token counts as strings (int64 in JSON).
          usage: { inputTextTokens: String(input), completionTokens: String(output), totalTokens: String(input + output) },
          modelVersion: '23.10.2024',
        },
      };
    },
    error: yandexError,
  },
];
