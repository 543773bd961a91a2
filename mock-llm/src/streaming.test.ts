// stream:true answers: parse each vendor's stream to its end marker and reassemble the text.
import t from 'tap';
import { collectStreamText, parseSse } from './testing/stream-text.js';
import { call, startMock } from './testing/index.js';

const chat = (text: string): Record<string, unknown> => ({ model: 'm', stream: true, messages: [{ role: 'user', content: text }] });

t.test('vendor_a-format chat streams SSE chunks for vendor_a, vendor_h, vendor_c and vendor_i', async (t) => {
  const { url } = await startMock(t);
  const token = await call(`${url}/api/v2/oauth`, {
    body: 'scope=GIGACHAT_API_PERS',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('mock-client:mock-secret').toString('base64')}` },
  });
  const targets: Array<[string, Record<string, string>]> = [
    ['/v1/chat/completions', {}],
    ['/vendor_h/v1/chat/completions', {}],
    ['/openai/deployments/d/chat/completions?api-version=2024-02-01', { 'api-key': 'k' }],
    ['/api/v1/chat/completions', { authorization: `Bearer ${token.json.access_token}` }],
  ];
  for (const [path, headers] of targets) {
    const r = await call(`${url}${path}`, { body: chat('stream these five words'), headers });
    t.equal(r.status, 200, path);
    t.match(r.headers.get('content-type'), /^text\/event-stream/, path);
    const events = parseSse(r.text);
    t.equal(events.at(-1)?.data, '[DONE]', `${path} ends with [DONE]`);
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    t.ok(chunks.every((c) => c.object === 'chat.completion.chunk'), 'all chunks are chat.completion.chunk');
    t.equal(chunks.at(-1).choices[0].finish_reason, 'stop', 'final chunk has finish_reason');
    const got = collectStreamText('vendor_a', r.text);
    t.equal(got.text, 'Echo: stream these five words', path);
    t.ok(got.done);
    t.ok(got.pieces >= 3, 'answer split into several pieces');
  }
});

t.test('vendor_a chat stream with include_usage adds a usage chunk', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/v1/chat/completions`, { body: { ...chat('u'), stream_options: { include_usage: true } } });
  const events = parseSse(r.text);
  const usageChunk = JSON.parse(events.at(-2)?.data ?? '{}');
  t.same(usageChunk.choices, []);
  t.type(usageChunk.usage.total_tokens, 'number');
});

t.test('vendor_a legacy completions stream text pieces', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/v1/completions`, { body: { prompt: 'legacy stream here', stream: true } });
  t.match(r.headers.get('content-type'), /^text\/event-stream/);
  const got = collectStreamText('vendor_a', r.text);
  t.equal(got.text, 'Echo: legacy stream here');
  t.ok(got.done);
});

t.test('vendor_b messages stream the full event sequence', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/v1/messages`, { body: { model: 'c', max_tokens: 5, stream: true, messages: [{ role: 'user', content: 'anthropic style stream' }] } });
  t.match(r.headers.get('content-type'), /^text\/event-stream/);
  const events = parseSse(r.text);
  const types = events.map((e) => e.event);
  t.same(types.filter((e) => e !== 'content_block_delta'), ['message_start', 'content_block_start', 'ping', 'content_block_stop', 'message_delta', 'message_stop']);
  t.ok(types.filter((e) => e === 'content_block_delta').length >= 3, 'several deltas');
  for (const e of events) t.equal(JSON.parse(e.data).type, e.event, `data.type matches event ${e.event}`);
  t.equal(JSON.parse(events[0]?.data ?? '{}').message.model, 'c');
  const delta = JSON.parse(events.find((e) => e.event === 'content_block_delta')?.data ?? '{}');
  t.equal(delta.delta.type, 'text_delta');
  const got = collectStreamText('vendor_b', r.text);
  t.equal(got.text, 'Echo: anthropic style stream');
  t.ok(got.done);
});

