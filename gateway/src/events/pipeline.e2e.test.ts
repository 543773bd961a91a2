// The whole path of a request's security events: decision → buildSecurityEvents → emitter → event
// stream → the admin's event writer → PostgreSQL, on both databases and both stream backends.
import t from 'tap';
import { createEventWriter } from '@palisade/admin';
import { createEventRepository, type SecurityEvent } from '@palisade/core';
import { forOneDatabase } from '@palisade/core/testing';
import { decide } from '../decision/decide.js';
import { entity, makeProfile, pii, request, threat } from '../testing/decision.js';
import { buildSecurityEvents, EventPrompt } from './build-events.js';
import { createEventEmitter } from './emitter.js';
import { streamBackends, testStream } from '../testing/event-streams.js';

t.test('a request\'s events reach PostgreSQL with its trace id and every field', async (t) => {
  const backends = await streamBackends();
  await forOneDatabase(t, async (t, db) => {
    for (const backend of backends) {
      await t.test(backend.name, { skip: backend.skipReason ?? false }, async (t) => {
        const streams = await backend.open();
        t.teardown(() => streams.close());
        const stream = testStream('e2e');
        const emitter = createEventEmitter({ events: streams.events, stream });
        const writer = createEventWriter({ db, events: streams.events, stream, blockMs: 50 });
        await writer.start();

        const profile = makeProfile({ event_logging: { log_allow_decisions: true } });
        const sent: SecurityEvent[] = [];
        for (let i = 0; i < 10; i++) {
          const result = decide(request(profile, { threat: threat(i % 2 ? 0.99 : 0.05), pii: pii(entity('EMAIL', 0, 11)) }));
          const context = { trace_id: `e2e-${backend.name}-${i}`, tenant_id: 'acme', source_ip: '203.0.113.9', model: 'm', user_prompt: new EventPrompt(`prompt ${i}`), latency_ms: 3 };
          const now = new Date();
          const built = buildSecurityEvents(result.events, context, { profile, now });
          sent.push(...built);
          if (i % 2) emitter.emit(built);
          else emitter.emitLater(() => built);
        }
        t.equal(await emitter.flush(), true);
        const repository = createEventRepository<SecurityEvent>(db);
        const deadline = Date.now() + 10_000;
        let stored: SecurityEvent[] = [];
        while (stored.length < sent.length && Date.now() < deadline) {
          stored = (await repository.list({ tenant_ids: ['acme'], limit: 1_000 })).items.filter((e) => e.trace_id.startsWith(`e2e-${backend.name}-`));
          await new Promise((r) => setTimeout(r, 20));
        }
        await writer.stop();
        await emitter.close();
        t.same(new Map(stored.map((e) => [e.id, e])), new Map(sent.map((e) => [e.id, e])), 'every event, field for field, once');
        const traced = await repository.list({ trace_id: `e2e-${backend.name}-1` });
        t.same(traced.items.map((e) => e.event_type).sort(), sent.filter((e) => e.trace_id === `e2e-${backend.name}-1`).map((e) => e.event_type).sort(), 'listed by trace id');
      });
    }
  });
});
