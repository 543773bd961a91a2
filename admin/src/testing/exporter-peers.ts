// Real protocol peers for the exporter tests, on 127.0.0.1: a syslog / CEF receiver (UDP datagrams,
// TCP or TLS with octet-counting or newline framing) and an HTTP webhook receiver that can fail. Each
// can stop listening and listen again on the same port, to play a destination that is down.
import { once } from 'node:events';
import dgram from 'node:dgram';
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { setTimeout as sleep } from 'node:timers/promises';
import { generate } from 'selfsigned';
import { randomUUID } from 'node:crypto';
import { createSecurityEvent, Exporter, ExporterCreate, type SecurityEvent } from '@palisade/core';

export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export interface Received {
  /** Each message as bytes: a datagram, an octet-counted frame (without its length) or a line (without \n). */
  messages: Buffer[];
  /** Every byte received on streams, framing included. */
  raw: Buffer[];
}

export interface StreamReceiver extends Received {
  port: number;
  waitFor(count: number, timeoutMs?: number): Promise<Buffer[]>;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export type Framing = 'octet' | 'newline';

/** Splits complete frames off the front of `buffer`; returns the rest. */
function takeFrames(buffer: Buffer, framing: Framing, out: Buffer[]): Buffer {
  let rest = buffer;
  for (;;) {
    if (framing === 'newline') {
      const nl = rest.indexOf(0x0a);
      if (nl < 0) return rest;
      out.push(rest.subarray(0, nl));
      rest = rest.subarray(nl + 1);
      continue;
    }
    const sp = rest.indexOf(0x20);
    if (sp < 0) return rest;
    const length = Number(rest.subarray(0, sp).toString('ascii'));
    if (!Number.isInteger(length)) throw new Error(`bad octet count ${rest.subarray(0, sp).toString()}`);
    if (rest.length < sp + 1 + length) return rest;
    out.push(rest.subarray(sp + 1, sp + 1 + length));
    rest = rest.subarray(sp + 1 + length);
  }
}

export async function selfSignedCert(): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
  });
  return { key: pems.private, cert: pems.cert };
}

/** A TCP (or TLS with `tls`) receiver. */
export async function startStreamReceiver(options: { framing: Framing; tls?: { key: string; cert: string }; port?: number }): Promise<StreamReceiver> {
  const messages: Buffer[] = [];
  const raw: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = options.port ?? 0;
  const onConnection = (socket: net.Socket) => {
    sockets.add(socket);
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      raw.push(chunk);
      pending = takeFrames(Buffer.concat([pending, chunk]), options.framing, messages);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  };
  async function start(): Promise<void> {
    server = options.tls ? tls.createServer({ key: options.tls.key, cert: options.tls.cert }, onConnection) : net.createServer(onConnection);
    server.on('tlsClientError', () => undefined);
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as net.AddressInfo).port;
  }
  async function stop(): Promise<void> {
    const s = server;
    server = undefined;
    if (!s) return;
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  await start();
  return {
    messages,
    raw,
    get port() {
      return port;
    },
    async waitFor(count, timeoutMs = 15_000) {
      await until(`${count} messages (have ${messages.length})`, () => messages.length >= count, timeoutMs);
      return messages.slice(0, count);
    },
    stop,
    start,
    close: stop,
  };
}

/** A UDP receiver: one message per datagram. */
export async function startUdpReceiver(): Promise<StreamReceiver> {
  const messages: Buffer[] = [];
  let socket: dgram.Socket | undefined;
  let port = 0;
  async function start(): Promise<void> {
    socket = dgram.createSocket('udp4');
    socket.on('message', (msg) => messages.push(msg));
    socket.bind(port, '127.0.0.1');
    await once(socket, 'listening');
    port = socket.address().port;
  }
  async function stop(): Promise<void> {
    const s = socket;
    socket = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  await start();
  return {
    messages,
    raw: messages,
    get port() {
      return port;
    },
    async waitFor(count, timeoutMs = 15_000) {
      await until(`${count} datagrams (have ${messages.length})`, () => messages.length >= count, timeoutMs);
      return messages.slice(0, count);
    },
    stop,
    start,
    close: stop,
  };
}

export interface WebhookRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  /** Every request, failed ones included. */
  requests: WebhookRequest[];
  /** Requests answered 2xx. */
  accepted: WebhookRequest[];
  /** The next `count` requests get `status` (default 503). */
  failNext(count: number, status?: number): void;
  /** Every request waits this long before its answer. */
  delayMs: number;
  waitForAccepted(count: number, timeoutMs?: number): Promise<WebhookRequest[]>;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: WebhookRequest[] = [];
  const accepted: WebhookRequest[] = [];
  let failures: Array<number> = [];
  let server: http.Server | undefined;
  let port = 0;
  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    requests,
    accepted,
    delayMs: 0,
    failNext(count, status = 503) {
      failures = failures.concat(Array.from({ length: count }, () => status));
    },
    async waitForAccepted(count, timeoutMs = 15_000) {
      await until(`${count} accepted requests (have ${accepted.length})`, () => accepted.length >= count, timeoutMs);
      return accepted.slice(0, count);
    },
    start,
    stop,
    close: stop,
  };
  async function start(): Promise<void> {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        requests.push(request);
        if (receiver.delayMs > 0) await sleep(receiver.delayMs);
        const status = failures.shift() ?? 200;
        if (status < 300) accepted.push(request);
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status }));
      });
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as net.AddressInfo).port;
    receiver.port = port;
    receiver.url = `http://127.0.0.1:${port}/hook`;
  }
  async function stop(): Promise<void> {
    const s = server;
    server = undefined;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  await start();
  return receiver;
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A fixed, fully populated event with characters every format must escape. */
export function sampleEvent(overrides: Partial<SecurityEvent> = {}): SecurityEvent {
  return {
    ...createSecurityEvent(
      {
        id: '0b6f3c2e-9a51-4f7e-8d2a-1c3b5e7f9a01',
        timestamp: '2024-05-01T10:15:02.123Z',
        trace_id: 'trace-1',
        tenant_id: 'acme',
        event_type: 'JAILBREAK_DETECTED',
        source_ip: '192.0.2.10',
        provider_id: '00000000-0000-4000-8000-00000000000a',
        provider_name: 'vendor|a',
        profile_id: '00000000-0000-4000-8000-00000000000b',
        model: 'model=x',
        action: 'BLOCK',
        decision: 'BLOCK',
        jailbreak_score: 0.93,
        pii_entities: [],
        categories: [],
        policy_ids: [],
        reasons: ['score 0.93 >= 0.8', 'a\\b\nc'],
        user_prompt: 'ignore "all" ]rules[',
        latency_ms: 4.5,
      },
      new Date('2024-05-01T10:15:02.123Z'),
    ),
    ...overrides,
  };
}

/** A stored exporter record from a create body (defaults applied), created `createdAt`. */
export function exporterRecord(body: Record<string, unknown>, createdAt = new Date(Date.now() - 60_000)): Exporter {
  const spec = ExporterCreate.parse({ name: `exp-${randomUUID().slice(0, 8)}`, ...body });
  return Exporter.parse({ ...spec, id: randomUUID(), tenant_id: 'default', managed_by: 'api', created_at: createdAt.toISOString(), updated_at: createdAt.toISOString() });
}
