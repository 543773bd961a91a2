// vendor_e (Cohere-style): v1 generate, v1 chat (single `message`) and v2 chat (messages).
import { asString, estimateTokens, firstString, lastUserText } from '../text.js';
import { vendorE } from '@palisade/core/vendors';
import type { LlmRoute, RouteContext } from '../types.js';
import { fromApi } from './api.js';

export const cohereError = vendorE.errorBody;

function billed(prompt: string, text: string): Record<string, unknown> {
  return { api_version: { version: '1' }, billed_units: { input_tokens: estimateTokens(prompt), output_tokens: estimateTokens(text) } };
}

const v2Prompt = (ctx: RouteContext): string => lastUserText(ctx.body.messages);

export const vendorERoutes: LlmRoute[] = [
  {
    kind: 'llm',
    vendor: 'vendor_e',
    name: 'vendor_e.generate',
    ...fromApi(vendorE.apis.generate),
    prompt: (ctx) => firstString(ctx.body.prompt),
    reply: (text, ctx) => ({
      id: ctx.id,
      generations: [{ id: `gen-${ctx.id}`, text, finish_reason: 'COMPLETE' }],
      prompt: firstString(ctx.body.prompt),
      meta: billed(firstString(ctx.body.prompt), text),
    }),
    error: cohereError,
  },
  {
    kind: 'llm',
    vendor: 'vendor_e',
    name: 'vendor_e.chat_v1',
    ...fromApi(vendorE.apis.chat_v1),
    prompt: (ctx) => asString(ctx.body.message),
    reply: (text, ctx) => ({
      response_id: ctx.id,
      generation_id: `gen-${ctx.id}`,
      text,
      finish_reason: 'COMPLETE',
      meta: billed(asString(ctx.body.message), text),
    }),
    error: cohereError,
  },
  {
    kind: 'llm',
    vendor: 'vendor_e',
    name: 'vendor_e.chat',
    ...fromApi(vendorE.apis.chat),
    prompt: v2Prompt,
    reply: (text, ctx) => {
      const input = estimateTokens(v2Prompt(ctx));
      const output = estimateTokens(text);
      // A tool call asked for with x-mock-tool-arguments: v2 chat writes its arguments as a JSON text.
      const toolCalls = ctx.toolArguments === undefined ? {} : { tool_calls: [{ id: `call_${ctx.id}`, type: 'function', function: { name: 'mock_tool', arguments: ctx.toolArguments } }] };
      return {
        id: ctx.id,
        finish_reason: ctx.toolArguments === undefined ? 'COMPLETE' : 'TOOL_CALL',
        message: { role: 'assistant', content: [{ type: 'text', text }], ...toolCalls },
        usage: { billed_units: { input_tokens: input, output_tokens: output }, tokens: { input_tokens: input, output_tokens: output } },
      };
    },
    error: cohereError,
  },
];
