// vendor_j (YandexGPT-style): foundationModels completion with `text` message fields.
import { estimateTokens, lastUserText } from '../text.js';
import { vendorJ } from '@palisade/core/vendors';
import type { LlmRoute, RouteContext } from '../types.js';
import { fromApi } from './api.js';

const yandexError = vendorJ.errorBody;

const prompt = (ctx: RouteContext): string => lastUserText(ctx.body.messages, 'text');

export const vendorJRoutes: LlmRoute[] = [
  {
    kind: 'llm',
    vendor: 'vendor_j',
    name: 'vendor_j.completion',
    ...fromApi(vendorJ.apis.completion),
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