t.test('vendor_d streamGenerateContent with alt=sse and as a JSON array', async (t) => {
  const { url } = await startMock(t);
  const body = { contents: [{ role: 'user', parts: [{ text: 'gemini streaming text' }] }] };
  const sse = await call(`${url}/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse`, { body });
  t.match(sse.headers.get('content-type'), /^text\/event-stream/);
  t.match(sse.text, /^data: \{/);
  const events = parseSse(sse.text);
  t.ok(events.length >= 3, 'several chunks');
  t.equal(JSON.parse(events.at(-1)?.data ?? '{}').candidates[0].finishReason, 'STOP');
  const got = collectStreamText('vendor_d', sse.text);
  t.equal(got.text, 'Echo: gemini streaming text');
  t.ok(got.done);

  const array = await call(`${url}/v1beta/models/gemini-2.0-flash:streamGenerateContent`, { body });
  t.match(array.headers.get('content-type'), /application\/json/);
  t.ok(Array.isArray(array.json));
  t.equal(collectStreamText('vendor_d', array.text).text, 'Echo: gemini streaming text');
});

t.test('vendor_g streams NDJSON for chat and generate', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/api/chat`, { body: chat('ollama lines please') });
  t.match(r.headers.get('content-type'), /application\/x-ndjson/);
  const lines = r.text.trim().split('\n').map((l) => JSON.parse(l));
  t.ok(lines.length >= 4);
  t.equal(lines.at(-1).done, true);
  t.ok(lines.slice(0, -1).every((l) => l.done === false));
  t.same(collectStreamText('vendor_g', r.text), { text: 'Echo: ollama lines please', done: true, pieces: lines.length - 1 });
  const gen = await call(`${url}/api/generate`, { body: { prompt: 'gen lines', stream: true } });
  t.equal(collectStreamText('vendor_g', gen.text).text, 'Echo: gen lines');
});

t.test('x-mock-reply and chunk delay apply to streams', async (t) => {
  const { url } = await startMock(t);
  const started = Date.now();
  const r = await call(`${url}/v1/chat/completions`, { body: chat('ignored'), headers: { 'x-mock-reply': 'one two three', 'x-mock-chunk-delay-ms': '20' } });
  const events = parseSse(r.text);
  t.ok(Date.now() - started >= 20 * (events.length - 1) - 5, 'frames were spread over time');
  t.equal(collectStreamText('vendor_a', r.text).text, 'one two three');
});

t.test('without stream:true the same routes answer one JSON body', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/v1/messages`, { body: { messages: [{ role: 'user', content: 'plain' }], stream: false } });
  t.match(r.headers.get('content-type'), /application\/json/);
  t.equal(r.json.content[0].text, 'Echo: plain');
});

t.test('x-mock-tool-arguments: the answer is a tool call, its arguments in small fragments (vendor_a chat and Responses) or input_json_delta (vendor_b)', async (t) => {
  const { url } = await startMock(t);
  const args = '{"to": "john.smith@example.org", "n": 3}';
  const headers = { 'x-mock-tool-arguments': args };
  const streamed = await call(`${url}/v1/chat/completions`, { body: chat('use the tool'), headers });
  const chunks = parseSse(streamed.text)
    .slice(0, -1)
    .map((e) => JSON.parse(e.data) as { choices: Array<{ delta: { tool_calls?: Array<{ function: { name?: string; arguments: string } }> }; finish_reason: string | null }> });
  const fragments = chunks.map((c) => c.choices[0]?.delta.tool_calls?.[0]?.function.arguments).filter((a) => a !== undefined && a !== '');
  t.equal(fragments.join(''), args);
  t.ok(fragments.length > 5, 'the arguments come in small fragments');
  t.equal(chunks.at(-1)?.choices[0]?.finish_reason, 'tool_calls');
  const buffered = await call(`${url}/v1/chat/completions`, { body: { ...chat('use the tool'), stream: false }, headers });
  t.match(buffered.json.choices[0], { message: { content: null, tool_calls: [{ type: 'function', function: { name: 'mock_tool', arguments: args } }] }, finish_reason: 'tool_calls' });

  const messages = await call(`${url}/v1/messages`, { body: { model: 'c', max_tokens: 5, stream: true, messages: [{ role: 'user', content: 'x' }] }, headers });
  const events = parseSse(messages.text).map((e) => JSON.parse(e.data) as { type: string; index?: number; delta?: { partial_json?: string; stop_reason?: string } });
  t.equal(events.filter((e) => e.index === 1 && e.delta?.partial_json !== undefined).map((e) => e.delta!.partial_json).join(''), args);
  t.equal(events.find((e) => e.type === 'message_delta')?.delta?.stop_reason, 'tool_use');
  const whole = await call(`${url}/v1/messages`, { body: { model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }, headers });
  t.match(whole.json.content[1], { type: 'tool_use', name: 'mock_tool', input: { to: 'john.smith@example.org', n: 3 } });

  const responses = await call(`${url}/v1/responses`, { body: { model: 'm', input: 'x', stream: true }, headers });
  const frames = parseSse(responses.text).map((e) => JSON.parse(e.data) as { type: string; delta?: string; arguments?: string; response?: { output: Array<{ arguments: string }> } });
  t.equal(frames.filter((e) => e.type === 'response.function_call_arguments.delta').map((e) => e.delta).join(''), args);
  t.equal(frames.find((e) => e.type === 'response.function_call_arguments.done')?.arguments, args);
  t.equal(frames.at(-1)?.response?.output[0]?.arguments, args);
  const item = await call(`${url}/v1/responses`, { body: { model: 'm', input: 'x' }, headers });
  t.match(item.json.output[0], { type: 'function_call', name: 'mock_tool', arguments: args });
});

