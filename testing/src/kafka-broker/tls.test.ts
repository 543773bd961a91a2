import t from 'tap';
import { generate } from 'selfsigned';
import { startKafkaBroker } from './broker.js';
import { connectProducer } from './test-support.js';

t.test('TLS with a self-signed certificate', async (t) => {
  // commonName localhost: selfsigned adds the DNS name and IP 127.0.0.1 as subject alternative names.
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048, algorithm: 'sha256' });
  const logged: string[] = [];
  const broker = await startKafkaBroker({ tls: { key: pems.private, cert: pems.cert }, log: (line) => logged.push(line) });
  t.teardown(() => broker.close());

  t.test('a client trusting the certificate produces over TLS', async (t) => {
    const producer = await connectProducer(broker, { ssl: { ca: [pems.cert] } });
    t.teardown(() => producer.disconnect());
    await producer.send({ topic: 'encrypted', messages: [{ key: 'k', value: 'over tls' }] });
    const records = await broker.waitForRecords('encrypted', 1);
    t.equal(records[0]?.value?.toString(), 'over tls');
  });

  t.test('TLS and SASL together', async (t) => {
    const secured = await startKafkaBroker({
      tls: { key: pems.private, cert: pems.cert },
      sasl: { mechanism: 'SCRAM-SHA-256', username: 'exporter', password: 'pw' },
      log: () => {},
    });
    t.teardown(() => secured.close());
    const producer = await connectProducer(secured, { ssl: { ca: [pems.cert] }, sasl: { mechanism: 'scram-sha-256', username: 'exporter', password: 'pw' } });
    t.teardown(() => producer.disconnect());
    await producer.send({ topic: 'both', messages: [{ value: 'tls+scram' }] });
    t.same(secured.records('both').map((r) => r.value?.toString()), ['tls+scram']);
  });

  t.test('a client that does not trust the certificate cannot connect', async (t) => {
    await t.rejects(connectProducer(broker, { ssl: true, retries: 0 }));
    t.same(broker.records('untrusted'), []);
  });

  t.test('a plaintext client gets nothing through the TLS listener', async (t) => {
    await t.rejects(connectProducer(broker, { retries: 0 }));
  });
});
