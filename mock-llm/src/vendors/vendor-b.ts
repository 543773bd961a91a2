// vendor_b (Anthropic-style): Messages API with top-level `system`, its SSE event sequence,
// and the legacy Text Completions API (`\n\nHuman: … \n\nAssistant:` prompts).
import { vendorB } from '@palisade/core/vendors';
import { SSE_CONTENT_TYPE, sseEvent } from '../sse.js';
import { argumentsObject, asString, chunkArguments, chunkText, estimateTokens, lastUserText } from '../text.js';
import type { LlmRoute, RouteContext, StreamSpec } from '../types.js';
import { fromApi } from './api.js';

export const anthropicError = vendorB.errorBody;

const messagesPrompt = (ctx: RouteContext): string => lastUserText(ctx.body.messages);

/** The tool_use block of an answer asked for with x-mock-tool-arguments (its input parsed; `{}` when not JSON). */
function toolUse(ctx: RouteContext, input: unknown): Record<string, unknown> {
  return { type: 'tool_use', id: `toolu_${ctx.id}`, name: 'mock_tool', input };
}

function message(text: string, ctx: RouteContext): Record<string, unknown> {
  return {
    id: `msg_${ctx.id}`,
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content: ctx.toolArguments === undefined ? [{ type: 'text', text }] : [{ type: 'text', text }, toolUse(ctx, argumentsObject(ctx.toolArguments))],
    stop_reason: ctx.toolArguments === undefined ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: estimateTokens(messagesPrompt(ctx)), output_tokens: estimateTokens(text) },
  };
}

const messagesStream: StreamSpec = {
  when: (ctx) => ctx.body.stream === true,
  render(text, ctx) {
    const full = message(text, ctx);
    const start = { ...full, content: [], stop_reason: null, usage: { input_tokens: estimateTokens(messagesPrompt(ctx)), output_tokens: 1 } };
    const frames = [
      sseEvent({ type: 'message_start', message: start }, 'message_start'),
      sseEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
      sseEvent({ type: 'ping' }, 'ping'),
      ...chunkText(text).map((piece) =>
        sseEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } }, 'content_block_delta'),
      ),
      sseEvent({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      // A tool_use block: its input streamed as input_json_delta fragments.
      ...(ctx.toolArguments === undefined
        ? []
        : [
            sseEvent({ type: 'content_block_start', index: 1, content_block: toolUse(ctx, {}) }, 'content_block_start'),
            ...chunkArguments(ctx.toolArguments).map((partial_json) =>
              sseEvent({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json } }, 'content_block_delta'),
            ),
            sseEvent({ type: 'content_block_stop', index: 1 }, 'content_block_stop'),
          ]),
      sseEvent(
        { type: 'message_delta', delta: { stop_reason: full.stop_reason, stop_sequence: null }, usage: { output_tokens: estimateTokens(text) } },
        'message_delta',
      ),
      sseEvent({ type: 'message_stop' }, 'message_stop'),
    ];
    return { contentType: SSE_CONTENT_TYPE, frames };
  },
};

/** The text of the last `Human:` turn of a legacy prompt (the whole prompt when it has none). */
export function legacyHumanText(prompt: string): string {
  const at = prompt.lastIndexOf('Human:');
  if (at < 0) return prompt.trim();
  const rest = prompt.slice(at + 'Human:'.length);
  const end = rest.indexOf('\n\nAssistant:');
  return (end < 0 ? rest : rest.slice(0, end)).trim();
}

export const vendorBRoutes: LlmRoute[] = [
  {
    kind: 'llm',
    vendor: 'vendor_b',
    name: 'vendor_b.messages',
    ...fromApi(vendorB.apis.messages),
    prompt: messagesPrompt,
    reply: message,
    stream: messagesStream,
    error: anthropicError,
  },
  {
    kind: 'llm',
    vendor: 'vendor_b',
    name: 'vendor_b.complete',
    ...fromApi(vendorB.apis.complete),
    prompt: (ctx) => legacyHumanText(asString(ctx.body.prompt)),
    reply: (text, ctx) => ({
      type: 'completion',
      id: `compl_${ctx.id}`,
      completion: text,
      stop_reason: 'stop_sequence',
      stop: '\n\nHuman:',
      model: ctx.model,
      log_id: ctx.id,
    }),
    error: anthropicError,
  },
];
