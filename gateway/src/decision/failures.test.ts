import t from 'tap';
import { decide, decideFailSafe } from './decide.js';
import { eventOf, eventsOf, failed, makeProfile, request, response, safety, threat, timeout, unavailable } from '../testing/decision.js';

t.test('timeout with action_on_timeout pass: ALLOW, FAIL_SAFE_TRIGGERED with action PASS', async (t) => {
  const profile = makeProfile({ action_on_timeout: 'pass', detector_timeout_ms: 1500 });
  const r = decide(request(profile, { threat: timeout(1500) }));
  t.equal(r.decision, 'ALLOW');
  t.same(r.reasons, ['threat detector did not answer within 1500 ms; action_on_timeout pass']);
  t.same(eventsOf(r), ['FAIL_SAFE_TRIGGERED:PASS', 'REQUEST_ALLOWED:ALLOW']);
  t.match(eventOf(r, 'FAIL_SAFE_TRIGGERED'), { severity: 'HIGH', decision: 'ALLOW', reasons: r.reasons });
});

t.test('timeout with action_on_timeout block: BLOCK (POLICY_VIOLATION), FAIL_SAFE_TRIGGERED with action BLOCK', async (t) => {
  const r = decide(request(makeProfile({ action_on_timeout: 'block' }), { pii: timeout(), threat: threat(0.1) }));
  t.equal(r.decision, 'BLOCK');
  t.same(r.block, { code: 'POLICY_VIOLATION', status: 403, details: { jailbreak_score: 0.1, pii_entities: [] } });
  t.same(eventsOf(r), ['FAIL_SAFE_TRIGGERED:BLOCK', 'REQUEST_BLOCKED:BLOCK']);
  t.match(r.reasons, [/^PII detector did not answer within 2000 ms; action_on_timeout block$/]);
});

t.test('detector error with action_on_detector_error pass: ALLOW, DETECTOR_ERROR and FAIL_SAFE_TRIGGERED', async (t) => {
  const r = decide(request(makeProfile(), { content_policy: failed('socket hang up') }));
  t.equal(r.decision, 'ALLOW', 'pass is the default');
  t.same(r.reasons, ['content policy service failed (socket hang up); action_on_detector_error pass']);
  t.same(eventsOf(r), ['DETECTOR_ERROR:PASS', 'FAIL_SAFE_TRIGGERED:PASS', 'REQUEST_ALLOWED:ALLOW']);
  t.match(eventOf(r, 'DETECTOR_ERROR'), { severity: 'MEDIUM', decision: 'ALLOW' });
});

t.test('detector error with action_on_detector_error block: BLOCK', async (t) => {
  const r = decide(request(makeProfile({ action_on_detector_error: 'block' }), { threat: failed() }));
  t.equal(r.decision, 'BLOCK');
  t.equal(r.block?.code, 'POLICY_VIOLATION');
  t.same(eventsOf(r), ['DETECTOR_ERROR:BLOCK', 'FAIL_SAFE_TRIGGERED:BLOCK', 'REQUEST_BLOCKED:BLOCK']);
  t.equal(r.jailbreak_score, null);
});

t.test('timeouts and errors use their own setting', async (t) => {
  const profile = makeProfile({ action_on_timeout: 'block', action_on_detector_error: 'pass' });
  t.equal(decide(request(profile, { threat: failed() })).decision, 'ALLOW');
  t.equal(decide(request(profile, { threat: timeout() })).decision, 'BLOCK');
});

t.test('content safety answering 503 (no GPU) is skipped silently, even with error action block', async (t) => {
  const profile = makeProfile({
    content_safety: { enabled: true, blocked_categories: ['violence'] },
    action_on_detector_error: 'block',
    action_on_timeout: 'block',
  });
  const r = decide(request(profile, { content_safety: unavailable(), threat: threat(0.1) }));
  t.equal(r.decision, 'ALLOW');
  t.same(r.reasons, []);
  t.same(eventsOf(r), ['REQUEST_ALLOWED:ALLOW']);
});

t.test('unavailable from another detector is an error: it cannot open the gate', async (t) => {
  const r = decide(request(makeProfile({ action_on_detector_error: 'block' }), { threat: unavailable() }));
  t.equal(r.decision, 'BLOCK');
  t.same(r.reasons, ['threat detector failed (unavailable: no GPU); action_on_detector_error block']);
  t.same(eventsOf(r), ['DETECTOR_ERROR:BLOCK', 'FAIL_SAFE_TRIGGERED:BLOCK', 'REQUEST_BLOCKED:BLOCK']);
});

