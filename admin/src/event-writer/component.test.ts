import t from 'tap';
import { createMemoryStreams, parseEnv } from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { createEventWriterComponent, EVENT_WRITER_ENV } from './component.js';
import { gatewayEvents, storedEvents, until } from '../testing/event-writer.js';
import { SECURITY_EVENTS_STREAM } from './writer.js';

t.test('configuration: defaults and ranges', async (t) => {
  t.same(parseEnv(EVENT_WRITER_ENV, {}), { EVENT_WRITER_BATCH_SIZE: 500, EVENT_WRITER_BLOCK_MS: 1_000, EVENT_WRITER_CLAIM_IDLE_MS: 30_000 });
  t.same(parseEnv(EVENT_WRITER_ENV, { EVENT_WRITER_BATCH_SIZE: '5000', EVENT_WRITER_BLOCK_MS: '10' }), { EVENT_WRITER_BATCH_SIZE: 5_000, EVENT_WRITER_BLOCK_MS: 10, EVENT_WRITER_CLAIM_IDLE_MS: 30_000 });
  t.throws(() => parseEnv(EVENT_WRITER_ENV, { EVENT_WRITER_BATCH_SIZE: '5001' }), /EVENT_WRITER_BATCH_SIZE/, 'more than one INSERT can carry');
  t.throws(() => parseEnv(EVENT_WRITER_ENV, { EVENT_WRITER_BATCH_SIZE: '0' }), /EVENT_WRITER_BATCH_SIZE/);
  t.throws(() => parseEnv(EVENT_WRITER_ENV, { EVENT_WRITER_BLOCK_MS: '0' }), /EVENT_WRITER_BLOCK_MS/, 'a read that never waits would spin');
  t.throws(() => parseEnv(EVENT_WRITER_ENV, { EVENT_WRITER_CLAIM_IDLE_MS: '500' }), /EVENT_WRITER_CLAIM_IDLE_MS/);
  t.throws(() => createEventWriterComponent({ db: {} as never, streams: createMemoryStreams(), env: { EVENT_WRITER_BLOCK_MS: 'soon' } }), /EVENT_WRITER_BLOCK_MS/);
});

t.test('the component stores what the gateway appends to the default stream', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const streams = createMemoryStreams();
    t.teardown(() => streams.close());
    const component = createEventWriterComponent({ db, streams, env: { EVENT_WRITER_BATCH_SIZE: '7', EVENT_WRITER_BLOCK_MS: '20' }, consumer: 'component-test' });
    t.match(component.config, { EVENT_WRITER_BATCH_SIZE: 7, EVENT_WRITER_BLOCK_MS: 20 });
    await component.start();
    const sent = gatewayEvents(20, `comp-${db.kind}`);
    for (const e of sent) await streams.events.append(SECURITY_EVENTS_STREAM, e);
    await until('every event stored', async () => (await storedEvents(db, `comp-${db.kind}`)).size === sent.length);
    await component.stop();
    t.ok(component.writer.stats.batches >= 3, 'in batches of EVENT_WRITER_BATCH_SIZE');
    t.equal(component.writer.stats.running, false);
  });
});
