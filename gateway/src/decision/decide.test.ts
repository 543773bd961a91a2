import t from 'tap';
import { DEFAULT_SEVERITY_BY_EVENT_TYPE } from '@palisade/core';
import { decide } from './decide.js';
import { entity, eventOf, eventsOf, makeProfile, ok, pii, policies, request, safety, skipped, threat } from '../testing/decision.js';
import { DecisionResult } from './types.js';

const base = makeProfile();
const safetyProfile = (content_safety: Record<string, unknown>) =>
  makeProfile({ content_safety: { enabled: true, blocked_categories: ['violence', 'sexual'], ...content_safety } });

t.test('nothing found: ALLOW with the ALLOW record only', async (t) => {
  const r = decide(request(base, { threat: threat(0.1), pii: pii(), content_policy: policies() }));
  t.equal(r.direction, 'request');
  t.equal(r.decision, 'ALLOW');
  t.equal(r.effective, 'ALLOW');
  t.equal(r.block, null);
  t.equal(r.sanitize, null);
  t.equal(r.jailbreak_score, 0.1);
  t.same(r.reasons, []);
  t.same(eventsOf(r), ['REQUEST_ALLOWED:ALLOW']);
  t.match(r.events[0], { severity: 'INFO', decision: 'ALLOW', jailbreak_score: 0.1 });
  t.same(DecisionResult.parse(r), r, 'the result is valid per its own schema');
});

t.test('jailbreak: a score at the threshold blocks, just under it does not', async (t) => {
  const profile = makeProfile({ threat_detection: { jailbreak_threshold: 0.8 } });
  const at = decide(request(profile, { threat: threat(0.8) }));
  t.equal(at.decision, 'BLOCK');
  t.same(at.block, { code: 'POLICY_VIOLATION', status: 403, details: { jailbreak_score: 0.8, pii_entities: [] } });
  t.same(at.reasons, ['jailbreak score 0.8 >= threshold 0.8']);
  t.same(eventsOf(at), ['JAILBREAK_DETECTED:BLOCK', 'REQUEST_BLOCKED:BLOCK']);
  t.match(eventOf(at, 'JAILBREAK_DETECTED'), { severity: 'CRITICAL', decision: 'BLOCK', jailbreak_score: 0.8 });
  t.match(eventOf(at, 'REQUEST_BLOCKED'), { severity: 'HIGH', decision: 'BLOCK', reasons: at.reasons });

  const under = decide(request(profile, { threat: threat(0.7999) }));
  t.equal(under.decision, 'ALLOW');
  t.equal(under.jailbreak_score, 0.7999);

  const zero = makeProfile({ threat_detection: { jailbreak_threshold: 0 } });
  t.equal(decide(request(zero, { threat: threat(0) })).decision, 'BLOCK', 'threshold 0 blocks everything scored');
  const one = makeProfile({ threat_detection: { jailbreak_threshold: 1 } });
  t.equal(decide(request(one, { threat: threat(0.99) })).decision, 'ALLOW');
  t.equal(decide(request(one, { threat: threat(1) })).decision, 'BLOCK');
});

t.test('jailbreak: threat detection disabled ignores the score', async (t) => {
  const r = decide(request(makeProfile({ threat_detection: { enabled: false } }), { threat: threat(0.99) }));
  t.equal(r.decision, 'ALLOW');
  t.equal(r.jailbreak_score, null);
});

t.test('PII mode mask: SANITIZE with the untrusted entities of the profile types', async (t) => {
  const email = entity('EMAIL', 0, 10);
  const card = entity('CREDIT_CARD', 20, 36); // not in the profile's types (EMAIL, PHONE_NUMBER)
  const r = decide(request(base, { pii: pii(email, card) }));
  t.equal(r.decision, 'SANITIZE');
  t.equal(r.effective, 'SANITIZE');
  t.same(r.sanitize, { mode: 'mask', entities: [email] });
  t.same(r.pii_entities, [email, card], 'every entity found is reported');
  t.equal(r.block, null);
  t.same(r.reasons, ['PII found (EMAIL); pii mode mask']);
  t.same(eventsOf(r), ['PII_DETECTED:MASK', 'REQUEST_SANITIZED:MASK']);
  t.match(eventOf(r, 'PII_DETECTED'), { severity: 'MEDIUM', decision: 'SANITIZE', pii_entities: [email] });
  t.match(eventOf(r, 'REQUEST_SANITIZED'), { severity: 'MEDIUM', decision: 'SANITIZE', pii_entities: [email] });
});

