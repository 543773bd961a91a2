import t from 'tap';
import { startKafkaBroker } from './broker.js';
import { connectProducer } from './test-support.js';

const mechanisms = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;
const clientMechanism = (mechanism: (typeof mechanisms)[number]) => mechanism.toLowerCase() as 'plain' | 'scram-sha-256' | 'scram-sha-512';

for (const mechanism of mechanisms) {
  t.test(`SASL ${mechanism}`, async (t) => {
    const logged: string[] = [];
    const broker = await startKafkaBroker({ sasl: { mechanism, username: 'exporter', password: 's3cret,=pw' }, log: (line) => logged.push(line) });
    t.teardown(() => broker.close());

    t.test('the right password authenticates and the producer delivers', async (t) => {
      const producer = await connectProducer(broker, { sasl: { mechanism: clientMechanism(mechanism), username: 'exporter', password: 's3cret,=pw' } });
      t.teardown(() => producer.disconnect());
      await producer.send({ topic: 'secured', messages: [{ value: 'authenticated' }] });
      t.same(broker.records('secured').map((r) => r.value?.toString()), ['authenticated']);
      const apis = broker.requests.map((r) => r.api);
      t.ok(apis.includes('SaslHandshake') && apis.includes('SaslAuthenticate'), 'SASL happened');
      // PLAIN is one message; SCRAM is client-first then client-final.
      t.equal(apis.filter((api) => api === 'SaslAuthenticate').length % (mechanism === 'PLAIN' ? 1 : 2), 0);
    });

    t.test('a wrong password fails with the authentication error', async (t) => {
      const error = await connectProducer(broker, { retries: 0, sasl: { mechanism: clientMechanism(mechanism), username: 'exporter', password: 'wrong' } }).then(
        () => null,
        (e: unknown) => e as Error & { type?: string },
      );
      t.ok(error, 'connect failed');
      t.equal(error?.name, 'KafkaJSSASLAuthenticationError');
      t.match(error?.message, /invalid credentials/);
      t.ok(logged.some((line) => line.includes('SASL authentication failed')), 'the broker logged the failure');
    });

    t.test('an unknown user fails too', async (t) => {
      await t.rejects(
        connectProducer(broker, { retries: 0, sasl: { mechanism: clientMechanism(mechanism), username: 'stranger', password: 's3cret,=pw' } }),
        { name: 'KafkaJSSASLAuthenticationError' },
      );
    });
  });
}

t.test('a mechanism the broker does not enable is refused', async (t) => {
  const broker = await startKafkaBroker({ sasl: { mechanism: 'SCRAM-SHA-512', username: 'u', password: 'p' }, log: () => {} });
  t.teardown(() => broker.close());
  const error = await connectProducer(broker, { retries: 0, sasl: { mechanism: 'plain', username: 'u', password: 'p' } }).then(
    () => null,
    (e: unknown) => e as Error & { type?: string },
  );
  t.equal(error?.type, 'UNSUPPORTED_SASL_MECHANISM');
});

t.test('a client without SASL cannot produce to a SASL broker', async (t) => {
  const logged: string[] = [];
  const broker = await startKafkaBroker({ sasl: { mechanism: 'PLAIN', username: 'u', password: 'p' }, log: (line) => logged.push(line) });
  t.teardown(() => broker.close());
  const sendWithoutSasl = async (): Promise<void> => {
    const producer = await connectProducer(broker, { retries: 0 });
    try {
      await producer.send({ topic: 'anything', messages: [{ value: 'unauthenticated' }] });
    } finally {
      await producer.disconnect();
    }
  };
  await t.rejects(sendWithoutSasl());
  t.ok(logged.some((line) => /before SASL authentication completed/.test(line)), 'the broker closed the connection and said why');
  t.same(broker.records('anything'), []);
});
