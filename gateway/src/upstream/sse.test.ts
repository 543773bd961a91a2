import t from 'tap';
import { forwardableRequestHeaders, forwardableResponseHeaders, headerValue, isHopByHopHeader } from './headers.js';
import { describeFailure, findErrorCode } from './network-errors.js';
import {
  assembleJsonChunks,
  assembleStream,
  createStreamAssembler,
  jsonChunksToolArguments,
  jsonChunksToolCalls,
  DELTA_RULES,
  extractDelta,
  parseSse,
  SseParser,
  streamFormatOf,
  valuesAt,
} from './sse.js';

t.test('SSE parser: fields, comments, multi-line data, LF / CRLF / CR line ends', async (t) => {
  const body = ': comment\nevent: a\ndata: one\ndata:two\nid: 7\nretry: 10\n\ndata: x\r\n\r\ndata: y\r\rdata\n\n';
  t.same(parseSse(body), [
    { event: 'a', data: 'one\ntwo', id: '7' },
    { event: undefined, data: 'x', id: '7' },
    { event: undefined, data: 'y', id: '7' },
    { event: undefined, data: '', id: '7' },
  ]);
});

t.test('SSE parser: frames split anywhere across chunks, CRLF split included', async (t) => {
  const body = 'event: message_start\r\ndata: {"a":1}\r\n\r\ndata: {"b":2}\r\n\r\n';
  for (let cut = 1; cut < body.length; cut += 1) {
    const parser = new SseParser();
    const events = [...parser.push(body.slice(0, cut)), ...parser.push(body.slice(cut)), ...parser.end()];
    t.same(events.map((e) => e.data), ['{"a":1}', '{"b":2}'], `cut at ${cut}`);
  }
});

t.test('SSE parser: an unterminated last event is dispatched at the end', async (t) => {
  const parser = new SseParser();
  t.same(parser.push('data: last'), []);
  t.same(parser.end(), [{ event: undefined, data: 'last', id: undefined }]);
});

t.test('stream formats by content type', async (t) => {
  t.equal(streamFormatOf('text/event-stream; charset=utf-8'), 'sse');
  t.equal(streamFormatOf('TEXT/EVENT-STREAM'), 'sse');
  t.equal(streamFormatOf('application/x-ndjson'), 'ndjson');
  t.equal(streamFormatOf('application/json'), undefined);
  t.equal(streamFormatOf('application/jsonl'), 'ndjson', 'not taken for JSON by its prefix');
  t.equal(streamFormatOf('application/json; charset=utf-8', 'ndjson'), 'ndjson', 'JSON read as the NDJSON stream asked for');
  t.equal(streamFormatOf('Application/JSON', 'ndjson'), 'ndjson');
  t.equal(streamFormatOf(undefined), undefined);
});

t.test('paths: keys, indexes and * wildcards', async (t) => {
  const value = { a: [{ b: 1 }, { b: 2 }], c: { d: 'x' } };
  t.same(valuesAt(value, ['a', '*', 'b']), [1, 2]);
  t.same(valuesAt(value, ['a', 1, 'b']), [2]);
  t.same(valuesAt(value, ['c', 'd']), ['x']);
  t.same(valuesAt(value, ['missing', 'x']), []);
  t.same(valuesAt('scalar', ['a']), []);
});

t.test('delta rules per vendor frame shape', async (t) => {
  t.same(extractDelta({ choices: [{ index: 0, delta: { content: 'hi' } }] }, 'sse'), [['0', 'hi']], 'chat');
  t.same(extractDelta({ choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] }, 'sse'), [['0', '']], 'role chunk claimed, no text');
  t.equal(extractDelta({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }, 'sse'), undefined, 'finish chunk');
  t.same(extractDelta({ choices: [{ index: 0, text: 'old' }] }, 'sse'), [['0', 'old']], 'legacy completions');
  t.same(extractDelta({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'b' } }, 'sse'), [['0', 'b']], 'vendor_b');
  t.equal(extractDelta({ type: 'message_delta', delta: { stop_reason: 'end_turn' } }, 'sse'), undefined, 'vendor_b non-text frame');
  t.same(extractDelta({ candidates: [{ content: { parts: [{ text: 'g1' }, { text: 'g2' }] } }] }, 'sse'), [['0', 'g1g2']], 'gemini parts');
  t.same(extractDelta({ message: { role: 'assistant', content: 'o' }, done: false }, 'ndjson'), [['0', 'o']], 'ollama chat');
  t.same(extractDelta({ response: 'r', done: false }, 'ndjson'), [['0', 'r']], 'ollama generate');
  t.equal(extractDelta({ message: { content: 'o' } }, 'sse'), undefined, 'rules are per format');
  t.ok(DELTA_RULES.every((r) => r.text.length > 0), 'rules are data');
});

