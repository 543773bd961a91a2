// The kafka sink against the project's test broker (@palisade/testing startKafkaBroker), every
// compression codec and SASL mechanism.
import t from 'tap';
import type { SecurityEvent } from '@palisade/core';
import { createSecretBox } from '@palisade/core';
import { startKafkaBroker } from '@palisade/testing';
import { createSink } from './create-sink.js';
import { createFileLocks } from './file-sink.js';
import { mapEvent } from './mapping.js';
import { exporterRecord, sampleEvent } from '../testing/exporter-peers.js';

const secrets = createSecretBox('exporter-test-key');
const locks = createFileLocks();

t.test('kafka', async (t) => {
  for (const compression of ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const) {
    t.test(`compression ${compression}: key is the trace id, value the mapped event`, async (t) => {
      const broker = await startKafkaBroker();
      t.teardown(() => broker.close());
      const record = exporterRecord({ type: 'kafka', field_mapping: 'ecs', config: { brokers: broker.brokers, topic: 'palisade-events', compression, batch_size: 10 } });
      const sink = createSink(record, { secrets, locks });
      t.teardown(() => sink.close());
      const events = [sampleEvent({ trace_id: 'k1' }), sampleEvent({ trace_id: 'k2' })];
      await sink.send(events.map((event) => ({ event, mapped: mapEvent(event, record) })));
      const got = await broker.waitForRecords('palisade-events', 2, 15_000);
      t.same(got.map((r) => r.key?.toString()), ['k1', 'k2']);
      t.same(got.map((r) => r.compression), [compression, compression]);
      const value = JSON.parse(got[0]!.value!.toString()) as Record<string, unknown>;
      t.same(value['trace'], { id: 'k1' });
      t.equal(got[0]!.timestamp, Date.parse((events[0] as SecurityEvent).timestamp));
    });
  }
  for (const mechanism of ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const) {
    t.test(`SASL ${mechanism} with the sealed password`, async (t) => {
      const broker = await startKafkaBroker({ sasl: { mechanism, username: 'exporter', password: 'pw-1' } });
      t.teardown(() => broker.close());
      const record = exporterRecord({ type: 'kafka', config: { brokers: broker.brokers, topic: 't', compression: 'none', sasl_mechanism: mechanism, sasl_username: 'exporter', sasl_password: secrets.seal('pw-1') } });
      const sink = createSink(record, { secrets, locks });
      t.teardown(() => sink.close());
      const event = sampleEvent();
      await sink.send([{ event, mapped: mapEvent(event, record) }]);
      t.equal((await broker.waitForRecords('t', 1)).length, 1);
      const wrong = createSink({ ...record, config: { ...record.config, sasl_password: secrets.seal('nope') } } as typeof record, { secrets, locks });
      await t.rejects(wrong.send([{ event, mapped: event }]), { name: 'DeliveryError', retryable: true });
      await wrong.close();
    });
  }
  t.test('broker down, then up: the send fails retryably, then succeeds', async (t) => {
    const broker = await startKafkaBroker();
    t.teardown(() => broker.close());
    const record = exporterRecord({ type: 'kafka', config: { brokers: broker.brokers, topic: 'o', compression: 'none' } });
    const sink = createSink(record, { secrets, locks });
    t.teardown(() => sink.close());
    await broker.stop();
    const event = sampleEvent();
    await t.rejects(sink.send([{ event, mapped: event }]), { name: 'DeliveryError', retryable: true });
    await broker.start();
    await sink.send([{ event, mapped: event }]);
    t.equal((await broker.waitForRecords('o', 1)).length, 1);
  });
});
