import t from 'tap';
import { decide } from './decide.js';
import { entity, eventOf, eventsOf, makeProfile, pii, policies, response, safety, threat } from '../testing/decision.js';
import { DecisionResult } from './types.js';

const scanning = (response_scanning: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  makeProfile({ response_scanning, ...extra });
const jwt = entity('JWT', 5, 40);
const email = entity('EMAIL', 50, 60);

t.test('a clean answer: PASS without events', async (t) => {
  const r = decide(response(scanning({ pii_mode: 'mask' }), { pii: pii() }));
  t.equal(r.direction, 'response');
  t.equal(r.decision, 'PASS');
  t.equal(r.effective, 'PASS');
  t.same(r.events, []);
  t.same(DecisionResult.parse(r), r);
});

t.test('response pii_mode disabled (the default): output PII ignored', async (t) => {
  const r = decide(response(makeProfile(), { pii: pii(jwt) }));
  t.equal(r.decision, 'PASS');
  t.same(r.pii_entities, []);
  t.same(r.events, []);
});

t.test('response pii_mode monitor: PASS, RESPONSE_REDACTED (HIGH) with action MONITOR', async (t) => {
  const r = decide(response(scanning({ pii_mode: 'monitor' }), { pii: pii(jwt) }));
  t.equal(r.decision, 'PASS');
  t.equal(r.sanitize, null);
  t.same(r.reasons, ['output PII found (JWT); response pii_mode monitor']);
  t.same(eventsOf(r), ['RESPONSE_REDACTED:MONITOR']);
  t.match(eventOf(r, 'RESPONSE_REDACTED'), { severity: 'HIGH', decision: 'ALLOW', pii_entities: [jwt] });
});

t.test('response pii_mode mask: REDACT with the entities to mask', async (t) => {
  const r = decide(response(scanning({ pii_mode: 'mask' }), { pii: pii(jwt, email) }));
  t.equal(r.decision, 'REDACT');
  t.equal(r.effective, 'REDACT');
  t.same(r.sanitize, { mode: 'mask', entities: [jwt, email] }, 'empty pii_types: every type');
  t.equal(r.block, null);
  t.same(eventsOf(r), ['RESPONSE_REDACTED:MASK']);
  t.match(eventOf(r, 'RESPONSE_REDACTED'), { severity: 'HIGH', decision: 'SANITIZE' });
});

t.test('response pii_types limits the types acted on', async (t) => {
  const r = decide(response(scanning({ pii_mode: 'mask', pii_types: ['EMAIL'] }), { pii: pii(jwt, email) }));
  t.same(r.sanitize?.entities, [email]);
  t.same(r.pii_entities, [jwt, email]);
  const none = decide(response(scanning({ pii_mode: 'block', pii_types: ['CREDIT_CARD'] }), { pii: pii(jwt) }));
  t.equal(none.decision, 'PASS');
});

t.test('response pii_mode block: BLOCK as RESPONSE_BLOCKED with block_status_code (default 451)', async (t) => {
  const r = decide(response(scanning({ pii_mode: 'block' }), { pii: pii(jwt) }));
  t.equal(r.decision, 'BLOCK');
  t.same(r.block, { code: 'RESPONSE_BLOCKED', status: 451 });
  t.same(eventsOf(r), ['RESPONSE_BLOCKED:BLOCK']);
  t.match(eventOf(r, 'RESPONSE_BLOCKED'), { severity: 'HIGH', decision: 'BLOCK', pii_entities: [jwt], reasons: r.reasons });
  const custom = decide(response(scanning({ pii_mode: 'block' }, { block_status_code: 403 }), { pii: pii(jwt) }));
  t.same(custom.block, { code: 'RESPONSE_BLOCKED', status: 403 });
});

t.test('trust_pii spans apply to answers too', async (t) => {
  const r = decide(response(scanning({ pii_mode: 'block' }), { pii: pii(jwt), content_policy: policies({ id: 't', action: 'trust_pii', spans: [[0, 10]] }) }));
  t.equal(r.decision, 'PASS');
  t.equal(r.pii_entities[0]?.trusted, true);
});

t.test('response_scanning.enabled false switches every response check off', async (t) => {
  const profile = scanning({ enabled: false, pii_mode: 'block', content_safety_enabled: true, response_blocked_categories: ['violence'] });
  const r = decide(
    response(profile, { pii: pii(jwt), content_safety: safety(['violence', 'Unsafe']), content_policy: policies({ id: 'b', action: 'block' }) }),
  );
  t.equal(r.decision, 'PASS');
  t.same(r.events, []);
});

t.test('threat scores are not judged on answers', async (t) => {
  const r = decide(response(makeProfile(), { threat: threat(0.99) }));
  t.equal(r.decision, 'PASS');
  t.equal(r.jailbreak_score, null);
});

t.test('response content safety with action_on_content_violation block: BLOCK', async (t) => {
  const profile = scanning({ content_safety_enabled: true, response_blocked_categories: ['self_harm'] }, { content_safety: { blocked_categories: ['violence'] } });
  const r = decide(response(profile, { content_safety: safety(['self_harm', 'Unsafe'], ['violence', 'Unsafe']) }));
  t.equal(r.decision, 'BLOCK');
  t.same(r.categories, ['self_harm'], 'the request list does not apply to answers');
  t.same(r.block, { code: 'RESPONSE_BLOCKED', status: 451 });
  t.same(eventsOf(r), ['RESPONSE_BLOCKED:BLOCK']);
  t.match(eventOf(r, 'RESPONSE_BLOCKED'), { categories: ['self_harm'] });
});

t.test('response content safety: content_safety.response_enabled and its list work too; thresholds apply', async (t) => {
  const profile = makeProfile({ content_safety: { response_enabled: true, response_blocked_categories: ['sexual'], category_thresholds: { violence: 0.99 } }, response_scanning: { response_blocked_categories: ['violence'] } });
  t.equal(decide(response(profile, { content_safety: safety(['sexual', 'Unsafe']) })).decision, 'BLOCK');
  t.equal(decide(response(profile, { content_safety: safety(['violence', 'Unsafe']) })).decision, 'PASS', 'violence needs 0.99');
  const off = makeProfile({ response_scanning: { response_blocked_categories: ['violence'] } });
  t.equal(decide(response(off, { content_safety: safety(['violence', 'Unsafe']) })).decision, 'PASS', 'neither flag: not checked');
});

t.test('response content safety with action_on_content_violation monitor: PASS with RESPONSE_MONITOR_ALERT', async (t) => {
  const profile = scanning({ content_safety_enabled: true, response_blocked_categories: ['violence'], action_on_content_violation: 'monitor' });
  const r = decide(response(profile, { content_safety: safety(['violence', 'Unsafe']) }));
  t.equal(r.decision, 'PASS');
  t.equal(r.block, null);
  t.same(r.categories, ['violence']);
  t.same(eventsOf(r), ['RESPONSE_MONITOR_ALERT:WOULD_BLOCK']);
  t.match(eventOf(r, 'RESPONSE_MONITOR_ALERT'), { severity: 'MEDIUM', decision: 'BLOCK', categories: ['violence'] });
});

t.test('response content policy block: RESPONSE_BLOCKED plus CUSTOM_POLICY_BLOCK', async (t) => {
  const r = decide(response(makeProfile(), { content_policy: policies({ id: 'b', action: 'block' }, { id: 'f', action: 'flag' }) }));
  t.equal(r.decision, 'BLOCK');
  t.same(r.block, { code: 'RESPONSE_BLOCKED', status: 451 });
  t.same(eventsOf(r), ['CUSTOM_POLICY_BLOCK:BLOCK', 'CUSTOM_POLICY_FLAG:FLAG', 'RESPONSE_BLOCKED:BLOCK']);
});

t.test('monitor mode on answers: PASS in effect, RESPONSE_MONITOR_ALERT with the would-be decision', async (t) => {
  const blocked = decide(response(scanning({ pii_mode: 'block' }, { monitor_only: true }), { pii: pii(jwt) }));
  t.equal(blocked.decision, 'BLOCK');
  t.equal(blocked.effective, 'PASS');
  t.equal(blocked.monitor, true);
  t.equal(blocked.block, null);
  t.same(eventsOf(blocked), ['RESPONSE_MONITOR_ALERT:WOULD_BLOCK']);
  t.match(eventOf(blocked, 'RESPONSE_MONITOR_ALERT'), { decision: 'BLOCK', pii_entities: [jwt] });

  const masked = decide(response(scanning({ pii_mode: 'mask' }, { monitor_only: true }), { pii: pii(jwt) }));
  t.equal(masked.decision, 'REDACT');
  t.equal(masked.effective, 'PASS');
  t.equal(masked.sanitize, null, 'the answer goes to the client unchanged');
  t.same(eventsOf(masked), ['RESPONSE_MONITOR_ALERT:WOULD_BLOCK']);
  t.match(eventOf(masked, 'RESPONSE_MONITOR_ALERT'), { decision: 'SANITIZE' });

  const clean = decide(response(scanning({ pii_mode: 'mask' }, { monitor_only: true }), { pii: pii() }));
  t.equal(clean.effective, 'PASS');
  t.same(clean.events, []);
});