t.test('a detector the profile disables cannot fail the request', async (t) => {
  const profile = makeProfile({ threat_detection: { enabled: false }, pii: { enabled: false }, action_on_timeout: 'block', action_on_detector_error: 'block' });
  const r = decide(request(profile, { threat: timeout(), pii: failed(), content_safety: failed() }));
  t.equal(r.decision, 'ALLOW');
  t.same(eventsOf(r), ['REQUEST_ALLOWED:ALLOW']);
});

t.test('several failures: one reason and event set per detector', async (t) => {
  const profile = makeProfile({ content_safety: { enabled: true, blocked_categories: ['violence'] } });
  const r = decide(request(profile, { threat: timeout(), pii: failed('boom'), content_safety: safety(['violence', 'Unsafe']) }));
  t.equal(r.decision, 'BLOCK', 'content safety still decides');
  t.same(eventsOf(r), [
    'FAIL_SAFE_TRIGGERED:PASS',
    'DETECTOR_ERROR:PASS',
    'FAIL_SAFE_TRIGGERED:PASS',
    'POLICY_VIOLATION:BLOCK',
    'REQUEST_BLOCKED:BLOCK',
  ]);
  t.equal(r.reasons.length, 3);
});

t.test('decision point unreachable, fail-open: ALLOW with FAIL_SAFE_TRIGGERED', async (t) => {
  const r = decideFailSafe(makeProfile(), 'connect ECONNREFUSED');
  t.equal(r.decision, 'ALLOW');
  t.equal(r.effective, 'ALLOW');
  t.equal(r.block, null);
  t.same(r.reasons, ['decision point unavailable (connect ECONNREFUSED); fail_safe.mode fail-open']);
  t.same(eventsOf(r), ['FAIL_SAFE_TRIGGERED:PASS', 'REQUEST_ALLOWED:ALLOW']);
  t.match(eventOf(r, 'FAIL_SAFE_TRIGGERED'), { severity: 'HIGH', decision: 'ALLOW' });
});

t.test('decision point unreachable, fail-closed: BLOCK with FAIL_SAFE_TRIGGERED', async (t) => {
  const profile = makeProfile({ fail_safe: { mode: 'fail-closed' } });
  const r = decideFailSafe(profile, 'timeout');
  t.equal(r.decision, 'BLOCK');
  t.same(r.block, { code: 'POLICY_VIOLATION', status: 403, details: { jailbreak_score: null, pii_entities: [] } });
  t.same(eventsOf(r), ['FAIL_SAFE_TRIGGERED:BLOCK', 'REQUEST_BLOCKED:BLOCK']);

  const onResponse = decideFailSafe(makeProfile({ fail_safe: { mode: 'fail-closed' }, block_status_code: 502 }), 'timeout', 'response');
  t.equal(onResponse.decision, 'BLOCK');
  t.same(onResponse.block, { code: 'RESPONSE_BLOCKED', status: 502 });
  t.same(eventsOf(onResponse), ['FAIL_SAFE_TRIGGERED:BLOCK', 'RESPONSE_BLOCKED:BLOCK']);
  const openResponse = decideFailSafe(makeProfile(), 'timeout', 'response');
  t.equal(openResponse.decision, 'PASS');
  t.same(eventsOf(openResponse), ['FAIL_SAFE_TRIGGERED:PASS']);
});

t.test('fail-closed in monitor mode: MONITOR_ONLY like any block', async (t) => {
  const r = decideFailSafe(makeProfile({ fail_safe: { mode: 'fail-closed' }, monitor_only: true }), 'timeout');
  t.equal(r.decision, 'BLOCK');
  t.equal(r.effective, 'MONITOR_ONLY');
  t.equal(r.block, null);
  t.same(eventsOf(r), ['FAIL_SAFE_TRIGGERED:WOULD_BLOCK', 'MONITOR_ALERT:WOULD_BLOCK']);
});

t.test('responses apply the same timeout and error settings', async (t) => {
  const profile = makeProfile({ response_scanning: { pii_mode: 'mask' }, action_on_timeout: 'block' });
  const r = decide(response(profile, { pii: timeout() }));
  t.equal(r.decision, 'BLOCK');
  t.same(r.block, { code: 'RESPONSE_BLOCKED', status: 451 });
  t.same(eventsOf(r), ['FAIL_SAFE_TRIGGERED:BLOCK', 'RESPONSE_BLOCKED:BLOCK']);
});