t.test('PII mode redact: SANITIZE in redact mode', async (t) => {
  const phone = entity('PHONE_NUMBER', 3, 15);
  const r = decide(request(makeProfile({ pii: { mode: 'redact' } }), { pii: pii(phone) }));
  t.equal(r.decision, 'SANITIZE');
  t.same(r.sanitize, { mode: 'redact', entities: [phone] });
  t.same(eventsOf(r), ['PII_DETECTED:REDACT', 'REQUEST_SANITIZED:REDACT']);
});

t.test('PII mode block: BLOCK as POLICY_VIOLATION with the entities in details, without their values', async (t) => {
  const email = entity('EMAIL', 0, 10, { value: 'a@b.example', masked: 'a****@b.example' });
  const r = decide(request(makeProfile({ pii: { mode: 'block' } }), { pii: pii(email), threat: threat(0.2) }));
  t.equal(r.decision, 'BLOCK');
  t.same(r.block, {
    code: 'POLICY_VIOLATION',
    status: 403,
    details: { jailbreak_score: 0.2, pii_entities: [{ type: 'EMAIL', start: 0, end: 10, masked: 'a****@b.example' }] },
  });
  t.equal(r.sanitize, null);
  t.same(eventsOf(r), ['PII_DETECTED:BLOCK', 'REQUEST_BLOCKED:BLOCK']);
  t.match(eventOf(r, 'REQUEST_BLOCKED'), { pii_entities: [email] });
});

t.test('PII disabled in the profile: entities are ignored', async (t) => {
  const r = decide(request(makeProfile({ pii: { enabled: false } }), { pii: pii(entity('EMAIL', 0, 5)) }));
  t.equal(r.decision, 'ALLOW');
  t.same(r.pii_entities, []);
});

t.test('trusted entities: from the detector or a trust_pii span, never acted on', async (t) => {
  const byDetector = entity('EMAIL', 0, 10, { trusted: true });
  const inSpan = entity('PHONE_NUMBER', 20, 32);
  const outside = entity('EMAIL', 40, 50);
  const r = decide(
    request(base, { pii: pii(byDetector, inSpan, outside), content_policy: policies({ id: 'p-trust', action: 'trust_pii', spans: [[25, 26]] }) }),
  );
  t.equal(r.decision, 'SANITIZE');
  t.same(r.sanitize?.entities, [outside]);
  t.same(
    r.pii_entities.map((e) => [e.start, e.trusted ?? false]),
    [[0, true], [20, true], [40, false]],
  );
  t.notOk(inSpan.trusted, 'the input entity is not changed');
  t.same(r.policy_ids, ['p-trust']);
  t.same(eventsOf(r), ['PII_DETECTED:MASK', 'REQUEST_SANITIZED:MASK'], 'trust_pii itself records nothing');

  const adjacent = decide(request(base, { pii: pii(entity('EMAIL', 10, 20)), content_policy: policies({ id: 't', action: 'trust_pii', spans: [[0, 10]] }) }));
  t.equal(adjacent.decision, 'SANITIZE', 'a span ending where the entity starts does not overlap it');

  const allTrusted = decide(request(base, { pii: pii(entity('EMAIL', 0, 10)), content_policy: policies({ id: 't', action: 'trust_pii', spans: [[0, 40]] }) }));
  t.equal(allTrusted.decision, 'ALLOW');
  t.same(eventsOf(allTrusted), ['REQUEST_ALLOWED:ALLOW'], 'no PII_DETECTED for trusted PII');
});

