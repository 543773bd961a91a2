import t from 'tap';
import { EVENT_TYPES, NON_SUPPRESSIBLE_EVENT_TYPES, SUPPRESSIBLE_EVENT_TYPES } from '@palisade/core';
import { decide } from './decide.js';
import { filterEvents } from './filter-events.js';
import { failed, makeProfile, request, threat } from '../testing/decision.js';

const all = EVENT_TYPES.map((event_type) => ({ event_type }));
const typesOf = (events: Array<{ event_type: string }>) => events.map((e) => e.event_type);

t.test('defaults: everything but the ALLOW record is kept', async (t) => {
  t.same(
    typesOf(filterEvents(all, makeProfile())),
    EVENT_TYPES.filter((type) => type !== 'REQUEST_ALLOWED'),
  );
});

t.test('log_allow_decisions keeps the ALLOW record', async (t) => {
  t.same(typesOf(filterEvents(all, makeProfile({ event_logging: { log_allow_decisions: true } }))), [...EVENT_TYPES]);
});

t.test('disabled_event_types drops the listed suppressible types only', async (t) => {
  const profile = makeProfile({ event_logging: { disabled_event_types: ['MONITOR_ALERT', 'DETECTOR_ERROR'] } });
  const kept = typesOf(filterEvents(all, profile));
  t.notOk(kept.includes('MONITOR_ALERT'));
  t.notOk(kept.includes('DETECTOR_ERROR'));
  t.ok(kept.includes('FAIL_SAFE_TRIGGERED'), 'an unlisted suppressible type stays');
  t.equal(kept.length, EVENT_TYPES.length - 3, 'minus the two listed and the ALLOW record');
});

t.test('non-suppressible types are always kept, even if a profile somehow lists them', async (t) => {
  // The profile schema refuses them; a hand-made profile object must not silence them either.
  const profile = { event_logging: { log_allow_decisions: false, inspection_header: false, disabled_event_types: [...NON_SUPPRESSIBLE_EVENT_TYPES, ...SUPPRESSIBLE_EVENT_TYPES] as never[] } };
  const kept = typesOf(filterEvents(all, profile));
  for (const type of NON_SUPPRESSIBLE_EVENT_TYPES) t.ok(kept.includes(type), type);
  for (const type of SUPPRESSIBLE_EVENT_TYPES) t.notOk(kept.includes(type), type);
});

t.test('on a real decision: a detector error on an allowed request', async (t) => {
  const profile = makeProfile({ event_logging: { disabled_event_types: ['FAIL_SAFE_TRIGGERED'] } });
  const r = decide(request(profile, { threat: threat(0.1), pii: failed() }));
  t.same(typesOf(r.events), ['DETECTOR_ERROR', 'FAIL_SAFE_TRIGGERED', 'REQUEST_ALLOWED'], 'before suppression');
  t.same(typesOf(filterEvents(r.events, profile)), ['DETECTOR_ERROR']);
});
