import t from 'tap';
import { startKafkaBroker } from './broker.js';
import { CompressionTypes, connectProducer, lz4Codec, snappyRawCodec, snappyXerialCodec, useCodec, zstdCodecs } from './test-support.js';

const quiet = (): void => {};

t.test('every compression arrives decoded, with keys and headers', async (t) => {
  const broker = await startKafkaBroker({ log: quiet });
  t.teardown(() => broker.close());
  const zstd = zstdCodecs();
  const cases = [
    { name: 'none', type: CompressionTypes.None, expect: 'none' },
    { name: 'gzip', type: CompressionTypes.GZIP, expect: 'gzip' },
    { name: 'snappy-xerial', type: CompressionTypes.Snappy, codec: snappyXerialCodec, expect: 'snappy' },
    { name: 'snappy-raw', type: CompressionTypes.Snappy, codec: snappyRawCodec, expect: 'snappy' },
    { name: 'lz4', type: CompressionTypes.LZ4, codec: lz4Codec, expect: 'lz4' },
    { name: 'zstd-sized', type: CompressionTypes.ZSTD, codec: zstd.withContentSize, expect: 'zstd' },
    { name: 'zstd-streamed', type: CompressionTypes.ZSTD, codec: zstd.streamed, expect: 'zstd' },
  ] as const;
  const producer = await connectProducer(broker);
  t.teardown(() => producer.disconnect());

  for (const c of cases) {
    if ('codec' in c) useCodec(c.type, c.codec);
    const topic = `events-${c.name}`;
    const long = 'x'.repeat(500); // spans several xerial blocks and gives the codecs something to squeeze
    await producer.send({
      topic,
      compression: c.type,
      messages: [
        { key: 'k1', value: `first ${long}`, headers: { 'trace-id': 'abc', source: Buffer.from([0, 1, 2]) }, timestamp: '1700000000000' },
        { key: null, value: 'second' },
        { key: 'k3', value: null },
      ],
    });
    const records = await broker.waitForRecords(topic, 3);
    t.equal(records.length, 3, `${c.name}: three records`);
    t.same(records.map((r) => r.offset), [0, 1, 2], `${c.name}: offsets`);
    t.ok(records.every((r) => r.compression === c.expect && r.partition === 0 && r.topic === topic), `${c.name}: compression ${c.expect}`);
    t.equal(records[0]!.key?.toString(), 'k1');
    t.equal(records[0]!.value?.toString(), `first ${long}`);
    t.equal(records[0]!.headers['trace-id']?.toString(), 'abc');
    t.same([...(records[0]!.headers.source ?? [])], [0, 1, 2]);
    t.equal(records[0]!.timestamp, 1700000000000, `${c.name}: timestamp`);
    t.equal(records[1]!.key, null, `${c.name}: null key`);
    t.equal(records[1]!.value?.toString(), 'second');
    t.equal(records[2]!.value, null, `${c.name}: null value`);
  }
});

t.test('several batches get increasing offsets, answered as base offsets', async (t) => {
  const broker = await startKafkaBroker({ log: quiet });
  t.teardown(() => broker.close());
  const producer = await connectProducer(broker, { clientId: 'offsets-client' });
  t.teardown(() => producer.disconnect());

  const answers = [];
  for (const size of [2, 3, 1]) {
    const messages = Array.from({ length: size }, (_, i) => ({ value: `batch of ${size} #${i}` }));
    answers.push(await producer.send({ topic: 'offsets', messages, acks: -1 }));
  }
  t.same(answers.map((a) => a[0]?.baseOffset), ['0', '2', '5']);
  t.same(answers.map((a) => a[0]?.errorCode), [0, 0, 0]);
  const records = broker.records('offsets');
  t.same(records.map((r) => r.offset), [0, 1, 2, 3, 4, 5]);
  t.same(records.map((r) => r.value?.toString()), ['batch of 2 #0', 'batch of 2 #1', 'batch of 3 #0', 'batch of 3 #1', 'batch of 3 #2', 'batch of 1 #0']);

  const apis = new Set(broker.requests.map((r) => r.api));
  t.ok(apis.has('ApiVersions') && apis.has('Metadata') && apis.has('Produce'), 'requests are logged by API name');
  t.ok(broker.requests.every((r) => r.clientId === 'offsets-client'));
  t.ok(broker.requests.filter((r) => r.api === 'Produce').every((r) => r.version === 7), 'kafkajs picks produce v7');
});

t.test('acks=0 and acks=1 are both accepted', async (t) => {
  const broker = await startKafkaBroker({ log: quiet });
  t.teardown(() => broker.close());
  const producer = await connectProducer(broker);
  t.teardown(() => producer.disconnect());

  const leaderOnly = await producer.send({ topic: 'acks', acks: 1, messages: [{ value: 'one' }] });
  t.equal(leaderOnly[0]?.baseOffset, '0');
  await producer.send({ topic: 'acks', acks: 0, messages: [{ value: 'fire and forget' }] });
  const records = await broker.waitForRecords('acks', 2);
  t.same(records.map((r) => r.value?.toString()), ['one', 'fire and forget']);
  // The connection still answers in order after an unanswered acks=0 request.
  const after = await producer.send({ topic: 'acks', acks: 1, messages: [{ value: 'three' }] });
  t.equal(after[0]?.baseOffset, '2');
});

t.test('an idempotent producer gets a producer id and its batches are appended once', async (t) => {
  const broker = await startKafkaBroker({ log: quiet });
  t.teardown(() => broker.close());
  const producer = await connectProducer(broker, {}, { idempotent: true, maxInFlightRequests: 1 });
  t.teardown(() => producer.disconnect());

  await producer.send({ topic: 'idem', messages: [{ value: 'a' }, { value: 'b' }] });
  await producer.send({ topic: 'idem', messages: [{ value: 'c' }] });
  t.ok(broker.requests.some((r) => r.api === 'InitProducerId'), 'InitProducerId was asked');
  t.same(broker.records('idem').map((r) => r.value?.toString()), ['a', 'b', 'c']);
});

t.test('a message sent during an outage arrives after start()', async (t) => {
  const broker = await startKafkaBroker({ log: quiet });
  t.teardown(() => broker.close());
  const producer = await connectProducer(broker, { retries: 30 });
  t.teardown(() => producer.disconnect());

  await producer.send({ topic: 'outage', messages: [{ value: 'before' }] });
  const port = broker.port;
  await broker.stop();
  t.same(broker.records('outage').map((r) => r.value?.toString()), ['before'], 'records survive stop()');

  const sending = producer.send({ topic: 'outage', messages: [{ value: 'during' }] });
  // Let the producer hit the closed port at least once before the broker comes back.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await broker.start();
  t.equal(broker.port, port, 'same port after start()');
  const answer = await sending;
  t.equal(answer[0]?.baseOffset, '1');
  const records = await broker.waitForRecords('outage', 2);
  t.same(records.map((r) => r.value?.toString()), ['before', 'during']);
});

t.test('waitForRecords rejects with a clear message on timeout', async (t) => {
  const broker = await startKafkaBroker({ log: quiet });
  t.teardown(() => broker.close());
  await t.rejects(broker.waitForRecords('never', 1, 50), /0 of 1 records on topic never/);
});