t.test('assembling: multi-byte characters split across chunks, several choices, end markers', async (t) => {
  const frame = (content: string, index = 0): string => `data: ${JSON.stringify({ choices: [{ index, delta: { content } }] })}\n\n`;
  const bytes = new TextEncoder().encode(`${frame('Привет, ')}${frame('мир')}data: [DONE]\n\n${frame('ignored')}`);
  const assembler = createStreamAssembler('sse');
  for (let i = 0; i < bytes.length; i += 3) assembler.push(bytes.subarray(i, i + 3));
  t.equal(assembler.done, true);
  t.equal(assembler.text, 'Привет, мир', 'text after [DONE] is ignored');
  t.equal(assembler.pieces, 2);

  const two = assembleStream('sse', `${frame('A', 0)}${frame('B', 1)}${frame('a', 0)}${frame('b', 1)}`);
  t.equal(two.text, 'Aa\n\nBb');
  t.equal(two.done, false);

  const anthropic = assembleStream(
    'sse',
    [
      'event: message_start\ndata: {"type":"message_start","message":{"content":[]}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\n',
      'event: ping\ndata: {"type":"ping"}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" there"}}\n\n',
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    ].join(''),
  );
  t.same(anthropic, { text: 'Hi there', done: true, pieces: 2 });

  const ndjson = assembleStream('ndjson', '{"message":{"content":"a"},"done":false}\n{"message":{"content":"b"},"done":false}\n{"message":{"content":""},"done":true}\n');
  t.same(ndjson, { text: 'ab', done: true, pieces: 2 });
  t.equal(assembleStream('ndjson', '{"response":"x"}\n{"response":"y"}').text, 'xy', 'last line without newline');
  t.equal(assembleStream('sse', 'data: not json\n\ndata: {"choices":[{"delta":{"content":"ok"}}]}\n\n').text, 'ok', 'bad frames skipped');
});

t.test('JSON array of gemini chunks', async (t) => {
  t.equal(assembleJsonChunks([{ candidates: [{ content: { parts: [{ text: 'a' }] } }] }, { candidates: [{ content: { parts: [{ text: 'b' }] } }] }]), 'ab');
  t.equal(assembleJsonChunks([{ unrelated: true }]), undefined);
  t.equal(assembleJsonChunks({ candidates: [] }), undefined);
});

t.test("assembling tool-call arguments: every vendor's fragments joined per call, apart from the text", async (t) => {
  const chunk = (delta: object) => `data: ${JSON.stringify({ choices: [{ index: 0, delta }] })}\n\n`;
  const call = (index: number, args: string) => chunk({ tool_calls: [{ index, function: { arguments: args } }] });
  const chat = createStreamAssembler('sse');
  chat.push(new TextEncoder().encode(`${chunk({ content: 'ok' })}${call(0, '{"a": "x')}${call(1, '{"b": 1}')}${call(0, 'y"}')}data: [DONE]\n\n`));
  t.equal(chat.text, 'ok');
  t.same(chat.toolArguments, ['{"a": "xy"}', '{"b": 1}']);
  t.equal(chat.pieces, 1, 'argument fragments are not answer text');
  const anthropic = createStreamAssembler('sse');
  const delta = (partial_json: string) => `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json } })}\n\n`;
  anthropic.push(new TextEncoder().encode(`${delta('{"to": "an')}${delta('na"}')}`));
  t.same(anthropic.toolArguments, ['{"to": "anna"}']);
  const responses = createStreamAssembler('sse');
  responses.push(new TextEncoder().encode(`data: ${JSON.stringify({ type: 'response.function_call_arguments.delta', item_id: 'fc1', delta: '{}' })}\n\n`));
  t.same(responses.toolArguments, ['{}']);
  t.same(jsonChunksToolArguments([{ candidates: [{ content: { parts: [{ functionCall: { name: 'f', args: { to: 'x' } } }] } }] }]), ['{"to":"x"}']);
  t.same(jsonChunksToolArguments({ candidates: [] }), []);
  t.same(jsonChunksToolCalls([{ candidates: [{ content: { parts: [{ functionCall: { name: 'f', args: { to: 'x' } } }] } }] }]), { arguments: ['{"to":"x"}'], names: ['f'] });
});

