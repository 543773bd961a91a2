// A minimal single-node Kafka broker for tests: a real peer for kafkajs producers (ApiVersions, Metadata,
// Produce with RecordBatch v2 and every codec, SASL PLAIN/SCRAM, TLS, idempotent InitProducerId).
// Hand-written because no Kafka broker exists as a Node package; the real one needs a JVM, which the
// test machines do not have.
import { randomUUID } from 'node:crypto';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { createDecompressor } from './compression.js';
import { serveConnection, type BrokerContext } from './connection.js';
import { createPartitionLog, type PartitionLog } from './partition-log.js';
import { createSaslAuthenticator } from './sasl.js';
import type { KafkaBrokerOptions, KafkaRequestSeen, KafkaTestBroker, KafkaTestRecord } from './types.js';

const DEFAULT_WAIT_MS = 10_000;
const NODE_ID = 0;

export async function startKafkaBroker(options: KafkaBrokerOptions = {}): Promise<KafkaTestBroker> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const topics = new Map<string, PartitionLog>();
  const requests: KafkaRequestSeen[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  let port = options.port ?? 0;
  let lastProducerId = 999n;
  let server: Server | undefined;
  let closed = false;

  const context: BrokerContext = {
    nodeId: NODE_ID,
    clusterId: randomUUID(),
    host,
    port: () => port,
    sasl: options.sasl ? createSaslAuthenticator(options.sasl) : null,
    decompressor: createDecompressor(),
    topic: (name) => topics.get(name),
    createTopic(name) {
      const created = createPartitionLog(name);
      topics.set(name, created);
      return created;
    },
    topicNames: () => [...topics.keys()],
    nextProducerId: () => (lastProducerId += 1n),
    requestSeen: (request) => requests.push(request),
    recordsAppended: () => {
      for (const wake of [...waiters]) wake();
    },
    log,
  };

  const records = (topic: string): KafkaTestRecord[] => [...(topics.get(topic)?.records ?? [])];

  const listen = async (): Promise<void> => {
    const listener = options.tls ? createTlsServer({ key: options.tls.key, cert: options.tls.cert }) : createTcpServer();
    // Raw sockets are tracked (for TLS too, where a handshake may still be under way) so stop() can cut them.
    listener.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    if (options.tls) listener.on('secureConnection', (socket: Socket) => serveConnection(socket, context));
    else listener.on('connection', (socket: Socket) => serveConnection(socket, context));
    listener.on('tlsClientError', (error: Error) => log(`kafka test broker: TLS handshake failed: ${error.message}`));
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(port, host, () => {
        listener.off('error', reject);
        resolve();
      });
    });
    const address = listener.address();
    if (address && typeof address === 'object') port = address.port;
    server = listener;
  };

  const stop = async (): Promise<void> => {
    const listener = server;
    server = undefined;
    if (!listener) return;
    const closing = new Promise<void>((resolve) => listener.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closing;
  };

  await listen();

  return {
    get brokers() {
      return [`${host}:${port}`];
    },
    get port() {
      return port;
    },
    requests,
    records,
    waitForRecords(topic, count, timeoutMs = DEFAULT_WAIT_MS) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const current = records(topic);
          if (current.length < count) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(current);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`kafka test broker: ${records(topic).length} of ${count} records on topic ${topic} after ${timeoutMs} ms`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    stop,
    async start() {
      if (closed) throw new Error('kafka test broker: start() after close()');
      if (!server) await listen();
    },
    async close() {
      closed = true;
      await stop();
    },
  };
}
