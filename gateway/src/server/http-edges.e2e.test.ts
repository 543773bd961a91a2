// What the HTTP server itself refuses, over raw sockets: every method but POST, malformed requests,
// oversized headers, slow clients, too many connections and bad tenant ids, all answered in the spec's
// error shape (or, past the connection cap, not accepted at all).
import t, { type Test } from 'tap';
import { connect } from 'node:net';
import { openOneDatabase } from '../testing/one-database.js';
import { startStack, type Stack } from '../testing/stack.js';

type Step = string | { waitMs: number };

/** Whether `data` holds one whole HTTP answer (its head and Content-Length bytes of body). */
function complete(data: string): boolean {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(data.slice(0, end));
  return length !== null && Buffer.byteLength(data.slice(end + 4)) >= Number(length[1]);
}

/**
 * Writes the steps to a new socket; resolves with what came back and when the socket closed (or, once
 * a whole answer came back on a connection the server keeps alive, when the test closed it).
 */
function exchange(url: string, steps: Step[], keepOpenMs = 5000) {
  const { hostname, port } = new URL(url);
  return new Promise<{ data: string; closedAfterMs: number }>((resolve) => {
    const started = Date.now();
    let data = '';
    let closed = false;
    const socket = connect(Number(port), hostname, async () => {
      for (const step of steps) {
        if (closed) return;
        if (typeof step === 'string') socket.write(step);
        else await new Promise((r) => setTimeout(r, step.waitMs));
      }
    });
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      data += chunk;
      if (complete(data)) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      resolve({ data, closedAfterMs: Date.now() - started });
    });
    setTimeout(() => socket.destroy(), keepOpenMs).unref();
  });
}

/** Status, headers and the JSON body of a raw answer. */
function parse(data: string) {
  const [head = '', body = ''] = data.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  let json: any;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, json };
}

const SPEC_ERROR = { error: { code: String, message: String, type: String } };

async function withStack(t: Test, gatewayEnv: Record<string, string>): Promise<Stack> {
  let closeStack = async () => undefined as void;
  const db = await openOneDatabase(t, () => closeStack());
  const stack = await startStack({ db, gatewayEnv, inspect: false });
  closeStack = () => stack.close();
  return stack;
}

t.test('every method but POST is a 405 in the spec shape, malformed requests a 400, big headers a 431', async (t) => {
  const stack = await withStack(t, {});
  for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'MKCOL', 'FOO', 'BREW']) {
    const res = parse((await exchange(stack.gatewayUrl, [`${method} /v1/chat/completions HTTP/1.1\r\nHost: gw\r\n\r\n`], 3000)).data);
    t.equal(res.status, 405, `${method} → 405`);
    t.equal(res.headers.allow, 'POST', `${method}: Allow: POST`);
    t.match(res.json, { error: { code: 'METHOD_NOT_ALLOWED', type: 'invalid_request_error' } }, `${method}: spec body`);
  }
  const connectRes = parse((await exchange(stack.gatewayUrl, ['CONNECT llm.example.com:443 HTTP/1.1\r\nHost: llm.example.com:443\r\n\r\n'], 3000)).data);
  t.equal(connectRes.status, 405, 'CONNECT → 405, not a dropped socket');
  t.match(connectRes.json, { error: { code: 'METHOD_NOT_ALLOWED' } });

  const bigHeaders = parse((await exchange(stack.gatewayUrl, [`POST /chat HTTP/1.1\r\nHost: gw\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`], 3000)).data);
  t.equal(bigHeaders.status, 431);
  t.match(bigHeaders.json, { error: { code: 'HEADERS_TOO_LARGE', type: 'invalid_request_error' } });

  for (const [name, request] of [
    ['garbage', 'hello there\r\n\r\n'],
    ['both Content-Length and chunked', 'POST /chat HTTP/1.1\r\nHost: gw\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}'],
    ['a bad Content-Length', 'POST /chat HTTP/1.1\r\nHost: gw\r\nContent-Length: x\r\n\r\n{}'],
    ['a URL the router cannot decode', 'POST /%zz HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'],
  ] as const) {
    const res = parse((await exchange(stack.gatewayUrl, [request], 3000)).data);
    t.equal(res.status, 400, `${name} → 400`);
    t.match(res.json, SPEC_ERROR, `${name}: spec body`);
    t.equal(res.json?.error?.code, 'INVALID_REQUEST', `${name}: INVALID_REQUEST`);
  }
  t.equal((await stack.call('GET', '/health/live')).status, 200, 'health stays a GET route');
});

