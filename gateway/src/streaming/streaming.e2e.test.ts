// Streamed answers through the real gateway and the mock LLM: they reach the client while the
// upstream still writes, PII is masked inside the deltas, a block ends the stream in the vendor's
// terms with RESPONSE_BLOCKED recorded, a client going away stops the upstream, a stall times out;
// tool-call arguments are masked or blocked alike, the value split across their fragments.
import t from 'tap';
import OpenAI from 'openai';
import { request } from 'undici';
import { createEventRepository, type SecurityEvent } from '@palisade/core';
import { openOneDatabase } from '../testing/one-database.js';
import { startStack, type Stack } from '../testing/stack.js';
import { parseSse } from '../upstream/sse.js';

const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `word${from + i}`).join(' ');
const chat = (extra: Record<string, unknown> = {}) => ({ model: 'gpt-x', messages: [{ role: 'user', content: 'hello there' }], stream: true, ...extra });
const claude = () => ({ model: 'claude-x', max_tokens: 500, messages: [{ role: 'user', content: 'hello there' }], stream: true });

function chatText(body: string): string {
  return parseSse(body)
    .filter((e) => e.data.startsWith('{'))
    .map((e) => (JSON.parse(e.data) as { choices?: Array<{ delta?: { content?: string } }> }).choices?.[0]?.delta?.content ?? '')
    .join('');
}

function claudeText(body: string): string {
  return parseSse(body)
    .filter((e) => e.event === 'content_block_delta')
    .map((e) => (JSON.parse(e.data) as { delta: { text: string } }).delta.text)
    .join('');
}

const ARGS = '{"to": "john.smith@example.org", "subject": "the report", "cc": ["anna\\u0040example.com"]}';
const MASKED = { to: 'j***@example.org', subject: 'the report', cc: ['a***@example.com'] };
const tool = { 'x-mock-tool-arguments': ARGS, 'x-mock-chunk-delay-ms': '2' };

/** The arguments of the streamed chat tool call, joined from its fragments. */
const chatArguments = (body: string) =>
  parseSse(body)
    .filter((e) => e.data.startsWith('{"id"'))
    .map((e) => (JSON.parse(e.data) as { choices: Array<{ delta: { tool_calls?: Array<{ function?: { arguments?: string } }> } }> }).choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? '')
    .join('');

