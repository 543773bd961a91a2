import { gzipSync } from 'node:zlib';
import t from 'tap';
import { chatBody, expectPalisadeError, freePort, JSON_HEADERS, sleep, startHarness, startRawServer, waitFor } from '../testing/upstream.js';

t.test('vendor_a JSON answer', async (t) => {
  const { url, client } = await startHarness(t);
  const res = await client.send({ url: `${url}/v1/chat/completions`, method: 'POST', headers: JSON_HEADERS, body: chatBody('hello there'), timeoutMs: 5000, auth: undefined });
  t.equal(res.status, 200);
  t.match(res.contentType, /^application\/json/);
  t.equal(res.isEventStream, false);
  t.equal(res.assembled, undefined);
  t.equal(res.attempts, 1);
  t.ok(res.durationMs > 0);
  const json = JSON.parse(res.body.toString('utf8'));
  t.equal(json.choices[0].message.content, 'Echo: hello there');
  t.equal(res.text, res.body.toString('utf8'));
});

t.test('an upstream 500 is an answer, passed through with its body', async (t) => {
  const { url, client } = await startHarness(t);
  const res = await client.send({ url: `${url}/v1/chat/completions`, headers: { ...JSON_HEADERS, 'x-mock-status': '500' }, body: chatBody('x'), timeoutMs: 5000, auth: undefined });
  t.equal(res.status, 500);
  t.equal(JSON.parse(res.text ?? '').error.message, 'mock error 500');
  const notFound = await client.send({ url: `${url}/no/such/path`, body: chatBody('x'), timeoutMs: 5000, auth: undefined });
  t.equal(notFound.status, 404);
});

t.test('an upstream slower than timeoutMs gives LLM_TIMEOUT 504 after about timeoutMs', async (t) => {
  const { url, client } = await startHarness(t);
  const { error, elapsedMs } = await expectPalisadeError(() =>
    client.send({ url: `${url}/v1/chat/completions`, headers: { ...JSON_HEADERS, 'x-mock-delay-ms': '5000' }, body: chatBody('slow'), timeoutMs: 300, auth: undefined }),
  );
  t.equal(error.code, 'LLM_TIMEOUT');
  t.equal(error.status, 504);
  t.match(error.message, /300 ms/);
  t.ok(elapsedMs >= 280 && elapsedMs < 1500, `elapsed ${elapsedMs} ms`);
  // The pool is still usable.
  const ok = await client.send({ url: `${url}/v1/chat/completions`, body: chatBody('after'), timeoutMs: 5000, auth: undefined });
  t.equal(ok.status, 200);
});

t.test('a hanging upstream gives 504 and its socket is closed by the client', async (t) => {
  const { url, client } = await startHarness(t);
  const { error } = await expectPalisadeError(() =>
    client.send({ url: `${url}/v1/chat/completions`, headers: { ...JSON_HEADERS, 'x-mock-hang': '1' }, body: chatBody('hang'), timeoutMs: 250, auth: undefined }),
  );
  t.equal(error.code, 'LLM_TIMEOUT');
  t.equal(error.status, 504);

  // Raw server that never answers: the aborted request must free the socket on the server side too.
  const raw = await startRawServer(t, () => undefined);
  const second = await expectPalisadeError(() => client.send({ url: `${raw.url}/v1/chat/completions`, body: chatBody('x'), timeoutMs: 200, auth: undefined }));
  t.equal(second.error.code, 'LLM_TIMEOUT');
  t.ok(await waitFor(() => raw.closedSockets >= 1 && raw.sockets.size === 0), 'the upstream socket was closed');
});

t.test('the deadline covers the body: a stream slower than timeoutMs gives 504', async (t) => {
  const { url, client } = await startHarness(t);
  const prompt = Array.from({ length: 20 }, (_, i) => `w${i}`).join(' ');
  const { error, elapsedMs } = await expectPalisadeError(() =>
    client.send({
      url: `${url}/v1/chat/completions`,
      headers: { ...JSON_HEADERS, 'x-mock-chunk-delay-ms': '100' },
      body: chatBody(prompt, { stream: true }),
      timeoutMs: 400,
      auth: undefined,
    }),
  );
  t.equal(error.code, 'LLM_TIMEOUT');
  t.ok(elapsedMs >= 380 && elapsedMs < 1500, `elapsed ${elapsedMs} ms`);
});