t.test('X-Tenant-ID is validated and never echoed', async (t) => {
  const stack = await withStack(t, {});
  const body = { messages: [{ role: 'user', content: 'hi' }] };
  for (const tenant of ['a'.repeat(256), 'acme<script>', 'x y', '../etc', '-x']) {
    const res = await stack.call('POST', '/v1/chat/completions', { body, headers: { 'x-tenant-id': tenant } });
    t.equal(res.status, 400, `${tenant.slice(0, 20)} → 400`);
    t.match(res.json, { error: { code: 'INVALID_REQUEST', type: 'invalid_request_error' } });
    t.notOk(res.text.includes(tenant), 'the tenant id is not repeated');
  }
  const longest = 'a'.repeat(255);
  const ok = await stack.call('POST', '/v1/chat/completions', { body, headers: { 'x-tenant-id': longest } });
  t.equal(ok.json?.error?.code, 'NO_BACKEND_CONFIGURED', 'a valid id of 255 characters is routed (no provider there)');
  const named = await stack.call('POST', '/v1/chat/completions', { body, headers: { 'x-tenant-id': 'acme.eu_1:team@x-y' } });
  t.equal(named.json?.error?.code, 'NO_BACKEND_CONFIGURED');
});

t.test('slow headers and slow bodies get 408 after their timeouts', async (t) => {
  const stack = await withStack(t, { GATEWAY_HEADERS_TIMEOUT: '1', GATEWAY_BODY_TIMEOUT: '2' });
  await stack.provider({ match_value: '/v1/chat/completions' });
  const drip = (text: string, everyMs: number): Step[] => [...text].flatMap((c) => [c, { waitMs: everyMs }]);

  const slowHeaders = await exchange(stack.gatewayUrl, ['POST /v1/chat/completions HTTP/1.1\r\n', ...drip('X-Slow: ' + 'a'.repeat(100), 100)], 8000);
  const headersAnswer = parse(slowHeaders.data);
  t.equal(headersAnswer.status, 408, 'headers dripped past GATEWAY_HEADERS_TIMEOUT');
  t.match(headersAnswer.json, { error: { code: 'REQUEST_TIMEOUT', type: 'invalid_request_error' } });
  t.ok(slowHeaders.closedAfterMs < 3500, `closed after ${slowHeaders.closedAfterMs} ms`);

  const body = JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(60) }] });
  const head = `POST /v1/chat/completions HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
  const slowBody = await exchange(stack.gatewayUrl, [head, ...drip(body, 100)], 10_000);
  const bodyAnswer = parse(slowBody.data);
  t.equal(bodyAnswer.status, 408, 'body dripped past GATEWAY_BODY_TIMEOUT');
  t.match(bodyAnswer.json, { error: { code: 'REQUEST_TIMEOUT' } });
  t.ok(slowBody.closedAfterMs < 4500, `closed after ${slowBody.closedAfterMs} ms`);
  t.equal(stack.mock.requests.length, 0, 'nothing reached the upstream');

  const quick = parse((await exchange(stack.gatewayUrl, [head + body], 3000)).data);
  t.equal(quick.status, 200, 'a request sent at once is served');
});

t.test('connections past GATEWAY_MAX_CONNECTIONS are not accepted', async (t) => {
  const stack = await withStack(t, { GATEWAY_MAX_CONNECTIONS: '3' });
  const { hostname, port } = new URL(stack.gatewayUrl);
  const open = async () => {
    const socket = connect(Number(port), hostname);
    socket.on('error', () => undefined);
    await new Promise((r) => socket.once('connect', r));
    return socket;
  };
  const held = [await open(), await open(), await open()];
  await new Promise((r) => setTimeout(r, 100));
  const refused = await exchange(stack.gatewayUrl, ['GET /health/live HTTP/1.1\r\nHost: gw\r\n\r\n'], 3000);
  t.equal(refused.data, '', 'the fourth connection is closed unanswered');
  t.ok(refused.closedAfterMs < 2000, 'at once');
  held.pop()!.destroy();
  await new Promise((r) => setTimeout(r, 100));
  const served = await exchange(stack.gatewayUrl, ['GET /health/live HTTP/1.1\r\nHost: gw\r\nConnection: close\r\n\r\n'], 3000);
  t.match(served.data, /^HTTP\/1\.1 200/, 'a freed slot serves again');
  for (const s of held) s.destroy();
});