t.test('NDJSON: vendor_g tool calls, vendor_j cumulative lines (the last text, not every repeat joined)', async (t) => {
  const ollama = createStreamAssembler('ndjson');
  const line = (message: object, done = false) => `${JSON.stringify({ message: { role: 'assistant', ...message }, done })}\n`;
  ollama.push(new TextEncoder().encode(`${line({ content: 'ok' })}\n${line({ content: '', tool_calls: [{ function: { name: 'f', arguments: { to: 'x' } } }] })}${line({ content: '' }, true)}`));
  t.equal(ollama.text, 'ok');
  t.same(ollama.toolArguments, ['{"to":"x"}']);
  t.ok(ollama.done);

  const yandex = (texts: string[], call?: object) =>
    texts.map((text) => JSON.stringify({ result: { alternatives: [{ message: { role: 'assistant', text, ...(call ? { toolCallList: { toolCalls: [{ functionCall: { name: 'f', arguments: call } }] } } : {}) } }] } })).join('\n');
  const cumulative = assembleStream('ndjson', yandex(['Hel', 'Hello wo', 'Hello world', 'Hello world']));
  t.equal(cumulative.text, 'Hello world');
  t.equal(cumulative.pieces, 3, 'a repeat adds nothing');
  t.equal(assembleStream('ndjson', yandex(['Hello there', 'Hi! mail x'])).text, 'Hello there\n\nHi! mail x', 'a line rewriting the text keeps both, so both are scanned');
  const calls = createStreamAssembler('ndjson');
  calls.push(new TextEncoder().encode(yandex(['a', 'ab'], { to: 'x' })));
  calls.finish();
  t.same(calls.toolArguments, ['{"to":"x"}'], 'repeated arguments read once');
});

t.test('headers: hop-by-hop, Connection-listed and proxy-* names are stripped', async (t) => {
  const out = forwardableRequestHeaders({
    Connection: 'close, X-Drop',
    'x-drop': '1',
    'X-Keep': '2',
    'proxy-anything': '3',
    authorization: 'Bearer x',
    'accept-encoding': 'gzip',
    expect: '100-continue',
    'x-list': ['a', 'b'],
    'x-undefined': undefined,
  });
  t.same(out, { 'x-keep': '2', 'x-list': ['a', 'b'] });
  t.same(forwardableResponseHeaders({ 'content-encoding': 'gzip', 'content-length': '5', 'x-a': 'b' }, { decoded: true }), { 'x-a': 'b' });
  t.same(forwardableResponseHeaders({ 'content-encoding': 'gzip' }), { 'content-encoding': 'gzip' });
  t.equal(headerValue({ 'Content-Type': 'a' }, 'content-type'), 'a');
  t.equal(headerValue({ 'set-cookie': ['x', 'y'] }, 'Set-Cookie'), 'x');
  t.ok(isHopByHopHeader('Proxy-Authorization'));
  t.ok(isHopByHopHeader('Transfer-Encoding'));
  t.notOk(isHopByHopHeader('content-type'));
});

t.test('failure descriptions find the code in causes and AggregateErrors', async (t) => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
  const aggregate = new AggregateError([refused], '');
  const wrapped = Object.assign(new Error('fetch failed', { cause: aggregate }), { code: 'UND_ERR' });
  t.equal(findErrorCode(wrapped)?.code, 'ECONNREFUSED');
  t.equal(describeFailure(wrapped), 'connection refused (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1)');
  const tls = Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  t.match(describeFailure(tls), /^TLS: self-signed certificate \(DEPTH_ZERO_SELF_SIGNED_CERT.*GATEWAY_LLM_INSECURE_SKIP_VERIFY/);
  t.equal(describeFailure(new Error('plain')), 'plain');
  t.equal(describeFailure(Object.assign(new Error('x'), { code: 'HPE_INVALID_CONSTANT' })), 'invalid HTTP answer (HPE_INVALID_CONSTANT: x)');
});

t.test('vendor_e v2 chat streams: the buffered reader assembles content-delta text and tool-call arguments, ends at message-end', async (t) => {
  const frame = (f: Record<string, unknown>) => `event: ${String(f.type)}\ndata: ${JSON.stringify(f)}\n\n`;
  const body = [
    frame({ id: 'e1', type: 'message-start', delta: { message: { role: 'assistant', content: [], tool_calls: [] } } }),
    frame({ type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } }),
    frame({ type: 'content-delta', index: 0, delta: { message: { content: { text: 'mail john' } } } }),
    frame({ type: 'content-delta', index: 0, delta: { message: { content: { text: '@example.org' } } } }),
    frame({ type: 'tool-call-start', index: 0, delta: { message: { tool_calls: { id: 'c', type: 'function', function: { name: 'f', arguments: '' } } } } }),
    frame({ type: 'tool-call-delta', index: 0, delta: { message: { tool_calls: { function: { arguments: '{"to": ' } } } } }),
    frame({ type: 'tool-call-delta', index: 0, delta: { message: { tool_calls: { function: { arguments: '"x"}' } } } } }),
    frame({ type: 'message-end', delta: { finish_reason: 'COMPLETE' } }),
    frame({ type: 'content-delta', index: 0, delta: { message: { content: { text: 'after the end' } } } }),
  ].join('');
  const assembler = createStreamAssembler('sse');
  assembler.push(new TextEncoder().encode(body));
  t.equal(assembler.text, 'mail john@example.org');
  t.same(assembler.toolArguments, ['{"to": "x"}']);
  t.same(assembler.toolNames, ['f'], "the call's name, apart from its arguments");
  t.ok(assembler.done, 'message-end is the end marker');
});