t.test('vendor_j streams cumulative NDJSON on completionOptions.stream: each line the whole text so far, the last FINAL', async (t) => {
  const { url } = await startMock(t);
  const body = { modelUri: 'gpt://f/m/latest', completionOptions: { stream: true }, messages: [{ role: 'user', text: 'yandex lines please' }] };
  const r = await call(`${url}/foundationModels/v1/completion`, { body });
  t.match(r.headers.get('content-type'), /application\/x-ndjson/);
  const lines = r.text.trim().split('\n').map((l) => JSON.parse(l) as { result: { alternatives: Array<{ message: { text: string }; status: string }>; usage: { completionTokens: string } } });
  const texts = lines.map((l) => l.result.alternatives[0]!.message.text);
  t.ok(lines.length >= 4);
  t.ok(texts.every((text, i) => i === 0 || (text.startsWith(texts[i - 1]!) && text.length >= texts[i - 1]!.length)), 'each line extends the one before');
  t.equal(texts.at(-1), 'Echo: yandex lines please');
  t.same(lines.map((l) => l.result.alternatives[0]!.status).slice(-2), ['ALTERNATIVE_STATUS_PARTIAL', 'ALTERNATIVE_STATUS_FINAL']);
  t.match(lines.at(-1)!.result.usage, { completionTokens: /^\d+$/ }, 'counts as strings');
  const whole = await call(`${url}/foundationModels/v1/completion`, { body: { ...body, completionOptions: {} } });
  t.match(whole.json.result.alternatives[0], { message: { text: 'Echo: yandex lines please' }, status: 'ALTERNATIVE_STATUS_FINAL' });
});

t.test('x-mock-tool-arguments for vendor_e v2 chat (a JSON text), vendor_g chat and vendor_j (objects)', async (t) => {
  const { url } = await startMock(t);
  const args = '{"to": "john.smith@example.org", "n": 3}';
  const headers = { 'x-mock-tool-arguments': args };
  const cohere = await call(`${url}/v2/chat`, { body: { ...chat('x'), stream: false }, headers });
  t.match(cohere.json, { finish_reason: 'TOOL_CALL', message: { tool_calls: [{ type: 'function', function: { name: 'mock_tool', arguments: args } }] } });
  const ollama = await call(`${url}/api/chat`, { body: { ...chat('x'), stream: false }, headers });
  t.match(ollama.json.message.tool_calls, [{ function: { name: 'mock_tool', arguments: { to: 'john.smith@example.org', n: 3 } } }]);
  const ollamaStream = await call(`${url}/api/chat`, { body: chat('x'), headers });
  const calls = ollamaStream.text
    .trim()
    .split('\n')
    .flatMap((l) => ((JSON.parse(l) as { message?: { tool_calls?: unknown[] } }).message?.tool_calls ?? []) as Array<{ function: { arguments: unknown } }>);
  t.same(calls.map((c) => c.function.arguments), [{ to: 'john.smith@example.org', n: 3 }], 'the call whole in one line');
  const body = { modelUri: 'gpt://f/m/latest', completionOptions: { stream: true }, messages: [{ role: 'user', text: 'x' }] };
  const yandex = (await call(`${url}/foundationModels/v1/completion`, { body, headers })).text.trim().split('\n').map((l) => JSON.parse(l) as { result: { alternatives: Array<Record<string, any>> } });
  t.match(yandex.at(-1)!.result.alternatives[0], { status: 'ALTERNATIVE_STATUS_TOOL_CALLS', message: { toolCallList: { toolCalls: [{ functionCall: { name: 'mock_tool', arguments: { to: 'john.smith@example.org', n: 3 } } }] } } });
  t.notOk(yandex[0]!.result.alternatives[0]!.message.toolCallList, 'partial lines carry text only');
});

t.test('vendor_e v2 chat streams SSE events named by their type: content deltas, a tool call in fragments, message-end with usage', async (t) => {
  const { url } = await startMock(t);
  const args = '{"to": "john.smith@example.org", "n": 3}';
  const r = await call(`${url}/v2/chat`, { body: chat('cohere stream please'), headers: { 'x-mock-tool-arguments': args } });
  t.match(r.headers.get('content-type'), /^text\/event-stream/);
  const events = parseSse(r.text);
  const frames = events.map((e) => JSON.parse(e.data) as { type: string; delta?: Record<string, any> });
  t.same(events.map((e) => e.event), frames.map((f) => f.type), 'each event named by its type');
  t.same([frames[0]!.type, frames.at(-1)!.type], ['message-start', 'message-end']);
  const text = frames.filter((f) => f.type === 'content-delta').map((f) => f.delta!.message.content.text as string);
  t.ok(text.length > 1, 'several deltas');
  t.equal(text.join(''), 'Echo: cohere stream please');
  const fragments = frames.filter((f) => f.type === 'tool-call-delta').map((f) => f.delta!.message.tool_calls.function.arguments as string);
  t.ok(fragments.length > 1);
  t.equal(fragments.join(''), args);
  t.match(frames.find((f) => f.type === 'tool-call-start'), { index: 0, delta: { message: { tool_calls: { function: { name: 'mock_tool', arguments: '' } } } } });
  t.match(frames.at(-1), { delta: { finish_reason: 'TOOL_CALL', usage: { billed_units: { input_tokens: Number, output_tokens: Number } } } });
});
