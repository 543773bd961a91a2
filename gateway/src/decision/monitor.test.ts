import t from 'tap';
import { decide } from './decide.js';
import { entity, eventOf, eventsOf, makeProfile, pii, policies, request, threat } from '../testing/decision.js';
import { DecisionResult } from './types.js';

const monitor = makeProfile({ monitor_only: true });

t.test('monitor mode, would-be BLOCK: MONITOR_ONLY, nothing blocked, MONITOR_ALERT with the would-be decision', async (t) => {
  const r = decide(request(monitor, { threat: threat(0.97) }));
  t.equal(r.decision, 'BLOCK');
  t.equal(r.effective, 'MONITOR_ONLY');
  t.equal(r.monitor, true);
  t.equal(r.block, null, 'the request goes on unchanged');
  t.equal(r.sanitize, null);
  t.same(r.reasons, ['jailbreak score 0.97 >= threshold 0.8'], 'reasons still say why');
  t.same(eventsOf(r), ['JAILBREAK_DETECTED:WOULD_BLOCK', 'MONITOR_ALERT:WOULD_BLOCK']);
  t.match(eventOf(r, 'MONITOR_ALERT'), { severity: 'MEDIUM', decision: 'BLOCK', jailbreak_score: 0.97, reasons: r.reasons });
  t.match(eventOf(r, 'JAILBREAK_DETECTED'), { severity: 'CRITICAL', decision: 'MONITOR_ONLY' });
  t.notOk(eventOf(r, 'REQUEST_BLOCKED'), 'nothing was blocked');
  t.same(DecisionResult.parse(r), r);
});

t.test('monitor mode, would-be SANITIZE: MONITOR_ONLY, no rewrite, the would-be entities in the alert', async (t) => {
  const email = entity('EMAIL', 0, 9);
  const r = decide(request(monitor, { pii: pii(email) }));
  t.equal(r.decision, 'SANITIZE');
  t.equal(r.effective, 'MONITOR_ONLY');
  t.equal(r.sanitize, null);
  t.same(eventsOf(r), ['PII_DETECTED:WOULD_MASK', 'MONITOR_ALERT:WOULD_BLOCK']);
  t.match(eventOf(r, 'MONITOR_ALERT'), { decision: 'SANITIZE', pii_entities: [email] });
  t.notOk(eventOf(r, 'REQUEST_SANITIZED'));
});

t.test('monitor mode, ALLOW stays ALLOW', async (t) => {
  const r = decide(request(monitor, { threat: threat(0.2), content_policy: policies({ id: 'f', action: 'flag' }) }));
  t.equal(r.decision, 'ALLOW');
  t.equal(r.effective, 'ALLOW');
  t.equal(r.monitor, true);
  t.same(eventsOf(r), ['CUSTOM_POLICY_FLAG:FLAG', 'REQUEST_ALLOWED:ALLOW']);
  t.notOk(eventOf(r, 'MONITOR_ALERT'));
});

t.test('monitor mode, content policy block: CUSTOM_POLICY_BLOCK as WOULD_BLOCK', async (t) => {
  const r = decide(request(monitor, { content_policy: policies({ id: 'b', action: 'block' }) }));
  t.equal(r.effective, 'MONITOR_ONLY');
  t.same(eventsOf(r), ['CUSTOM_POLICY_BLOCK:WOULD_BLOCK', 'MONITOR_ALERT:WOULD_BLOCK']);
  t.match(eventOf(r, 'MONITOR_ALERT'), { decision: 'BLOCK', policy_ids: ['b'] });
});
