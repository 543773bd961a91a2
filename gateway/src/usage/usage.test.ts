import t from 'tap';
import { createMemoryStreams, UsageBatch, USAGE_STREAM } from '@palisade/core';
import type { UpstreamResponse } from '../upstream/index.js';
import { createUsageRecorder, requestModelOf, tokenUsageOf } from './index.js';

function answer(text: string, streamFormat?: 'sse' | 'ndjson'): UpstreamResponse {
  return {
    status: 200,
    headers: {},
    body: Buffer.from(text),
    text,
    contentType: streamFormat === 'sse' ? 'text/event-stream' : streamFormat === 'ndjson' ? 'application/x-ndjson' : 'application/json',
    isEventStream: streamFormat !== undefined,
    ...(streamFormat ? { streamFormat } : {}),
    durationMs: 1,
    attempts: 1,
  };
}

t.test('an answer is read once: the upstream span and the recorder share the parse', async (t) => {
  const text = JSON.stringify({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 30 } });
  let reads = 0;
  const counted = Object.defineProperty(answer(''), 'text', {
    get: () => {
      reads++;
      return text;
    },
  });
  const first = tokenUsageOf(counted);
  t.same(first, { input: 12, output: 30 });
  t.equal(tokenUsageOf(counted), first, 'the same usage again');
  t.equal(reads, 1, 'the text was read (and parsed) once');
  const none = answer('not json');
  t.equal(tokenUsageOf(none), null);
  t.equal(tokenUsageOf(none), null, 'an answer without usage is not read again either');
});

t.test('token usage of each vendor format, buffered', async (t) => {
  t.same(tokenUsageOf(answer(JSON.stringify({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 30, total_tokens: 42 } }))), { input: 12, output: 30 });
  t.same(tokenUsageOf(answer(JSON.stringify({ content: [], usage: { input_tokens: 7, output_tokens: 9 } }))), { input: 7, output: 9 });
  t.same(tokenUsageOf(answer(JSON.stringify({ candidates: [], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 6, totalTokenCount: 11 } }))), { input: 5, output: 6 });
  t.same(tokenUsageOf(answer(JSON.stringify({ response: 'hi', done: true, prompt_eval_count: 3, eval_count: 4 }))), { input: 3, output: 4 });
  t.same(tokenUsageOf(answer(JSON.stringify({ text: 'x', meta: { billed_units: { input_tokens: 8, output_tokens: 2 } } }))), { input: 8, output: 2 });
  t.same(tokenUsageOf(answer(JSON.stringify({ output: { message: {} }, usage: { inputTokens: 10, outputTokens: 1 } }))), { input: 10, output: 1 });
  t.equal(tokenUsageOf(answer(JSON.stringify({ choices: [{ message: { content: 'no usage here' } }] }))), null);
  t.equal(tokenUsageOf(answer('usage: not json')), null, 'not JSON: no usage, no error');
  t.same(tokenUsageOf(answer(JSON.stringify([{ usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2 } }, { usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 9 } }]))), { input: 5, output: 9 }, 'a JSON array of chunks');
});

t.test('token usage of streamed answers', async (t) => {
  const openai = [
    'data: {"choices":[{"delta":{"content":"Hel"}}]}',
    'data: {"choices":[{"delta":{"content":"lo"}}]}',
    'data: {"choices":[],"usage":{"prompt_tokens":21,"completion_tokens":2}}',
    'data: [DONE]',
  ].join('\n\n');
  t.same(tokenUsageOf(answer(`${openai}\n\n`, 'sse')), { input: 21, output: 2 });
  const anthropic = [
    'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":25,"output_tokens":1}}}',
    'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"Hi"}}',
    'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":15}}',
    'event: message_stop\ndata: {"type":"message_stop"}',
  ].join('\n\n');
  t.same(tokenUsageOf(answer(`${anthropic}\n\n`, 'sse')), { input: 25, output: 15 }, 'input from message_start, cumulative output from message_delta');
  const ndjson = ['{"message":{"content":"a"},"done":false}', '{"message":{"content":"b"},"done":true,"prompt_eval_count":11,"eval_count":5}'].join('\n');
  t.same(tokenUsageOf(answer(ndjson, 'ndjson')), { input: 11, output: 5 });
  // vendor_j writes its counts as strings (int64 in JSON); its stream repeats them, growing, in each line.
  const cumulative = [1, 4, 9].map((n) => JSON.stringify({ result: { alternatives: [{ message: { text: 'x'.repeat(n) } }], usage: { inputTextTokens: '6', completionTokens: String(n), totalTokens: String(6 + n) } } })).join('\n');
  t.same(tokenUsageOf(answer(cumulative, 'ndjson')), { input: 6, output: 9 });
  t.same(tokenUsageOf(answer(JSON.stringify({ result: { usage: { inputTextTokens: '12', completionTokens: '3' } } }))), { input: 12, output: 3 });
  t.equal(tokenUsageOf(answer('data: {"choices":[{"delta":{"content":"x"}}]}\n\n', 'sse')), null);
  // vendor_e v2 chat: `usage.billed_units` in an answer, in a stream the message-end's `delta.usage.billed_units`.
  t.same(tokenUsageOf(answer(JSON.stringify({ message: { content: [] }, usage: { billed_units: { input_tokens: 4, output_tokens: 6 }, tokens: { input_tokens: 70, output_tokens: 6 } } }))), { input: 4, output: 6 });
  const cohere = [
    'event: content-delta\ndata: {"type":"content-delta","index":0,"delta":{"message":{"content":{"text":"Hi"}}}}',
    'event: message-end\ndata: {"type":"message-end","delta":{"finish_reason":"COMPLETE","usage":{"billed_units":{"input_tokens":13,"output_tokens":2}}}}',
  ].join('\n\n');
  t.same(tokenUsageOf(answer(`${cohere}\n\n`, 'sse')), { input: 13, output: 2 });
});