t.test('incremental response scanning of streams', async (t) => {
  let stack: Stack | undefined;
  const db = await openOneDatabase(t, async () => stack?.close());
  stack = await startStack({ db });
  const s = stack;
  const events = createEventRepository<SecurityEvent>(db);
  const eventsOf = async (traceId: string, count: number) => {
    let types: string[] = [];
    for (let i = 0; i < 100 && types.length < count; i++) {
      types = (await events.list({ trace_id: traceId })).items.map((e) => e.event_type).sort();
      if (types.length < count) await new Promise((r) => setTimeout(r, 50));
    }
    return types;
  };
  const route = (settings: Record<string, unknown>, provider: Record<string, unknown> = {}) =>
    s.profiled({ threat_detection: { enabled: false }, pii: { enabled: false }, ...settings }, provider);

  t.test('a masked answer streams while the upstream still writes, the e-mail rewritten inside the deltas', async (t) => {
    const { provider } = await route({ response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL'] } });
    const reply = `${words(40)} write to john.smith@example.org soon ${words(40, 40)}`;
    const res = await request(`${s.gatewayUrl}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-original-uri': provider.match_value, 'x-mock-reply': reply, 'x-mock-chunk-delay-ms': '15' },
      body: JSON.stringify(chat()),
    });
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], /text\/event-stream/);
    let body = '';
    let upstreamDoneAtFirstText: boolean | undefined;
    for await (const chunk of res.body) {
      body += chunk.toString();
      if (upstreamDoneAtFirstText === undefined && chatText(body).includes('word0')) upstreamDoneAtFirstText = s.mock.requests.at(-1)?.stream !== undefined;
    }
    t.equal(upstreamDoneAtFirstText, false, 'the first text reached the client before the upstream finished');
    const text = chatText(body);
    t.notMatch(body, /john\.smith/, 'the value never left');
    t.equal(text, reply.replace('john.smith@example.org', 'j***@example.org'), 'the masked answer, nothing lost');
    t.match(body, /data: \[DONE\]\n\n$/, 'the end marker closes the stream');
    const traceId = String(res.headers['x-service-trace-id']);
    t.same(await eventsOf(traceId, 1), ['RESPONSE_REDACTED']);
    // The proof of inspection of a streamed answer, as of a buffered one.
    const [event] = (await events.list({ trace_id: traceId })).items;
    t.match(event!.inspection, [
      { detector: 'pii', side: 'response', status: 'ok', findings: 1 },
      { detector: 'content_policy', side: 'response', status: 'skipped', reason: 'no_active_policy' },
      { detector: 'content_safety', side: 'response', status: 'skipped', reason: 'needs_whole_answer' },
    ]);
  });

  t.test('a block ends the stream with an error event and the end marker, before any violating text', async (t) => {
    const { send } = await route({ response_scanning: { enabled: true, pii_mode: 'block', pii_types: ['EMAIL'] } });
    const res = await send(chat(), { 'x-mock-reply': `${words(60)} mail john.smith@example.org now ${words(60, 60)}`, 'x-mock-chunk-delay-ms': '3' });
    t.equal(res.status, 200, 'the stream had started');
    const sse = parseSse(res.text);
    const error = JSON.parse(sse.at(-2)!.data) as { error: { code: string; trace_id: string } };
    t.match(error.error, { code: 'RESPONSE_BLOCKED', trace_id: res.headers['x-service-trace-id'] });
    t.equal(sse.at(-1)!.data, '[DONE]');
    t.notMatch(res.text, /john|example\.org|word70/, 'none of the violating text, nothing after it');
    t.match(chatText(res.text), /^word0 word1/, 'the text before it streamed');
    const blockedTrace = String(res.headers['x-service-trace-id']);
    t.same(await eventsOf(blockedTrace, 1), ['RESPONSE_BLOCKED']);
    t.match((await events.list({ trace_id: blockedTrace })).items[0]!.inspection, [{ detector: 'pii', side: 'response', status: 'ok', findings: 1 }], 'a mid-stream block records its proof too');
  });

  t.test('regex rules on answers: the text streams while the upstream writes; a match is refused before it leaves', async (t) => {
    const policy = await s.api('POST', '/api/v1/content-policies', {
      name: `secret-projects-${Date.now()}`,
      type: 'blocklist',
      scope: 'response',
      action: 'block',
      rules: [{ kind: 'regex', pattern: '(?i)\\bcodename[-_ ]?\\d{3}\\b' }],
    });
    t.equal(policy.status, 201, policy.text);
    t.equal((await s.api('POST', `/api/v1/content-policies/${policy.json.id}/activate`)).status, 200);
    const { provider, send } = await route({ content_policy_ids: [policy.json.id], response_scanning: { enabled: true, pii_mode: 'disabled' } });
    // Shorter than the 256 characters a regex rule used to hold: before, nothing left until the end.
    const reply = words(20);
    // The rules' automaton is built on a worker thread when the bundle loads; a stream sent before
    // that build is done gets the fixed hold-back, so the first streams may arrive whole at the end.
    let early = 0;
    for (let attempt = 0; attempt < 20 && early === 0; attempt += 1) {
      s.mock.reset();
      const res = await request(`${s.gatewayUrl}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-original-uri': provider.match_value, 'x-mock-reply': reply, 'x-mock-chunk-delay-ms': '20' },
        body: JSON.stringify(chat()),
      });
      let body = '';
      let upstreamDoneAtFirstText: boolean | undefined;
      for await (const chunk of res.body) {
        body += chunk.toString();
        if (upstreamDoneAtFirstText === undefined && chatText(body).includes('word0')) upstreamDoneAtFirstText = s.mock.requests.at(-1)?.stream !== undefined;
      }
      t.equal(chatText(body), reply, 'a clean answer whole');
      if (upstreamDoneAtFirstText === false) early += 1;
    }
    t.equal(early, 1, 'the first words reached the client before the upstream finished');

    const blocked = await send(chat(), { 'x-mock-reply': `${words(5)} the CODENAME-417 plan ${words(5, 5)}`, 'x-mock-chunk-delay-ms': '20' });
    t.equal(blocked.status, 200, 'the stream had started');
    t.match(JSON.parse(parseSse(blocked.text).at(-2)!.data), { error: { code: 'RESPONSE_BLOCKED' } });
    t.notMatch(blocked.text, /CODENAME|word6/i, 'nothing of the match, nothing after it');
    t.match(chatText(blocked.text), /^word0 word1/, 'the text before it streamed: ' + blocked.text);
  });

  t.test('monitor mode records and lets the value through', async (t) => {
    const { send } = await route({ response_scanning: { enabled: true, pii_mode: 'monitor', pii_types: ['EMAIL'] } });
    const reply = `${words(10)} mail john.smith@example.org now`;
    const res = await send(chat(), { 'x-mock-reply': reply });
    t.equal(chatText(res.text), reply);
    t.same(await eventsOf(String(res.headers['x-service-trace-id']), 1), ['RESPONSE_REDACTED']);
  });

  t.test('Anthropic messages: masked inside content_block_delta, message_stop kept', async (t) => {
    const { send } = await route(
      { response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL', 'PHONE_NUMBER'] } },
      { provider_type: 'vendor_b', target_path: '/v1/messages', mapping_preset: 'vendor_b_messages' },
    );
    const reply = `Call +7 916 123-45-67 or mail anna@example.com. ${words(30)}`;
    const res = await send(claude(), { 'x-mock-reply': reply });
    t.equal(res.status, 200);
    t.equal(claudeText(res.text), reply.replace('+7 916 123-45-67', '+* *** ***-**-67').replace('anna@example.com', 'a***@example.com'));
    t.equal(parseSse(res.text).at(-1)!.event, 'message_stop');
  });

  t.test('streaming: buffer keeps the whole-answer behaviour', async (t) => {
    const { send } = await route({ response_scanning: { enabled: true, pii_mode: 'block', pii_types: ['EMAIL'], streaming: 'buffer' } });
    const res = await send(chat(), { 'x-mock-reply': 'mail john.smith@example.org today' });
    t.equal(res.status, 451);
    const tool = await send(chat(), { 'x-mock-tool-arguments': ARGS });
    t.equal(tool.status, 451, "a value in a buffered stream's tool-call arguments blocks it too");
    t.notMatch(tool.text, /john|anna/);
  });

  t.test('a client that goes away mid-stream stops the upstream call', async (t) => {
    const { provider } = await route({ response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL'] } });
    s.mock.reset();
    const res = await request(`${s.gatewayUrl}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-original-uri': provider.match_value, 'x-mock-reply': words(400), 'x-mock-chunk-delay-ms': '10' },
      body: JSON.stringify(chat()),
    });
    for await (const chunk of res.body) {
      if (chunk.toString().includes('word0')) break;
    }
    res.body.destroy();
    let outcome = s.mock.requests.at(-1)?.stream;
    for (let i = 0; i < 100 && !outcome; i++) {
      await new Promise((r) => setTimeout(r, 50));
      outcome = s.mock.requests.at(-1)?.stream;
    }
    t.equal(outcome?.ended, 'closed', 'the upstream saw its client leave');
    t.ok(outcome!.framesSent < outcome!.frames, `${outcome?.framesSent} of ${outcome?.frames} frames written`);
  });

  t.test('an upstream that stalls mid-stream hits the provider timeout: error event and end marker', async (t) => {
    const { send } = await route({ response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL'] } }, { request_timeout_ms: 1000 });
    const res = await send(chat(), { 'x-mock-reply': words(100), 'x-mock-stall-after-frames': '50' });
    t.equal(res.status, 200);
    const sse = parseSse(res.text);
    t.match(JSON.parse(sse.at(-2)!.data), { error: { code: 'LLM_TIMEOUT' } });
    t.equal(sse.at(-1)!.data, '[DONE]');
  });

  t.test('pseudonymize: the LLM sees numbered placeholders, the client its own values, buffered and streamed', async (t) => {
    const { send } = await route({ pii: { enabled: true, types: ['EMAIL', 'PHONE_NUMBER'], mode: 'pseudonymize' } });
    const prompt = 'Mail john.smith@example.org or +7 916 123-45-67, again john.smith@example.org';
    const from = s.logs.length;
    const buffered = await send({ model: 'gpt-x', messages: [{ role: 'user', content: prompt }] });
    t.equal(buffered.status, 200);
    const upstream = s.mock.requests.at(-1)!.body as { messages: Array<{ content: string }> };
    t.equal(upstream.messages[0]!.content, 'Mail [EMAIL_1] or [PHONE_1], again [EMAIL_1]', 'one placeholder per distinct value');
    t.equal(buffered.json.choices[0].message.content, `Echo: ${prompt}`, 'restored in the buffered answer');

    const reply = 'Sure: [email_1] and [PHONE_1] noted.';
    const streamed = await send({ ...chat(), messages: [{ role: 'user', content: prompt }] }, { 'x-mock-reply': reply });
    t.equal(chatText(streamed.text), 'Sure: john.smith@example.org and +7 916 123-45-67 noted.', 'restored in the stream, any case');
    const traceId = String(buffered.headers['x-service-trace-id']);
    t.same(await eventsOf(traceId, 2), ['PII_DETECTED', 'REQUEST_SANITIZED']);
    const stored = JSON.stringify((await events.list({ trace_id: traceId })).items);
    t.notMatch(stored, /john\.smith|916 123/, 'the event carries no value');
    t.notMatch(JSON.stringify(s.logs.slice(from)), /john\.smith|916 123|EMAIL_1\]":/, 'nor does the log');
  });

  t.test("pseudonymize: the answer's events keep no pseudonymised value either, buffered and streamed", async (t) => {
    const { send } = await route({ pii: { enabled: true, types: ['EMAIL'], mode: 'pseudonymize' }, response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL'] } });
    const prompt = 'Forward the invoice to john.smith@example.org please';
    const reply = { 'x-mock-reply': 'Done. I also copied anna.berg@example.net.' };
    for (const body of [{ model: 'gpt-x', messages: [{ role: 'user', content: prompt }] }, { ...chat(), messages: [{ role: 'user', content: prompt }] }]) {
      const answer = await send(body, reply);
      t.equal(answer.status, 200);
      const traceId = String(answer.headers['x-service-trace-id']);
      const types = await eventsOf(traceId, 3);
      t.same(types, ['PII_DETECTED', 'REQUEST_SANITIZED', 'RESPONSE_REDACTED'], "the request's and the answer's events");
      const stored = JSON.stringify((await events.list({ trace_id: traceId })).items);
      t.notMatch(stored, /john\.smith/, 'no event of the call stores the pseudonymised value');
      t.match(stored, /Forward the invoice to/, 'the prompt is stored, masked');
    }
  });

  t.test('the OpenAI SDK as a stream client: masked deltas, and a block raised as its APIError', async (t) => {
    const masked = await route({ response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL'] } });
    const client = (path: string, reply: string) =>
      new OpenAI({ apiKey: 'sk-test', baseURL: s.gatewayUrl, maxRetries: 0, defaultHeaders: { 'x-original-uri': path, 'x-mock-reply': reply, 'x-mock-chunk-delay-ms': '2' } });
    const reply = `${words(20)} write to john.smith@example.org soon`;
    let text = '';
    for await (const chunk of await client(masked.provider.match_value, reply).chat.completions.create({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }], stream: true })) {
      text += chunk.choices[0]?.delta?.content ?? '';
    }
    t.equal(text, reply.replace('john.smith@example.org', 'j***@example.org'));

    const blocking = await route({ response_scanning: { enabled: true, pii_mode: 'block', pii_types: ['EMAIL'] } });
    let streamed = '';
    const error = await (async () => {
      try {
        for await (const chunk of await client(blocking.provider.match_value, reply).chat.completions.create({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }], stream: true })) {
          streamed += chunk.choices[0]?.delta?.content ?? '';
        }
        return undefined;
      } catch (caught) {
        return caught;
      }
    })();
    t.ok(error instanceof OpenAI.APIError, 'the SDK raises the error event');
    t.match((error as InstanceType<typeof OpenAI.APIError>).message, /blocked/i);
    t.notMatch(streamed, /john/, 'the value never reached the SDK');
    t.match(streamed, /^word0 word1/, 'the text before it did');
  });

  t.test('Gemini streamGenerateContent (alt=sse, CRLF frames): masked inside the parts, a block as its error frame', async (t) => {
    const gemini = { provider_type: 'vendor_d', target_path: '/v1beta/models/gemini-pro:streamGenerateContent?alt=sse', mapping_preset: 'vendor_d_gemini' };
    const body = { contents: [{ role: 'user', parts: [{ text: 'hello there' }] }] };
    const geminiText = (sse: string) =>
      parseSse(sse)
        .filter((e) => e.data.includes('candidates'))
        .map((e) => (JSON.parse(e.data) as { candidates: Array<{ content: { parts: Array<{ text: string }> } }> }).candidates[0]!.content.parts.map((p) => p.text).join(''))
        .join('');
    const masked = await route({ response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL'] } }, gemini);
    const reply = `${words(20)} write to john.smith@example.org soon`;
    const res = await masked.send(body, { 'x-mock-reply': reply });
    t.equal(res.status, 200);
    t.equal(geminiText(res.text), reply.replace('john.smith@example.org', 'j***@example.org'));

    const blocking = await route({ response_scanning: { enabled: true, pii_mode: 'block', pii_types: ['EMAIL'] } }, gemini);
    const blocked = await blocking.send(body, { 'x-mock-reply': reply, 'x-mock-chunk-delay-ms': '2' });
    t.match(JSON.parse(parseSse(blocked.text).at(-1)!.data), { error: { status: 'RESPONSE_BLOCKED' } });
    t.notMatch(blocked.text, /john/);
    t.match(geminiText(blocked.text), /^word0 word1/);
  });

  t.test('NDJSON streams (vendor_g deltas, vendor_j whole text per line): the first words arrive while the upstream writes; masked; a block as the vendor error line', async (t) => {
    type Line = Record<string, any>;
    /** The complete lines of a body read so far (each must parse). */
    const linesOf = (body: string): Line[] =>
      body
        .split('\n')
        .slice(0, -1)
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Line);
    const formats = [
      {
        name: 'vendor_g chat',
        provider: { provider_type: 'vendor_g', target_path: '/api/chat', mapping_preset: 'vendor_g_chat' },
        body: { model: 'llama', messages: [{ role: 'user', content: 'hello there' }], stream: true },
        text: (lines: Line[]) => lines.map((l) => (l.message?.content as string | undefined) ?? '').join(''),
        error: (line: Line | undefined) => line?.error,
      },
      {
        name: 'vendor_j completion',
        provider: { provider_type: 'custom', target_path: '/foundationModels/v1/completion', mapping_preset: 'vendor_j_gpt' },
        body: { modelUri: 'gpt://folder/model-j/latest', completionOptions: { stream: true }, messages: [{ role: 'user', text: 'hello there' }] },
        // Each line carries the whole text so far: the last one is the answer.
        text: (lines: Line[]) => (lines.filter((l) => l.result).at(-1)?.result.alternatives[0].message.text as string | undefined) ?? '',
        error: (line: Line | undefined) => line?.error?.message,
      },
    ];
    const providers: string[] = [];
    for (const format of formats) {
      const masked = await route({ response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL'] } }, format.provider);
      providers.push(masked.provider.id);
      const reply = `${words(40)} write to john.smith@example.org soon ${words(40, 40)}`;
      const res = await request(`${s.gatewayUrl}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-original-uri': masked.provider.match_value, 'x-mock-reply': reply, 'x-mock-chunk-delay-ms': '15' },
        body: JSON.stringify(format.body),
      });
      t.equal(res.statusCode, 200, format.name);
      t.match(res.headers['content-type'], /ndjson/);
      let body = '';
      let upstreamDoneAtFirstText: boolean | undefined;
      for await (const chunk of res.body) {
        body += chunk.toString();
        if (upstreamDoneAtFirstText === undefined && format.text(linesOf(body)).includes('word0')) upstreamDoneAtFirstText = s.mock.requests.at(-1)?.stream !== undefined;
      }
      t.equal(upstreamDoneAtFirstText, false, `${format.name}: the first text reached the client before the upstream finished`);
      t.notMatch(body, /john\.smith/, 'the value never left, in no line');
      t.equal(format.text(linesOf(body)), reply.replace('john.smith@example.org', 'j***@example.org'), 'the masked answer, nothing lost');
      t.same(await eventsOf(String(res.headers['x-service-trace-id']), 1), ['RESPONSE_REDACTED']);

      const blocking = await route({ response_scanning: { enabled: true, pii_mode: 'block', pii_types: ['EMAIL'] } }, format.provider);
      const blocked = await blocking.send(format.body, { 'x-mock-reply': reply, 'x-mock-chunk-delay-ms': '2' });
      t.equal(blocked.status, 200, 'the stream had started');
      const lines = linesOf(blocked.text);
      t.match(format.error(lines.at(-1)), /blocked/i, `${format.name}: the vendor's error line ends the stream`);
      t.match(JSON.stringify(lines.at(-1)), String(blocked.headers['x-service-trace-id']), 'with the trace id');
      t.notMatch(blocked.text, /john|word60/);
      t.match(format.text(lines.slice(0, -1)), /^word0 word1/, 'the text before it streamed');
    }

    // `buffer`: the whole vendor_j stream is read, its text assembled from the last line (not every repeat), masked in every line.
    const whole = await route({ response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL'], streaming: 'buffer' } }, formats[1]!.provider);
    const read = await whole.send(formats[1]!.body, { 'x-mock-reply': 'mail john.smith@example.org today' });
    t.equal(read.status, 200);
    t.notMatch(read.text, /john/, 'buffered: no line keeps the value');
    t.equal(formats[1]!.text(linesOf(read.text)), 'mail j***@example.org today');

    const tools = await route({ response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL'] } }, formats[0]!.provider);
    const called = await tools.send(formats[0]!.body, tool);
    t.notMatch(called.text, /john|anna/);
    t.same(
      linesOf(called.text).flatMap((l) => (l.message?.tool_calls ?? []).map((c: Line) => c.function.arguments)),
      [MASKED],
      'vendor_g: a streamed tool call masked inside its arguments object',
    );

    // The usage the upstream reported in its stream is counted (vendor_j's counts are strings).
    await s.gateway.usage.flush();
    const reported = async () =>
      (await db.query<{ provider_id: string; usage: number; output: number }>('SELECT provider_id, sum(usage_reported)::int AS usage, sum(output_tokens)::int AS output FROM usage_rollups WHERE provider_id = ANY($1) GROUP BY 1', [providers])).rows;
    let rows = await reported();
    for (let i = 0; i < 100 && rows.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 100));
      rows = await reported();
    }
    t.equal(rows.length, 2, 'both streamed calls counted');
    t.ok(rows.every((r) => r.usage === 1 && r.output > 0), `token usage read from each stream: ${JSON.stringify(rows)}`);
  });

  t.test('Responses API: masked in the deltas and in every event repeating the text; the OpenAI SDK reads it', async (t) => {
    const responses = { provider_type: 'vendor_a', target_path: '/v1/responses', mapping_preset: 'vendor_a_responses' };
    const masked = await route({ response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL'] } }, responses);
    const reply = `${words(20)} write to john.smith@example.org soon`;
    const expected = reply.replace('john.smith@example.org', 'j***@example.org');
    const res = await masked.send({ model: 'gpt-x', input: 'hello there', stream: true }, { 'x-mock-reply': reply });
    t.equal(res.status, 200);
    t.notMatch(res.text, /john/, 'not in a delta, not in a done event, not in response.completed');
    const events = parseSse(res.text).map((e) => JSON.parse(e.data) as Record<string, any>);
    t.equal(events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join(''), expected);
    t.equal(events.find((e) => e.type === 'response.output_text.done')!.text, expected);
    t.equal(events.at(-1)!.type, 'response.completed');
    t.equal(events.at(-1)!.response.output[0].content[0].text, expected);

    const client = new OpenAI({ apiKey: 'sk-test', baseURL: s.gatewayUrl, maxRetries: 0, defaultHeaders: { 'x-original-uri': masked.provider.match_value, 'x-mock-reply': reply } });
    let sdkText = '';
    let completed = '';
    for await (const event of await client.responses.create({ model: 'gpt-x', input: 'hello there', stream: true })) {
      if (event.type === 'response.output_text.delta') sdkText += event.delta;
      if (event.type === 'response.completed') completed = (event.response.output[0] as { content: Array<{ text: string }> }).content[0]!.text;
    }
    t.equal(sdkText, expected, 'the SDK reassembles the masked text');
    t.equal(completed, expected, 'and its final response carries it too');
  });

  const anthropic = { provider_type: 'vendor_b', target_path: '/v1/messages', mapping_preset: 'vendor_b_messages' };

  // Tool calls: data in a call's arguments is masked (the arguments still JSON) or blocked like the text.
  t.test('vendor_a chat, streamed: the value split across fragments reaches the client masked, the arguments still JSON', async (t) => {
    const { send } = await route({ response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL'] } });
    const res = await send(chat(), tool);
    t.equal(res.status, 200);
    t.ok(s.mock.requests.at(-1)!.stream!.frames > 10, 'the mock sent the arguments in many fragments');
    t.notMatch(res.text, /john|anna/, 'no piece of a value in any frame');
    t.same(JSON.parse(chatArguments(res.text)), MASKED);
    t.equal(parseSse(res.text).at(-1)!.data, '[DONE]');
    const traceId = String(res.headers['x-service-trace-id']);
    t.same(await eventsOf(traceId, 1), ['RESPONSE_REDACTED'], 'recorded like a finding in the text');
    const entities = ((await events.list({ trace_id: traceId })).items[0] as unknown as { pii_entities: Array<{ type: string; masked: string }> }).pii_entities;
    t.same(entities.map((e) => [e.type, e.masked]).sort(), [['EMAIL', 'a***@example.com'], ['EMAIL', 'j***@example.org']], 'both values, found in the decoded arguments');
  });

  t.test('vendor_a chat, streamed, block mode: the vendor error event and [DONE], nothing of the value sent', async (t) => {
    const { send } = await route({ response_scanning: { enabled: true, pii_mode: 'block', pii_types: ['EMAIL'] } });
    const res = await send(chat(), tool);
    t.equal(res.status, 200, 'the stream had started');
    const sse = parseSse(res.text);
    t.match(JSON.parse(sse.at(-2)!.data), { error: { code: 'RESPONSE_BLOCKED' } });
    t.equal(sse.at(-1)!.data, '[DONE]');
    t.notMatch(res.text, /john|anna|example\.org/);
    t.ok(ARGS.startsWith(chatArguments(res.text)), 'what left is the start of the arguments, before the value');
    t.same(await eventsOf(String(res.headers['x-service-trace-id']), 1), ['RESPONSE_BLOCKED']);
  });

  t.test('vendor_a chat, buffered: masked inside the arguments string; block mode blocks', async (t) => {
    const masked = await route({ response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL'] } });
    const res = await masked.send(chat({ stream: false }), tool);
    t.equal(res.status, 200);
    t.notMatch(res.text, /john|anna/);
    const call = (res.json as { choices: Array<{ message: { tool_calls: Array<{ function: { name: string; arguments: string } }> } }> }).choices[0]!.message.tool_calls[0]!.function;
    t.equal(call.name, 'mock_tool');
    t.same(JSON.parse(call.arguments), MASKED);
    const blocking = await route({ response_scanning: { enabled: true, pii_mode: 'block', pii_types: ['EMAIL'] } });
    const blocked = await blocking.send(chat({ stream: false }), tool);
    t.equal(blocked.status, 451);
    t.notMatch(blocked.text, /john|anna/);
  });

  t.test('the OpenAI SDK assembles the masked streamed tool call', async (t) => {
    const { provider } = await route({ response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL'] } });
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: s.gatewayUrl, maxRetries: 0, defaultHeaders: { 'x-original-uri': provider.match_value, ...tool } });
    let args = '';
    for await (const chunk of await client.chat.completions.create({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }], stream: true })) {
      args += chunk.choices[0]?.delta?.tool_calls?.[0]?.function?.arguments ?? '';
    }
    t.same(JSON.parse(args), MASKED);
  });

  t.test('Responses API function call: argument deltas masked, the done event, output item and response.completed repeat them; buffered too', async (t) => {
    const responses = { provider_type: 'vendor_a', target_path: '/v1/responses', mapping_preset: 'vendor_a_responses' };
    const masked = await route({ response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL'] } }, responses);
    const res = await masked.send({ model: 'gpt-x', input: 'mail the report', stream: true }, tool);
    t.equal(res.status, 200);
    t.notMatch(res.text, /john|anna/, 'in no delta and no repeat');
    const sse = parseSse(res.text).map((e) => JSON.parse(e.data) as Record<string, any>);
    t.same(JSON.parse(sse.filter((e) => e.type === 'response.function_call_arguments.delta').map((e) => e.delta).join('')), MASKED);
    t.same(JSON.parse(sse.find((e) => e.type === 'response.function_call_arguments.done')!.arguments), MASKED);
    t.same(JSON.parse(sse.at(-1)!.response.output[0].arguments), MASKED, 'response.completed');

    const client = new OpenAI({ apiKey: 'sk-test', baseURL: s.gatewayUrl, maxRetries: 0, defaultHeaders: { 'x-original-uri': masked.provider.match_value, ...tool } });
    let completed: unknown;
    for await (const event of await client.responses.create({ model: 'gpt-x', input: 'mail the report', stream: true })) {
      if (event.type === 'response.completed') completed = (event.response.output[0] as { arguments: string }).arguments;
    }
    t.same(JSON.parse(completed as string), MASKED, 'the SDK reads the masked call');

    const whole = await masked.send({ model: 'gpt-x', input: 'mail the report' }, tool);
    t.notMatch(whole.text, /john|anna/);
    t.same(JSON.parse((whole.json as { output: Array<{ arguments: string }> }).output[0]!.arguments), MASKED);
  });

  t.test('Gemini functionCall args: masked in the streamed chunk, in the JSON array of chunks and in generateContent', async (t) => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'mail the report' }] }] };
    const argsOf = (chunk: unknown) =>
      (chunk as { candidates: Array<{ content: { parts: Array<{ functionCall?: { args: unknown } }> } }> }).candidates[0]!.content.parts.find((p) => p.functionCall)?.functionCall?.args;
    const mask = { response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL'] } };
    const sse = await route(mask, { provider_type: 'vendor_d', target_path: '/v1beta/models/gemini-pro:streamGenerateContent?alt=sse', mapping_preset: 'vendor_d_gemini' });
    const streamed = await sse.send(body, tool);
    t.equal(streamed.status, 200);
    t.notMatch(streamed.text, /john|anna/);
    t.same(parseSse(streamed.text).map((e) => argsOf(JSON.parse(e.data))).filter(Boolean), [MASKED]);
    // Without alt=sse the stream is one JSON array, read whole: each value found is rewritten where it stands whole.
    const array = await route(mask, { provider_type: 'vendor_d', target_path: '/v1beta/models/gemini-pro:streamGenerateContent', mapping_preset: 'vendor_d_gemini' });
    const chunks = await array.send(body, tool);
    t.equal(chunks.status, 200);
    t.same((chunks.json as unknown[]).map(argsOf).filter(Boolean), [MASKED]);
    const whole = await route(mask, { provider_type: 'vendor_d', target_path: '/v1beta/models/gemini-pro:generateContent', mapping_preset: 'vendor_d_gemini' });
    const buffered = await whole.send(body, tool);
    t.equal(buffered.status, 200);
    t.same(argsOf(buffered.json), MASKED);
  });

  t.test('vendor_b messages: input_json_delta fragments masked (and the buffered input); block ends with error and message_stop', async (t) => {
    const input = (body: string) =>
      parseSse(body)
        .filter((e) => e.event === 'content_block_delta')
        .map((e) => (JSON.parse(e.data) as { delta: { partial_json?: string } }).delta.partial_json ?? '')
        .join('');
    const masked = await route({ response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL'] } }, anthropic);
    const res = await masked.send(claude(), { ...tool, 'x-mock-reply': 'Sending it now.' });
    t.equal(res.status, 200);
    t.notMatch(res.text, /john|anna/);
    t.same(JSON.parse(input(res.text)), MASKED);
    t.equal(parseSse(res.text).at(-1)!.event, 'message_stop');
    const whole = await masked.send({ ...claude(), stream: false }, tool);
    t.notMatch(whole.text, /john|anna/);
    t.same((whole.json as { content: Array<{ type: string; input?: unknown }> }).content.find((c) => c.type === 'tool_use')?.input, MASKED, 'buffered: masked inside the input object');

    const blocking = await route({ response_scanning: { enabled: true, pii_mode: 'block', pii_types: ['EMAIL'] } }, anthropic);
    const blocked = await blocking.send(claude(), { ...tool, 'x-mock-reply': 'Sending it now.' });
    const sse = parseSse(blocked.text);
    t.same(sse.slice(-2).map((e) => e.event), ['error', 'message_stop']);
    t.match(JSON.parse(sse.at(-2)!.data), { type: 'error', error: { code: 'RESPONSE_BLOCKED' } });
    t.notMatch(blocked.text, /john|anna|example\.org/);
  });

  t.test('vendor_e v2 chat: streamed while the upstream writes, masked in content-delta and tool-call-delta; a block ends with message-end ERROR; usage counted', async (t) => {
    const cohere = { provider_type: 'vendor_e', target_path: '/v2/chat', mapping_preset: 'vendor_e_chat' };
    const body = { model: 'command-r', messages: [{ role: 'user', content: 'hello there' }], stream: true };
    type Frame = { type: string; delta?: Record<string, any> };
    const framesOf = (text: string) => parseSse(text).map((e) => JSON.parse(e.data) as Frame);
    const textOf = (text: string) => framesOf(text).map((f) => (f.type === 'content-delta' ? (f.delta!.message.content.text as string) : '')).join('');
    const masked = await route({ response_scanning: { enabled: true, pii_mode: 'mask', pii_types: ['EMAIL'] } }, cohere);
    const reply = `${words(40)} write to john.smith@example.org soon ${words(40, 40)}`;
    s.mock.reset();
    const res = await request(`${s.gatewayUrl}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-original-uri': masked.provider.match_value, 'x-mock-reply': reply, 'x-mock-chunk-delay-ms': '15' },
      body: JSON.stringify(body),
    });
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], /text\/event-stream/);
    let streamed = '';
    let upstreamDoneAtFirstText: boolean | undefined;
    for await (const chunk of res.body) {
      streamed += chunk.toString();
      if (upstreamDoneAtFirstText === undefined && textOf(streamed.slice(0, streamed.lastIndexOf('\n\n') + 2)).includes('word0')) upstreamDoneAtFirstText = s.mock.requests.at(-1)?.stream !== undefined;
    }
    t.equal(upstreamDoneAtFirstText, false, 'the first text reached the client before the upstream finished');
    t.notMatch(streamed, /john\.smith/);
    t.equal(textOf(streamed), reply.replace('john.smith@example.org', 'j***@example.org'), 'the masked answer, nothing lost');
    t.match(framesOf(streamed).at(-1), { type: 'message-end', delta: { finish_reason: 'COMPLETE' } });
    t.same(await eventsOf(String(res.headers['x-service-trace-id']), 1), ['RESPONSE_REDACTED']);

    const called = await masked.send(body, tool);
    t.notMatch(called.text, /john|anna/);
    const args = framesOf(called.text).map((f) => (f.type === 'tool-call-delta' ? (f.delta!.message.tool_calls.function.arguments as string) : '')).join('');
    t.same(JSON.parse(args), MASKED, 'the tool call masked across its fragments');

    const blocking = await route({ response_scanning: { enabled: true, pii_mode: 'block', pii_types: ['EMAIL'] } }, cohere);
    const blocked = await blocking.send(body, { 'x-mock-reply': reply, 'x-mock-chunk-delay-ms': '2' });
    t.equal(blocked.status, 200, 'the stream had started');
    const traceId = String(blocked.headers['x-service-trace-id']);
    t.match(framesOf(blocked.text).at(-1), { type: 'message-end', delta: { finish_reason: 'ERROR', code: 'RESPONSE_BLOCKED', trace_id: traceId } });
    t.notMatch(blocked.text, /john|word60/);
    t.match(textOf(blocked.text), /^word0 word1/, 'the text before it streamed');
    t.same(await eventsOf(traceId, 1), ['RESPONSE_BLOCKED']);

    // The usage the stream's message-end reported is counted.
    await s.gateway.usage.flush();
    const reported = async () => (await db.query<{ usage: number; output: number }>('SELECT sum(usage_reported)::int AS usage, sum(output_tokens)::int AS output FROM usage_rollups WHERE provider_id = $1', [masked.provider.id])).rows[0];
    let row = await reported();
    for (let i = 0; i < 100 && !(row && row.usage >= 2); i++) {
      await new Promise((r) => setTimeout(r, 100));
      row = await reported();
    }
    t.ok(row && row.usage === 2 && row.output > 0, `token usage read from both streams: ${JSON.stringify(row)}`);
  });
});
