// vendor_e (Cohere-style): v1 generate, v1 chat (single `message`) and v2 chat (messages).
import { asString, chunkArguments, chunkText, estimateTokens, firstString, lastUserText } from '../text.js';
import { vendorE } from '@palisade/core/vendors';
import { SSE_CONTENT_TYPE, sseEvent } from '../sse.js';
import type { LlmRoute, RouteContext, StreamSpec } from '../types.js';
import { fromApi } from './api.js';

export const cohereError = vendorE.errorBody;

function billed(prompt: string, text: string): Record<string, unknown> {
  return { api_version: { version: '1' }, billed_units: { input_tokens: estimateTokens(prompt), output_tokens: estimateTokens(text) } };
}

const v2Prompt = (ctx: RouteContext): string => lastUserText(ctx.body.messages);

function v2Usage(text: string, ctx: RouteContext): Record<string, unknown> {
  const input = estimateTokens(v2Prompt(ctx));
  const output = estimateTokens(text);
  return { billed_units: { input_tokens: input, output_tokens: output }, tokens: { input_tokens: input, output_tokens: output } };
}

/** A tool call asked for with x-mock-tool-arguments: v2 chat writes its arguments as a JSON text. */
const v2ToolCall = (ctx: RouteContext, args: string) => ({ id: `call_${ctx.id}`, type: 'function', function: { name: 'mock_tool', arguments: args } });

/** v2 chat's SSE events, each named by its type: the text block's deltas, a tool call's argument fragments, message-end with the usage. */
const v2ChatStream: StreamSpec = {
  when: (ctx) => ctx.body.stream === true,
  render(text, ctx) {
    const event = (data: Record<string, unknown>) => sseEvent(data, String(data.type));
    const message = (m: Record<string, unknown>) => ({ message: m });
    const frames = [
      event({ id: ctx.id, type: 'message-start', delta: message({ role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] }) }),
      event({ type: 'content-start', index: 0, delta: message({ content: { type: 'text', text: '' } }) }),
      ...chunkText(text).map((piece) => event({ type: 'content-delta', index: 0, delta: message({ content: { text: piece } }) })),
      event({ type: 'content-end', index: 0 }),
    ];
    if (ctx.toolArguments !== undefined) {
      frames.push(event({ type: 'tool-call-start', index: 0, delta: message({ tool_calls: v2ToolCall(ctx, '') }) }));
      for (const piece of chunkArguments(ctx.toolArguments)) frames.push(event({ type: 'tool-call-delta', index: 0, delta: message({ tool_calls: { function: { arguments: piece } } }) }));
      frames.push(event({ type: 'tool-call-end', index: 0 }));
    }
    frames.push(event({ type: 'message-end', delta: { finish_reason: ctx.toolArguments === undefined ? 'COMPLETE' : 'TOOL_CALL', usage: v2Usage(text, ctx) } }));
    return { contentType: SSE_CONTENT_TYPE, frames };
  },
};

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
      const toolCalls = ctx.toolArguments === undefined ? {} : { tool_calls: [v2ToolCall(ctx, ctx.toolArguments)] };
      return {
        id: ctx.id,
        finish_reason: ctx.toolArguments === undefined ? 'COMPLETE' : 'TOOL_CALL',
        message: { role: 'assistant', content: [{ type: 'text', text }], ...toolCalls },
        usage: v2Usage(text, ctx),
      };
    },
    stream: v2ChatStream,
    error: cohereError,
  },
];