t.test('content safety: an Unsafe listed category at the global threshold blocks', async (t) => {
  const r = decide(request(safetyProfile({ threshold: 0.95 }), { content_safety: safety(['violence', 'Unsafe'], ['pii', 'Unsafe']) }));
  t.equal(r.decision, 'BLOCK');
  t.same(r.categories, ['violence'], 'pii is not a blocked category of this profile');
  t.same(r.block, { code: 'POLICY_VIOLATION', status: 403, details: { jailbreak_score: null, pii_entities: [] } });
  t.same(r.reasons, ['content safety violence Unsafe score 0.95 >= threshold 0.95']);
  t.same(eventsOf(r), ['POLICY_VIOLATION:BLOCK', 'REQUEST_BLOCKED:BLOCK']);
  t.match(eventOf(r, 'POLICY_VIOLATION'), { severity: 'HIGH', categories: ['violence'] });

  const above = decide(request(safetyProfile({ threshold: 0.96 }), { content_safety: safety(['violence', 'Unsafe']) }));
  t.equal(above.decision, 'ALLOW', 'a threshold above the score lets it pass');
  const finer = decide(request(safetyProfile({ threshold: 0.5 }), { content_safety: safety(['sexual', 'Unsafe', 0.49]) }));
  t.equal(finer.decision, 'ALLOW', 'a finer score under the threshold');
});

t.test('content safety: a per-category threshold overrides the global one', async (t) => {
  const profile = safetyProfile({ threshold: 0.5, category_thresholds: { violence: 0.99 } });
  t.equal(decide(request(profile, { content_safety: safety(['violence', 'Unsafe']) })).decision, 'ALLOW');
  t.equal(decide(request(profile, { content_safety: safety(['sexual', 'Unsafe']) })).decision, 'BLOCK', 'other categories keep the global one');
  const lower = safetyProfile({ threshold: 0.99, category_thresholds: { sexual: 0.9 } });
  const r = decide(request(lower, { content_safety: safety(['sexual', 'Unsafe'], ['violence', 'Unsafe']) }));
  t.same(r.categories, ['sexual']);
  t.same(r.reasons, ['content safety sexual Unsafe score 0.95 >= threshold 0.9']);
});

t.test('content safety: Controversial counts only with controversial_as_unsafe', async (t) => {
  const input = { content_safety: safety(['violence', 'Controversial']) };
  t.equal(decide(request(safetyProfile({ threshold: 0.5 }), input)).decision, 'ALLOW', 'off: Controversial passes even at threshold 0.5');
  const on = decide(request(safetyProfile({ controversial_as_unsafe: true, threshold: 0.9 }), input));
  t.equal(on.decision, 'BLOCK', 'on: scored as Unsafe (0.95)');
  t.same(on.reasons, ['content safety violence Controversial (as Unsafe) score 0.95 >= threshold 0.9']);
  const stricter = decide(request(safetyProfile({ controversial_as_unsafe: true, threshold: 0.96 }), input));
  t.equal(stricter.decision, 'ALLOW', 'as Unsafe, still under a threshold above 0.95');
});

t.test('content safety: Safe never fires; disabled content safety ignores the result', async (t) => {
  t.equal(decide(request(safetyProfile({ threshold: 0 }), { content_safety: safety(['violence', 'Safe']) })).decision, 'ALLOW');
  const off = makeProfile({ content_safety: { enabled: false, blocked_categories: ['violence'] } });
  t.equal(decide(request(off, { content_safety: safety(['violence', 'Unsafe']) })).decision, 'ALLOW');
});

t.test('content policy block: BLOCK with CUSTOM_POLICY_BLOCK', async (t) => {
  const r = decide(request(base, { content_policy: policies({ id: 'p-1', name: 'No secrets', action: 'block' }) }));
  t.equal(r.decision, 'BLOCK');
  t.same(r.block, { code: 'CUSTOM_POLICY_BLOCK', status: 403 });
  t.same(r.policy_ids, ['p-1']);
  t.same(r.reasons, ['content policy "No secrets" (p-1): block']);
  t.same(eventsOf(r), ['CUSTOM_POLICY_BLOCK:BLOCK', 'REQUEST_BLOCKED:BLOCK']);
  t.match(eventOf(r, 'CUSTOM_POLICY_BLOCK'), { severity: 'HIGH', policy_ids: ['p-1'], decision: 'BLOCK' });
});

t.test('content policy block next to a detector block: POLICY_VIOLATION answer, both events', async (t) => {
  const r = decide(request(base, { threat: threat(0.95), content_policy: policies({ id: 'p-1', action: 'block' }) }));
  t.equal(r.block?.code, 'POLICY_VIOLATION');
  t.same(eventsOf(r), ['JAILBREAK_DETECTED:BLOCK', 'CUSTOM_POLICY_BLOCK:BLOCK', 'REQUEST_BLOCKED:BLOCK']);
});

