// vendor_a (OpenAI-style) chat and legacy completions. The builders are shared by the
// compatible vendors: vendor_h (vLLM), vendor_c (Azure-style) and vendor_i (GigaChat-style).
import { vendorA, vendorH } from '@palisade/core/vendors';
import { SSE_CONTENT_TYPE, SSE_DONE, sseEvent } from '../sse.js';
import { asObject, chunkArguments, chunkText, estimateTokens, firstString, lastUserText, unixSeconds } from '../text.js';
import type { LlmRoute, RouteContext, StreamSpec, VendorId, VendorRoute } from '../types.js';
import { fromApi } from './api.js';

function usage(prompt: string, text: string): Record<string, number> {
  const promptTokens = estimateTokens(prompt);
  const completionTokens = estimateTokens(text);
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}

export function chatPrompt(ctx: RouteContext): string {
  return lastUserText(ctx.body.messages);
}

/** The tool call of an answer asked for with x-mock-tool-arguments. */
const toolCall = (ctx: RouteContext, args: string) => ({ id: `call_${ctx.id}`, type: 'function', function: { name: 'mock_tool', arguments: args } });

export function chatCompletion(text: string, ctx: RouteContext): unknown {
  const message =
    ctx.toolArguments === undefined
      ? { role: 'assistant', content: text, refusal: null }
      : { role: 'assistant', content: null, refusal: null, tool_calls: [toolCall(ctx, ctx.toolArguments)] };
  return {
    id: `chatcmpl-${ctx.id}`,
    object: 'chat.completion',
    created: unixSeconds(ctx.now),
    model: ctx.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: ctx.toolArguments === undefined ? 'stop' : 'tool_calls' }],
    usage: usage(chatPrompt(ctx), text),
    system_fingerprint: null,
  };
}

const wantsUsage = (ctx: RouteContext): boolean => asObject(ctx.body.stream_options).include_usage === true;

/** chat.completion.chunk sequence: role chunk, one delta per piece, finish chunk, [DONE]. */
export const chatStream: StreamSpec = {
  when: (ctx) => ctx.body.stream === true,
  render(text, ctx) {
    const base = { id: `chatcmpl-${ctx.id}`, object: 'chat.completion.chunk', created: unixSeconds(ctx.now), model: ctx.model, system_fingerprint: null };
    const chunk = (delta: object, finish: string | null): string =>
      sseEvent({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
    const frames = [chunk({ role: 'assistant', content: '' }, null)];
    if (ctx.toolArguments === undefined) {
      for (const piece of chunkText(text)) frames.push(chunk({ content: piece }, null));
      frames.push(chunk({}, 'stop'));
    } else {
      // A tool call: its id and name first, then its arguments in fragments, as the API streams them.
      frames.push(chunk({ tool_calls: [{ index: 0, ...toolCall(ctx, '') }] }, null));
      for (const piece of chunkArguments(ctx.toolArguments)) frames.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }, null));
      frames.push(chunk({}, 'tool_calls'));
    }
    if (wantsUsage(ctx)) frames.push(sseEvent({ ...base, choices: [], usage: usage(chatPrompt(ctx), text) }));
    frames.push(SSE_DONE);
    return { contentType: SSE_CONTENT_TYPE, frames };
  },
};

export function completionPrompt(ctx: RouteContext): string {
  return firstString(ctx.body.prompt);
}

export function textCompletion(text: string, ctx: RouteContext): unknown {
  return {
    id: `cmpl-${ctx.id}`,
    object: 'text_completion',
    created: unixSeconds(ctx.now),
    model: ctx.model,
    choices: [{ index: 0, text, logprobs: null, finish_reason: 'stop' }],
    usage: usage(completionPrompt(ctx), text),
  };
}

/** Legacy completions stream: text_completion objects with choices[0].text pieces, then [DONE]. */
export const completionStream: StreamSpec = {
  when: (ctx) => ctx.body.stream === true,
  render(text, ctx) {
    const base = { id: `cmpl-${ctx.id}`, object: 'text_completion', created: unixSeconds(ctx.now), model: ctx.model };
    const chunk = (piece: string, finish: string | null): string =>
      sseEvent({ ...base, choices: [{ index: 0, text: piece, logprobs: null, finish_reason: finish }] });
    const frames = chunkText(text).map((piece) => chunk(piece, null));
    frames.push(chunk('', 'stop'), SSE_DONE);
    return { contentType: SSE_CONTENT_TYPE, frames };
  },
};

export const openAiError = vendorA.errorBody;

/** Chat + completions routes of an OpenAI-compatible server mounted under `prefix`. */
export function openAiRoutes(vendor: VendorId, prefix: string): LlmRoute[] {
  return [
    {
      kind: 'llm',
      vendor,
      name: `${vendor}.chat`,
      ...fromApi(vendorA.apis.chat, prefix),
      prompt: chatPrompt,
      reply: chatCompletion,
      stream: chatStream,
      error: openAiError,
    },
    {
      kind: 'llm',
      vendor,
      name: `${vendor}.completions`,
      ...fromApi(vendorA.apis.completions, prefix),
      prompt: completionPrompt,
      reply: textCompletion,
      stream: completionStream,
      error: openAiError,
    },
  ];
}

