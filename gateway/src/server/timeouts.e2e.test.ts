// GATEWAY_SERVER_WRITE_TIMEOUT and the keep-alive idle timeout, with small values, over raw sockets.
import t from 'tap';
import { connect } from 'node:net';
import { forOneDatabase } from '@palisade/core/testing';
import { startStack } from '../testing/stack.js';

/** Sends one raw HTTP request on a new socket; resolves with what came back and when the socket closed. */
function rawExchange(url: string, request: string, keepOpenMs: number) {
  const { hostname, port } = new URL(url);
  return new Promise<{ data: string; closedAfterMs: number }>((resolve, reject) => {
    const started = Date.now();
    let data = '';
    const socket = connect(Number(port), hostname, () => socket.write(request));
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ data, closedAfterMs: Date.now() - started }));
    setTimeout(() => socket.destroy(), keepOpenMs).unref();
  });
}

t.test('write timeout and keep-alive idle timeout', async (t) => {
  await forOneDatabase(t, async (t, db) => {
    const stack = await startStack({ db, gatewayEnv: { GATEWAY_SERVER_WRITE_TIMEOUT: '1s', GATEWAY_KEEPALIVE_TIMEOUT: '1' } });
    t.teardown(() => stack.close());
    await stack.provider({ match_value: '/v1/chat/completions', request_timeout_ms: 10_000 });
    const body = JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] });
    const request = (delayMs: number) =>
      `POST /v1/chat/completions HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nx-mock-delay-ms: ${delayMs}\r\n\r\n${body}`;

    const slow = await rawExchange(stack.gatewayUrl, request(3000), 5000);
    t.equal(slow.data, '', 'no answer written in time');
    t.ok(slow.closedAfterMs >= 900 && slow.closedAfterMs < 2500, `the socket was closed after the write timeout (${slow.closedAfterMs} ms)`);

    const logsBefore = stack.logs.length;
    await rawExchange(stack.gatewayUrl, request(3000), 300);
    const deadline = Date.now() + 3000;
    while (!stack.logs.slice(logsBefore).some((l) => /client closed/.test(String(l.msg))) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const gone = stack.logs.slice(logsBefore).find((l) => /client closed/.test(String(l.msg)));
    t.equal(gone?.level, 30, 'a client that leaves stops the upstream call and is logged at info');
    t.notOk(stack.logs.slice(logsBefore).some((l) => (l.level ?? 0) >= 50), 'not as an error');

    const quick = await rawExchange(stack.gatewayUrl, request(0), 5000);
    t.match(quick.data, /^HTTP\/1\.1 200 OK/);
    t.match(quick.data, /keep-alive/i);
    t.ok(quick.closedAfterMs >= 900 && quick.closedAfterMs < 2500, `the idle keep-alive socket was closed after about 1 s (${quick.closedAfterMs} ms)`);
  });
});