t.test('content policy flag: the request passes, CUSTOM_POLICY_FLAG recorded', async (t) => {
  const r = decide(request(base, { content_policy: policies({ id: 'p-flag', action: 'flag' }) }));
  t.equal(r.decision, 'ALLOW');
  t.same(r.policy_ids, ['p-flag']);
  t.same(eventsOf(r), ['CUSTOM_POLICY_FLAG:FLAG', 'REQUEST_ALLOWED:ALLOW']);
  t.match(eventOf(r, 'CUSTOM_POLICY_FLAG'), { severity: 'LOW', decision: 'ALLOW', policy_ids: ['p-flag'] });
});

t.test('trust_pii next to block: the block stands, the PII is trusted', async (t) => {
  const email = entity('EMAIL', 0, 10);
  const r = decide(
    request(base, {
      pii: pii(email),
      content_policy: policies({ id: 'p-block', action: 'block' }, { id: 'p-trust', action: 'trust_pii', spans: [[0, 10]] }),
    }),
  );
  t.equal(r.decision, 'BLOCK');
  t.equal(r.block?.code, 'CUSTOM_POLICY_BLOCK');
  t.same(r.policy_ids, ['p-block', 'p-trust']);
  t.equal(r.pii_entities[0]?.trusted, true);
  t.same(eventsOf(r), ['CUSTOM_POLICY_BLOCK:BLOCK', 'REQUEST_BLOCKED:BLOCK']);
  t.same(eventOf(r, 'CUSTOM_POLICY_BLOCK')?.policy_ids, ['p-block']);

  const withJailbreak = decide(request(base, { threat: threat(0.9), content_policy: policies({ id: 'p-trust', action: 'trust_pii', spans: [[0, 99]] }) }));
  t.equal(withJailbreak.decision, 'BLOCK', 'nor a detector block');
});

t.test('content policy answer without fired_policies: ids from matches and spans', async (t) => {
  const answer = policies({ id: 'p-1', action: 'block' });
  if (answer.status !== 'ok') throw new Error('unreachable');
  const { fired_policies: _drop, ...bare } = answer.result;
  const r = decide(request(base, { content_policy: ok(bare) }));
  t.equal(r.decision, 'BLOCK');
  t.same(r.policy_ids, ['p-1']);
  t.same(eventOf(r, 'CUSTOM_POLICY_BLOCK')?.policy_ids, ['p-1']);
});

t.test('strictest wins: BLOCK over SANITIZE over ALLOW', async (t) => {
  const r = decide(request(base, { threat: threat(0.9), pii: pii(entity('EMAIL', 0, 5)) }));
  t.equal(r.decision, 'BLOCK');
  t.equal(r.sanitize, null, 'a blocked request is not rewritten');
  t.same(eventsOf(r), ['JAILBREAK_DETECTED:BLOCK', 'PII_DETECTED:MASK', 'REQUEST_BLOCKED:BLOCK']);
  t.match(eventOf(r, 'PII_DETECTED'), { decision: 'BLOCK' });
  t.same(r.block?.details?.pii_entities.map((e) => e.type), ['EMAIL']);
  const flagged = decide(request(base, { pii: pii(entity('EMAIL', 0, 5)), content_policy: policies({ id: 'f', action: 'flag' }) }));
  t.equal(flagged.decision, 'SANITIZE', 'a flag does not lower a SANITIZE');
});

t.test('skipped and missing detectors count for nothing', async (t) => {
  const r = decide(request(base, { threat: skipped(), pii: skipped(), content_safety: skipped(), content_policy: skipped() }));
  t.equal(r.decision, 'ALLOW');
  t.same(eventsOf(r), ['REQUEST_ALLOWED:ALLOW']);
});

t.test('every event carries its type\'s default severity', async (t) => {
  const profile = makeProfile({
    pii: { mode: 'block' },
    content_safety: { enabled: true, blocked_categories: ['violence'] },
    action_on_detector_error: 'block',
  });
  const r = decide(
    request(profile, {
      threat: threat(0.99),
      pii: pii(entity('EMAIL', 0, 4)),
      content_safety: safety(['violence', 'Unsafe']),
      content_policy: policies({ id: 'b', action: 'block' }, { id: 'f', action: 'flag' }),
    }),
  );
  t.ok(r.events.length >= 6);
  for (const e of r.events) t.equal(e.severity, DEFAULT_SEVERITY_BY_EVENT_TYPE[e.event_type], e.event_type);
});