/** The Responses API's prompt: `input` as a string, or the last user message of its item list. */
export function responsesPrompt(ctx: RouteContext): string {
  const input = ctx.body.input;
  return typeof input === 'string' ? input : lastUserText(input);
}

/** The Responses API's event stream: the text as output_text deltas, then the done events and response.completed repeating it whole. */
const responsesStream: StreamSpec = {
  when: (ctx) => ctx.body.stream === true,
  render(text, ctx) {
    const itemId = `msg_${ctx.id}`;
    const whole = responsesObject(text, ctx);
    const part = (t: string) => ({ type: 'output_text', text: t, annotations: [] });
    const item = (content: unknown[], status: string) => ({ type: 'message', id: itemId, status, role: 'assistant', content });
    const at = { item_id: itemId, output_index: 0, content_index: 0 };
    let sequence = 0;
    const event = (type: string, body: object) => sseEvent({ type, sequence_number: sequence++, ...body }, type);
    if (ctx.toolArguments !== undefined) {
      // A function call: its arguments as function_call_arguments deltas, then the events repeating them.
      const args = ctx.toolArguments;
      const call = (a: string, status: string) => ({ ...functionCall(ctx, a), status });
      const callAt = { item_id: call('', '').id, output_index: 0 };
      return {
        contentType: SSE_CONTENT_TYPE,
        frames: [
          event('response.created', { response: { ...whole, status: 'in_progress', output: [] } }),
          event('response.output_item.added', { output_index: 0, item: call('', 'in_progress') }),
          ...chunkArguments(args).map((delta) => event('response.function_call_arguments.delta', { ...callAt, delta })),
          event('response.function_call_arguments.done', { ...callAt, arguments: args }),
          event('response.output_item.done', { output_index: 0, item: call(args, 'completed') }),
          event('response.completed', { response: whole }),
        ],
      };
    }
    const frames = [
      event('response.created', { response: { ...whole, status: 'in_progress', output: [] } }),
      event('response.output_item.added', { output_index: 0, item: item([], 'in_progress') }),
      event('response.content_part.added', { ...at, part: part('') }),
      ...chunkText(text).map((delta) => event('response.output_text.delta', { ...at, delta })),
      event('response.output_text.done', { ...at, text }),
      event('response.content_part.done', { ...at, part: part(text) }),
      event('response.output_item.done', { output_index: 0, item: item([part(text)], 'completed') }),
      event('response.completed', { response: whole }),
    ];
    return { contentType: SSE_CONTENT_TYPE, frames };
  },
};

/** The Responses API's function_call output item of an answer asked for with x-mock-tool-arguments. */
const functionCall = (ctx: RouteContext, args: string) => ({ type: 'function_call', id: `fc_${ctx.id}`, call_id: `call_${ctx.id}`, name: 'mock_tool', arguments: args });

function responsesObject(text: string, ctx: RouteContext): Record<string, unknown> {
  return {
    id: `resp_${ctx.id}`,
    object: 'response',
    created_at: unixSeconds(ctx.now),
    model: ctx.model,
    status: 'completed',
    output:
      ctx.toolArguments === undefined
        ? [{ type: 'message', id: `msg_${ctx.id}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }]
        : [{ ...functionCall(ctx, ctx.toolArguments), status: 'completed' }],
    usage: { input_tokens: estimateTokens(responsesPrompt(ctx)), output_tokens: estimateTokens(text), total_tokens: estimateTokens(responsesPrompt(ctx)) + estimateTokens(text) },
  };
}

/** POST /v1/responses: one message item with an output_text part (streamed as the API's events). */
const responsesRoute: VendorRoute = {
  kind: 'llm',
  vendor: 'vendor_a',
  name: 'vendor_a.responses',
  ...fromApi(vendorA.apis.responses),
  prompt: responsesPrompt,
  reply: responsesObject,
  stream: responsesStream,
  error: openAiError,
};

/** GET /v1/models: the listing OpenAI-compatible clients and health checks call. */
const modelList: VendorRoute = {
  kind: 'plain',
  vendor: 'vendor_a',
  name: 'vendor_a.models',
  method: 'GET',
  paths: [...fromApi(vendorA.apis.models).paths, ...fromApi(vendorH.apis.models, '/vendor_h').paths],
  handle: (ctx) => ({
    body: { object: 'list', data: [{ id: 'mock-model', object: 'model', created: unixSeconds(ctx.now), owned_by: 'mock-llm' }] },
  }),
  error: openAiError,
};

/** vendor_a at its own paths; vendor_h (vLLM) is the same format, also under /vendor_h. */
export const vendorARoutes: VendorRoute[] = [...openAiRoutes('vendor_a', ''), ...openAiRoutes('vendor_h', '/vendor_h'), responsesRoute, modelList];
