// Wire-level behaviour that a well-behaved kafkajs client never shows: malformed frames, APIs the broker
// does not implement, corrupted batches. Requests are encoded with kafkajs's own protocol encoders.
import { createRequire } from 'node:module';
import { connect, type Socket } from 'node:net';
import t, { type Test } from 'tap';
import { startKafkaBroker } from './broker.js';
import type { KafkaTestBroker } from './types.js';
import { WireReader } from './wire.js';

const require = createRequire(import.meta.url);
type Encoded = { buffer: Buffer };
const encodeRequest = require('kafkajs/src/protocol/request') as (args: { correlationId: number; clientId: string; request: unknown }) => Promise<Encoded>;
const metadataV6 = require('kafkajs/src/protocol/requests/metadata/v6/request') as (args: { topics: string[] }) => unknown;
const produceV7 = require('kafkajs/src/protocol/requests/produce/v7/request') as (args: object) => unknown;
const produceV3 = require('kafkajs/src/protocol/requests/produce/v3/request') as (args: object) => unknown;

interface RawClient {
  send(frame: Buffer): void;
  /** The next response frame's body after the correlation id, or null when the broker closed instead. */
  response(): Promise<{ correlationId: number; body: WireReader } | null>;
  closed: Promise<void>;
}

async function rawClient(broker: KafkaTestBroker): Promise<RawClient> {
  const socket: Socket = connect(broker.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let buffered = Buffer.alloc(0);
  let wake: (() => void) | undefined;
  let ended = false;
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    wake?.();
  });
  void closed.then(() => {
    ended = true;
    wake?.();
  });
  return {
    send: (frame) => socket.write(frame),
    closed,
    async response() {
      for (;;) {
        if (buffered.length >= 4 && buffered.length >= 4 + buffered.readInt32BE(0)) {
          const size = buffered.readInt32BE(0);
          const frame = buffered.subarray(4, 4 + size);
          buffered = buffered.subarray(4 + size);
          return { correlationId: frame.readInt32BE(0), body: new WireReader(frame.subarray(4)) };
        }
        if (ended) return null;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}

async function startQuietBroker(t: Test): Promise<{ broker: KafkaTestBroker; logged: string[] }> {
  const logged: string[] = [];
  const broker = await startKafkaBroker({ log: (line) => logged.push(line) });
  t.teardown(() => broker.close());
  return { broker, logged };
}

t.test('a frame with an impossible size closes the connection', async (t) => {
  const { broker, logged } = await startQuietBroker(t);
  const client = await rawClient(broker);
  const frame = Buffer.alloc(8);
  frame.writeInt32BE(3, 0);
  client.send(frame);
  await client.closed;
  t.match(logged.join('\n'), /malformed frame: size 3/);
});

t.test('a truncated request header closes the connection', async (t) => {
  const { broker, logged } = await startQuietBroker(t);
  const client = await rawClient(broker);
  // Size 8: api key, version, correlation id, then a client id length that promises 100 bytes.
  client.send(Buffer.from([0, 0, 0, 10, 0, 18, 0, 0, 0, 0, 0, 1, 0, 100]));
  t.equal(await client.response(), null);
  t.match(logged.join('\n'), /malformed request: truncated/);
});

t.test('an API the broker does not implement closes the connection with a log line', async (t) => {
  const { broker, logged } = await startQuietBroker(t);
  const client = await rawClient(broker);
  const fetch = new Uint8Array([0, 0, 0, 12, 0, 1, 0, 11, 0, 0, 0, 7, 0, 2, 0x69, 0x64]);
  client.send(Buffer.from(fetch));
  t.equal(await client.response(), null);
  t.match(logged.join('\n'), /unsupported API Fetch \(key 1\) v11/);
  t.same(broker.requests, [{ api: 'Fetch', version: 11, clientId: 'id' }]);
});

t.test('ApiVersions of an unknown version answers UNSUPPORTED_VERSION with the supported list', async (t) => {
  const { broker } = await startQuietBroker(t);
  const client = await rawClient(broker);
  client.send(Buffer.from([0, 0, 0, 10, 0, 18, 0, 9, 0, 0, 0, 5, 0xff, 0xff]));
  const response = await client.response();
  t.equal(response?.correlationId, 5);
  t.equal(response?.body.int16(), 35);
  const versions = response?.body.array((r) => ({ apiKey: r.int16(), min: r.int16(), max: r.int16() })) ?? [];
  t.same(versions.find((v) => v.apiKey === 0), { apiKey: 0, min: 3, max: 7 }, 'Produce v3-v7');
  t.equal(response?.body.remaining, 0, 'v0 form: no throttle time');
});

t.test('a batch whose CRC does not match is refused with CORRUPT_MESSAGE', async (t) => {
  const { broker, logged } = await startQuietBroker(t);
  const client = await rawClient(broker);
  client.send((await encodeRequest({ correlationId: 1, clientId: 'raw', request: metadataV6({ topics: ['crc'] }) })).buffer);
  t.ok(await client.response(), 'metadata answered (topic created)');

  const topicData = [{ topic: 'crc', partitions: [{ partition: 0, messages: [{ key: 'k', value: 'payload' }] }] }];
  const frame = Buffer.from((await encodeRequest({ correlationId: 2, clientId: 'raw', request: produceV7({ acks: -1, timeout: 1000, topicData }) })).buffer);
  frame.writeUInt8(frame.readUInt8(frame.length - 2) ^ 0xff, frame.length - 2); // inside the last record's value
  client.send(frame);
  const response = await client.response();
  t.equal(response?.correlationId, 2);
  const topics = response?.body.array((r) => ({ name: r.string(), partitions: r.array((p) => ({ partition: p.int32(), errorCode: p.int16() })) }));
  t.same(topics, [{ name: 'crc', partitions: [{ partition: 0, errorCode: 2 }] }]);
  t.same(broker.records('crc'), []);
  t.match(logged.join('\n'), /CRC-32C mismatch/);

  // The connection stays usable: the same batch uncorrupted is appended.
  client.send((await encodeRequest({ correlationId: 3, clientId: 'raw', request: produceV7({ acks: 1, timeout: 1000, topicData }) })).buffer);
  t.equal((await client.response())?.correlationId, 3);
  t.equal(broker.records('crc')[0]?.value?.toString(), 'payload');
});

t.test('zstd on a produce version before 7 is refused with UNSUPPORTED_COMPRESSION_TYPE', async (t) => {
  const { broker } = await startQuietBroker(t);
  const client = await rawClient(broker);
  client.send((await encodeRequest({ correlationId: 1, clientId: 'raw', request: metadataV6({ topics: ['old'] }) })).buffer);
  await client.response();
  // Codec 4 (zstd) with a payload nobody will read: the version check comes first.
  const kafkajs = require('kafkajs') as { CompressionCodecs: Record<number, () => unknown> };
  kafkajs.CompressionCodecs[4] = () => ({ compress: async ({ buffer }: Encoded) => buffer });
  const topicData = [{ topic: 'old', partitions: [{ partition: 0, messages: [{ value: 'v' }] }] }];
  client.send((await encodeRequest({ correlationId: 2, clientId: 'raw', request: produceV3({ acks: 1, timeout: 1000, compression: 4, topicData }) })).buffer);
  const response = await client.response();
  const errorCode = response?.body.array((r) => (r.string(), r.array((p) => (p.int32(), p.int16()))))[0]?.[0];
  t.equal(errorCode, 76);
});

t.test('produce to a topic that Metadata never created answers UNKNOWN_TOPIC_OR_PARTITION', async (t) => {
  const { broker } = await startQuietBroker(t);
  const client = await rawClient(broker);
  const topicData = [{ topic: 'nowhere', partitions: [{ partition: 0, messages: [{ value: 'v' }] }] }];
  client.send((await encodeRequest({ correlationId: 9, clientId: 'raw', request: produceV7({ acks: 1, timeout: 1000, topicData }) })).buffer);
  const response = await client.response();
  const errorCode = response?.body.array((r) => (r.string(), r.array((p) => (p.int32(), p.int16()))))[0]?.[0];
  t.equal(errorCode, 3);
});