t.test('a connection closed by the upstream gives LLM_REQUEST_FAILED 502', async (t) => {
  const { url, client } = await startHarness(t);
  const { error } = await expectPalisadeError(() =>
    client.send({ url: `${url}/v1/chat/completions`, headers: { ...JSON_HEADERS, 'x-mock-close': '1' }, body: chatBody('x'), timeoutMs: 5000, auth: undefined }),
  );
  t.equal(error.code, 'LLM_REQUEST_FAILED');
  t.equal(error.status, 502);
  t.match(error.message, /closed|reset/);
  t.notMatch(error.message, /\/v1\/chat/, 'the message names the origin, not the path');
});

t.test('a closed port gives 502 naming ECONNREFUSED', async (t) => {
  const { client } = await startHarness(t);
  const port = await freePort();
  const { error } = await expectPalisadeError(() => client.send({ url: `http://127.0.0.1:${port}/v1/chat/completions`, body: chatBody('x'), timeoutMs: 5000, auth: undefined }));
  t.equal(error.code, 'LLM_REQUEST_FAILED');
  t.equal(error.status, 502);
  t.match(error.message, /ECONNREFUSED/);
  t.match(error.message, /connection refused/);
});

t.test('a DNS failure gives 502 naming it', async (t) => {
  const { client } = await startHarness(t);
  const { error } = await expectPalisadeError(() => client.send({ url: 'http://no-such-host.invalid/v1/chat/completions', body: chatBody('x'), timeoutMs: 5000, auth: undefined }));
  t.equal(error.code, 'LLM_REQUEST_FAILED');
  t.match(error.message, /DNS lookup failed \((ENOTFOUND|EAI_AGAIN)/);
});

t.test('invalid requests are refused before any I/O', async (t) => {
  const { client } = await startHarness(t);
  t.equal((await expectPalisadeError(() => client.send({ url: 'not a url', timeoutMs: 1000, auth: undefined }))).error.code, 'LLM_REQUEST_FAILED');
  t.match((await expectPalisadeError(() => client.send({ url: 'ftp://x/y', timeoutMs: 1000, auth: undefined }))).error.message, /scheme ftp:/);
  t.equal((await expectPalisadeError(() => client.send({ url: 'http://127.0.0.1:1/', timeoutMs: 0, auth: undefined }))).error.code, 'INTERNAL_ERROR');
});

t.test('a caller abort ends the exchange with LLM_REQUEST_FAILED', async (t) => {
  const { url, client } = await startHarness(t);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  const { error, elapsedMs } = await expectPalisadeError(() =>
    client.send({ url: `${url}/v1/chat/completions`, headers: { 'x-mock-hang': '1' }, body: chatBody('x'), timeoutMs: 5000, auth: undefined, signal: controller.signal }),
  );
  t.equal(error.code, 'LLM_REQUEST_FAILED');
  t.match(error.message, /aborted by the caller/);
  t.ok(elapsedMs < 2000);
});

t.test('streams are read to their end and returned as one body with the assembled text', async (t) => {
  const { url, client } = await startHarness(t);
  const prompt = 'Stream me a few words, please';
  const cases = [
    {
      name: 'vendor_a chat',
      path: '/v1/chat/completions',
      body: (stream: boolean) => chatBody(prompt, stream ? { stream: true } : {}),
      text: (j: any) => j.choices[0].message.content,
      marker: 'data: [DONE]',
    },
    {
      name: 'vendor_a legacy completions',
      path: '/v1/completions',
      body: (stream: boolean) => JSON.stringify({ model: 'm', prompt, ...(stream ? { stream: true } : {}) }),
      text: (j: any) => j.choices[0].text,
      marker: 'data: [DONE]',
    },
    {
      name: 'vendor_b messages',
      path: '/v1/messages',
      body: (stream: boolean) => JSON.stringify({ model: 'claude', max_tokens: 100, messages: [{ role: 'user', content: prompt }], ...(stream ? { stream: true } : {}) }),
      text: (j: any) => j.content[0].text,
      marker: 'event: message_stop',
    },
    {
      name: 'vendor_i-compatible vendor_h chat',
      path: '/vendor_h/v1/chat/completions',
      body: (stream: boolean) => chatBody(prompt, stream ? { stream: true } : {}),
      text: (j: any) => j.choices[0].message.content,
      marker: 'data: [DONE]',
    },
  ];
  for (const c of cases) {
    const plain = await client.send({ url: `${url}${c.path}`, headers: JSON_HEADERS, body: c.body(false), timeoutMs: 5000, auth: undefined });
    t.equal(plain.status, 200, `${c.name} plain`);
    const expected = c.text(JSON.parse(plain.text ?? ''));
    const streamed = await client.send({
      url: `${url}${c.path}`,
      headers: { ...JSON_HEADERS, 'x-mock-chunk-delay-ms': '5' },
      body: c.body(true),
      timeoutMs: 5000,
      auth: undefined,
    });
    t.equal(streamed.status, 200, `${c.name} streamed`);
    t.equal(streamed.isEventStream, true, `${c.name} is a stream`);
    t.equal(streamed.streamFormat, 'sse');
    t.equal(streamed.streamComplete, true, `${c.name} end marker seen`);
    t.match(streamed.contentType, /^text\/event-stream/);
    t.ok(streamed.body.toString('utf8').includes(c.marker), `${c.name} whole stream returned`);
    t.equal(streamed.assembled, expected, `${c.name} assembled text equals the non-stream answer`);
  }
});

t.test('gemini streams: SSE (alt=sse, CRLF frames) and the JSON-array form', async (t) => {
  const { url, client } = await startHarness(t);
  const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Tell me about gemini streams' }] }] });
  const plain = await client.send({ url: `${url}/v1beta/models/gemini-pro:generateContent`, headers: JSON_HEADERS, body, timeoutMs: 5000, auth: undefined });
  const expected = JSON.parse(plain.text ?? '').candidates[0].content.parts[0].text;
  t.equal(expected, 'Echo: Tell me about gemini streams');

  const sse = await client.send({ url: `${url}/v1beta/models/gemini-pro:streamGenerateContent?alt=sse`, headers: JSON_HEADERS, body, timeoutMs: 5000, auth: undefined });
  t.equal(sse.isEventStream, true);
  t.equal(sse.assembled, expected);
  t.equal(sse.streamComplete, false, 'gemini has no end marker: read to the end of the stream');

  const array = await client.send({ url: `${url}/v1beta/models/gemini-pro:streamGenerateContent`, headers: JSON_HEADERS, body, timeoutMs: 5000, auth: undefined });
  t.equal(array.isEventStream, false);
  t.equal(array.assembled, expected, 'the JSON array of chunks is assembled too');
});

t.test('vendor_g NDJSON streams', async (t) => {
  const { url, client } = await startHarness(t);
  for (const [path, extra, read] of [
    ['/api/chat', { messages: [{ role: 'user', content: 'ndjson please now' }] }, (j: any) => j.message.content],
    ['/api/generate', { prompt: 'generate this text' }, (j: any) => j.response],
  ] as const) {
    const plain = await client.send({ url: `${url}${path}`, body: JSON.stringify({ model: 'llama', stream: false, ...extra }), timeoutMs: 5000, auth: undefined });
    const streamed = await client.send({ url: `${url}${path}`, body: JSON.stringify({ model: 'llama', stream: true, ...extra }), timeoutMs: 5000, auth: undefined });
    t.equal(streamed.isEventStream, true, path);
    t.equal(streamed.streamFormat, 'ndjson');
    t.equal(streamed.streamComplete, true);
    t.equal(streamed.assembled, read(JSON.parse(plain.text ?? '')), path);
  }
});

t.test('a stream asked for in NDJSON but labelled application/json (gRPC-gateway servers) is read as NDJSON', async (t) => {
  const { client } = await startHarness(t);
  const line = (text: string, status: string) => `${JSON.stringify({ result: { alternatives: [{ message: { role: 'assistant', text }, status }] } })}\n`;
  const server = await startRawServer(t, (req, res) => {
    res.writeHead(req.headers['x-status'] === '400' ? 400 : 200, { 'content-type': 'application/json' });
    res.write(line('Hello', 'ALTERNATIVE_STATUS_PARTIAL'));
    res.end(line('Hello world', 'ALTERNATIVE_STATUS_FINAL'));
  });
  const send = (expectedStream: 'ndjson' | undefined, headers: Record<string, string> = {}) => {
    const heads: string[] = [];
    return client
      .send({
        url: `${server.url}/foundationModels/v1/completion`,
        headers,
        body: JSON.stringify({ completionOptions: { stream: true }, messages: [{ role: 'user', text: 'hi' }] }),
        timeoutMs: 5000,
        auth: undefined,
        onStreamStart: (head) => {
          heads.push(head.format);
          return () => {};
        },
        ...(expectedStream ? { expectedStream } : {}),
      })
      .then((res) => ({ res, heads }));
  };
  const asked = await send('ndjson');
  t.same(asked.heads, ['ndjson'], 'the stream tap starts, in NDJSON');
  t.equal(asked.res.streamFormat, 'ndjson');
  t.equal(asked.res.assembled, 'Hello world', "the cumulative lines' last text");
  const unasked = await send(undefined);
  t.same(unasked.heads, [], 'without the expectation, plain JSON is no stream');
  const failed = await send('ndjson', { 'x-status': '400' });
  t.same(failed.heads, [], 'an error answer is never read as the stream');
});

t.test('a stream without an end marker is read to its end; one that stays open after the marker is cut', async (t) => {
  const { client } = await startHarness(t);
  const frame = (text: string): string => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\n\n`;
  const truncated = await startRawServer(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(frame('Hello'));
    res.end(frame(' world'));
  });
  const r1 = await client.send({ url: `${truncated.url}/v1/chat/completions`, body: chatBody('x', { stream: true }), timeoutMs: 5000, auth: undefined });
  t.equal(r1.streamComplete, false);
  t.equal(r1.assembled, 'Hello world');

  const open = await startRawServer(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(frame('All'));
    res.write(frame(' done'));
    res.write('data: [DONE]\n\n'); // … and never ends the response
  });
  const started = performance.now();
  const r2 = await client.send({ url: `${open.url}/v1/chat/completions`, body: chatBody('x', { stream: true }), timeoutMs: 5000, auth: undefined });
  const elapsed = performance.now() - started;
  t.equal(r2.status, 200);
  t.equal(r2.streamComplete, true);
  t.equal(r2.assembled, 'All done');
  t.ok(r2.body.toString().endsWith('data: [DONE]\n\n'));
  t.ok(elapsed < 1500, `returned after the marker (${elapsed} ms), not at the timeout`);
  t.ok(await waitFor(() => open.sockets.size === 0), 'the still-open stream socket was closed');
});

t.test('a compressed answer is decoded (and content-encoding dropped)', async (t) => {
  const { client } = await startHarness(t);
  const sse = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'zipped text' } }] })}\n\ndata: [DONE]\n\n`;
  const raw = await startRawServer(t, (req, res) => {
    t.equal(req.headers['accept-encoding'], 'identity', 'the client asks for identity');
    const payload = gzipSync(sse);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip', 'content-length': String(payload.length) });
    res.end(payload);
  });
  const res = await client.send({ url: `${raw.url}/v1/chat/completions`, headers: { 'accept-encoding': 'gzip, br' }, body: chatBody('x'), timeoutMs: 5000, auth: undefined });
  t.equal(res.body.toString('utf8'), sse);
  t.equal(res.assembled, 'zipped text');
  t.equal(res.headers['content-encoding'], undefined);
  t.equal(res.headers['content-length'], undefined);
});

t.test('an answer over maxResponseBytes fails with 502', async (t) => {
  const { url, client } = await startHarness(t, { client: { maxResponseBytes: 100 } });
  const { error } = await expectPalisadeError(() => client.send({ url: `${url}/v1/chat/completions`, body: chatBody('x'.repeat(500)), timeoutMs: 5000, auth: undefined }));
  t.equal(error.code, 'LLM_REQUEST_FAILED');
  t.match(error.message, /larger than 100 bytes/);
});

t.test('hop-by-hop headers are not forwarded either way', async (t) => {
  const { client } = await startHarness(t);
  let seen: Record<string, unknown> = {};
  const raw = await startRawServer(t, (req, res) => {
    seen = { ...req.headers };
    res.writeHead(200, {
      'content-type': 'application/json',
      connection: 'keep-alive, x-hop',
      'keep-alive': 'timeout=5',
      'x-hop': 'private',
      'proxy-authenticate': 'Basic',
      'x-upstream': 'kept',
      'set-cookie': ['a=1', 'b=2'],
    });
    res.end('{"ok":true}');
  });
  const res = await client.send({
    url: `${raw.url}/v1/chat/completions`,
    headers: {
      'Content-Type': 'application/json',
      Connection: 'x-private-hop',
      'X-Private-Hop': 'secret',
      'Keep-Alive': 'timeout=5',
      'Proxy-Authorization': 'Basic abc',
      'Proxy-Connection': 'keep-alive',
      TE: 'trailers',
      Trailer: 'x-t',
      Upgrade: 'websocket',
      Host: 'evil.example',
      'Content-Length': '999',
      'X-Custom': 'kept',
      'X-Multi': ['a', 'b'],
    },
    body: chatBody('x'),
    timeoutMs: 5000,
    auth: undefined,
  });
  t.equal(res.status, 200);
  for (const name of ['x-private-hop', 'keep-alive', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'upgrade']) t.equal(seen[name], undefined, `request ${name} stripped`);
  t.equal(seen['x-custom'], 'kept');
  t.equal(seen['x-multi'], 'a, b');
  t.equal(seen.host, raw.url.replace('http://', ''), 'Host is the upstream');
  t.equal(seen['content-length'], String(Buffer.byteLength(chatBody('x'))), 'content-length is recomputed');
  for (const name of ['connection', 'keep-alive', 'x-hop', 'proxy-authenticate', 'content-length', 'transfer-encoding']) t.equal(res.headers[name], undefined, `response ${name} stripped`);
  t.equal(res.headers['x-upstream'], 'kept');
  t.same(res.headers['set-cookie'], ['a=1', 'b=2']);
});

t.test('passthrough forwards the client Authorization; bearer replaces it', async (t) => {
  const { mock, url, client } = await startHarness(t);
  const send = (auth: Parameters<typeof client.send>[0]['auth'], extra: { clientAuthorization?: string; headers?: Record<string, string> } = {}) =>
    client.send({ url: `${url}/v1/chat/completions`, body: chatBody('x'), timeoutMs: 5000, auth, ...extra });

  await send(undefined, { clientAuthorization: 'Bearer client-key' });
  t.equal(mock.requests.at(-1)?.headers.authorization, 'Bearer client-key', 'default passthrough');
  await send({ type: 'passthrough' }, { headers: { authorization: 'Bearer from-headers' } });
  t.equal(mock.requests.at(-1)?.headers.authorization, 'Bearer from-headers', 'passthrough falls back to the forwarded header');
  await send({ type: 'passthrough' });
  t.equal(mock.requests.at(-1)?.headers.authorization, undefined, 'no client credential, none sent');
  await send({ type: 'bearer', token: 'provider-token' }, { clientAuthorization: 'Bearer client-key' });
  t.equal(mock.requests.at(-1)?.headers.authorization, 'Bearer provider-token', 'bearer replaces the client credential');
});

t.test('vendor_c api-key header instead of Authorization', async (t) => {
  const { mock, url, client } = await startHarness(t, { mock: { vendorCApiKey: 'azure-key' } });
  const target = `${url}/openai/deployments/gpt4/chat/completions?api-version=2024-02-01`;
  const denied = await client.send({ url: target, body: chatBody('x'), timeoutMs: 5000, auth: undefined, clientAuthorization: 'Bearer client-key' });
  t.equal(denied.status, 401, 'without api-key the upstream 401 is returned, not thrown');

  const ok = await client.send({
    url: target,
    headers: { 'api-key': 'client-supplied' },
    body: chatBody('hello azure'),
    timeoutMs: 5000,
    auth: { type: 'api_key_header', header: 'api-key', key: 'azure-key' },
    clientAuthorization: 'Bearer client-key',
  });
  t.equal(ok.status, 200);
  t.equal(JSON.parse(ok.text ?? '').choices[0].message.content, 'Echo: hello azure');
  const seen = mock.requests.at(-1)?.headers;
  t.equal(seen?.['api-key'], 'azure-key', 'the configured key replaces a client one');
  t.equal(seen?.authorization, undefined, 'the client Authorization is not forwarded');

  const custom = await client.send({ url: `${url}/v1/chat/completions`, body: chatBody('x'), timeoutMs: 5000, auth: { type: 'api_key_header', header: 'X-Api-Key', key: 'k1' } });
  t.equal(custom.status, 200);
  t.equal(mock.requests.at(-1)?.headers['x-api-key'], 'k1');
});

t.test('keep-alive: sequential requests reuse connections', async (t) => {
  const { client } = await startHarness(t);
  let connections = 0;
  const raw = await startRawServer(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  raw.server.on('connection', () => (connections += 1));
  for (let i = 0; i < 10; i += 1) await client.send({ url: `${raw.url}/x`, body: '{}', timeoutMs: 5000, auth: undefined });
  // undici may open a second socket while the first is still being released; never one per request.
  t.ok(connections <= 2, `${connections} connections for 10 requests`);
});

t.test('after close() sends fail with 502', async (t) => {
  const { url, client } = await startHarness(t);
  await client.close();
  await client.close();
  const { error } = await expectPalisadeError(() => client.send({ url: `${url}/v1/chat/completions`, body: chatBody('x'), timeoutMs: 1000, auth: undefined }));
  t.equal(error.code, 'LLM_REQUEST_FAILED');
  await sleep(1);
});
