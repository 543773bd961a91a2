import t from 'tap';
import { randomUUID } from 'node:crypto';
import { otelTraceIdOf, uuidOfTraceId } from './sdk.js';

t.test('a UUID becomes 32 lower-case hex digits and back', async (t) => {
  t.equal(otelTraceIdOf('0AF76519-16CD-43DD-8448-EB211C80319C'), '0af7651916cd43dd8448eb211c80319c');
  for (let i = 0; i < 200; i++) {
    const id = randomUUID();
    t.equal(uuidOfTraceId(otelTraceIdOf(id)!), id);
  }
});

t.test('anything else is not a trace id', async (t) => {
  for (const bad of [
    '',
    'not-a-uuid',
    '0af76519-16cd-43dd-8448-eb211c80319', // one digit short
    '0af76519-16cd-43dd-8448-eb211c80319cc',
    '0af7651916cd-43dd-8448-eb211c80319c-', // dashes moved
    '0af76519-16cd-43dd-8448_eb211c80319c',
    '0af76519-16cd-43dd-8448-eb211c80319g', // not hex
    '0af76519-16cd-43dd-8448-eb211c8031:c', // ':' sits between '9' and 'a'
    '0af76519-16cd-43dd-8448-eb211c8031`c', // '`' | 32 is below 'a'
    '0af76519-16cd-43dd-8448-eb211c8031@c',
  ])
    t.equal(otelTraceIdOf(bad), undefined, JSON.stringify(bad));
});