t.test('the model a request names', async (t) => {
  t.equal(requestModelOf({ model: 'gpt-x', messages: [] }), 'gpt-x');
  t.equal(requestModelOf({ contents: [] }), '');
  t.equal(requestModelOf([1, 2]), '');
});

t.test('the recorder counts per minute and flushes batches through the stream', async (t) => {
  const streams = createMemoryStreams();
  t.teardown(() => streams.close());
  let clock = Date.parse('2026-05-01T10:00:10.000Z');
  const recorder = createUsageRecorder({ events: streams.events, now: () => clock, source: 'gw-1' });
  const call = (route: Parameters<typeof recorder.route>[1] | null, status: number, latencyMs: number, decision?: string, text?: string) => {
    const request = {};
    if (route) recorder.route(request, route);
    if (route && text) recorder.answer(request, answer(text));
    recorder.finish(request, { tenantId: 'fallback-tenant', status, latencyMs, decision });
  };
  const routed = { tenantId: 'acme', providerId: 'p1', providerName: 'Провайдер', model: 'm1', inspected: true };
  call(routed, 200, 40, 'allow', JSON.stringify({ usage: { prompt_tokens: 10, completion_tokens: 5 } }));
  call(routed, 200, 300, 'allow', JSON.stringify({ usage: { prompt_tokens: 1, completion_tokens: 2 } }));
  call(routed, 403, 20, 'block');
  call(null, 404, 1);
  clock += 60_000;
  call(routed, 200, 12_000, 'allow', JSON.stringify({ choices: [] }));
  await recorder.flush();
  t.equal(recorder.stats.counted, 5);

  await streams.events.ensureGroup(USAGE_STREAM, 'check');
  const entries = await streams.events.read(USAGE_STREAM, 'check', 'c', { count: 10 });
  t.equal(entries.length, 1, 'one batch per flush');
  const batch = UsageBatch.parse(entries[0]!.payload);
  t.equal(batch.source, 'gw-1');
  const find = (minute: string, decision: string) => batch.rollups.find((r) => r.minute === minute && r.decision === decision);
  const allowed = find('2026-05-01T10:00:00.000Z', 'ALLOW')!;
  t.match(allowed, { tenant_id: 'acme', provider_name: 'Провайдер', model: 'm1', status_class: '2xx', inspected: true, requests: 2, usage_reported: 2, input_tokens: 11, output_tokens: 7, latency_ms_sum: 340 });
  t.same(allowed.latency_buckets, [1, 0, 0, 1, 0, 0, 0, 0, 0, 0], '40 ms ≤ 50, 300 ms ≤ 500');
  t.match(find('2026-05-01T10:00:00.000Z', 'BLOCK'), { requests: 1, status_class: '4xx', usage_reported: 0 });
  t.match(find('2026-05-01T10:00:00.000Z', 'NONE'), { tenant_id: 'fallback-tenant', provider_id: '', inspected: false, status_class: '4xx' }, 'a call never routed is counted too');
  t.match(find('2026-05-01T10:01:00.000Z', 'ALLOW'), { requests: 1, usage_reported: 0, latency_buckets: [0, 0, 0, 0, 0, 0, 0, 0, 1, 0] });
  await recorder.flush();
  t.equal((await streams.events.read(USAGE_STREAM, 'check', 'c', { count: 10 })).length, 0, 'nothing counted: nothing sent');
});

t.test('a batch the stream refused is sent again with the same id', async (t) => {
  const streams = createMemoryStreams();
  t.teardown(() => streams.close());
  let failing = true;
  const sent: UsageBatch[] = [];
  const recorder = createUsageRecorder({
    events: {
      append: async (stream, payload) => {
        if (failing) throw new Error('stream down');
        sent.push(payload as UsageBatch);
        return streams.events.append(stream, payload);
      },
    },
  });
  recorder.finish({}, { tenantId: 't', status: 200, latencyMs: 1, decision: undefined });
  await t.rejects(recorder.flush(), /stream down/);
  t.equal(recorder.stats.unsent, 1);
  recorder.finish({}, { tenantId: 't', status: 200, latencyMs: 1, decision: undefined });
  failing = false;
  await recorder.flush();
  t.equal(sent.length, 2, 'the held batch, then the new one');
  t.not(sent[0]!.batch_id, sent[1]!.batch_id);
  t.equal(recorder.stats.unsent, 0);
});
