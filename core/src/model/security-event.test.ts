import t from 'tap';
import {
  CEF_SEVERITY,
  DEFAULT_SEVERITY_BY_EVENT_TYPE,
  EVENT_TYPES,
  NON_SUPPRESSIBLE_EVENT_TYPES,
  SEVERITIES,
  SUPPRESSIBLE_EVENT_TYPES,
  InspectionCheck,
  SecurityEvent,
  SecurityEventQuery,
  createSecurityEvent,
  assembleSecurityEvents,
  isSuppressible,
} from './security-event.js';
import { issuePaths, parseOk } from '../testing/model.js';

t.test('every event type of the spec, with its suppressibility', async (t) => {
  const spec: [string, boolean | null][] = [
    ['REQUEST_BLOCKED', false],
    ['REQUEST_SANITIZED', false],
    ['JAILBREAK_DETECTED', false],
    ['PII_DETECTED', false],
    ['POLICY_VIOLATION', false],
    ['CUSTOM_POLICY_BLOCK', false],
    ['CUSTOM_POLICY_FLAG', null],
    ['MONITOR_ALERT', true],
    ['RESPONSE_MONITOR_ALERT', null],
    ['RESPONSE_REDACTED', null],
    ['RESPONSE_BLOCKED', null],
    ['FAIL_SAFE_TRIGGERED', true],
    ['DETECTOR_ERROR', true],
    ['PROVIDER_ERROR', true],
    ['RATE_LIMIT', true],
    ['SERVICE_UNAVAILABLE', true],
    ['REQUEST_ERROR', true],
    ['THREAT_DETECTED', null],
  ];
  for (const [type, suppressible] of spec) {
    t.ok((EVENT_TYPES as readonly string[]).includes(type), type);
    t.equal(isSuppressible(type), suppressible === true, `${type} suppressible`);
  }
  t.equal(NON_SUPPRESSIBLE_EVENT_TYPES.length, 6);
  t.equal(SUPPRESSIBLE_EVENT_TYPES.length, 7);
  t.ok(NON_SUPPRESSIBLE_EVENT_TYPES.every((type) => !isSuppressible(type)));
});

t.test('default severity per type (DECISIONS.md)', async (t) => {
  const want: Record<string, string[]> = {
    CRITICAL: ['JAILBREAK_DETECTED'],
    HIGH: ['REQUEST_BLOCKED', 'CUSTOM_POLICY_BLOCK', 'POLICY_VIOLATION', 'RESPONSE_BLOCKED', 'RESPONSE_REDACTED', 'FAIL_SAFE_TRIGGERED', 'SERVICE_UNAVAILABLE'],
    MEDIUM: ['PII_DETECTED', 'REQUEST_SANITIZED', 'MONITOR_ALERT', 'RESPONSE_MONITOR_ALERT', 'DETECTOR_ERROR', 'PROVIDER_ERROR'],
    LOW: ['CUSTOM_POLICY_FLAG', 'RATE_LIMIT', 'REQUEST_ERROR'],
    INFO: ['REQUEST_ALLOWED'],
  };
  for (const [severity, types] of Object.entries(want)) {
    for (const type of types) t.equal(DEFAULT_SEVERITY_BY_EVENT_TYPE[type as keyof typeof DEFAULT_SEVERITY_BY_EVENT_TYPE], severity, type);
  }
  for (const type of EVENT_TYPES) t.ok(SEVERITIES.includes(DEFAULT_SEVERITY_BY_EVENT_TYPE[type]), `${type} has a severity`);
  t.same(CEF_SEVERITY, { CRITICAL: 10, HIGH: 8, MEDIUM: 5, LOW: 3, INFO: 1 });
});

t.test('createSecurityEvent fills id, timestamp and severity', async (t) => {
  const now = new Date('2025-03-01T10:00:00.000Z');
  const e = createSecurityEvent({ trace_id: 'abc-123', event_type: 'JAILBREAK_DETECTED', tenant_id: 'acme', jailbreak_score: 0.97 }, now);
  t.equal(e.severity, 'CRITICAL');
  t.equal(e.timestamp, '2025-03-01T10:00:00.000Z');
  t.match(e.id, /^[0-9a-f-]{36}$/);
  t.same(e.pii_entities, []);
  t.equal(e.provider_id, null);
  const explicit = createSecurityEvent({ trace_id: 't', event_type: 'PII_DETECTED', tenant_id: 'a', severity: 'LOW' });
  t.equal(explicit.severity, 'LOW');
  t.throws(() => createSecurityEvent({ trace_id: 't', event_type: 'PII_DETECTED', tenant_id: 'a', jailbreak_score: 1.5 }));
});

t.test('assembleSecurityEvents: the events of one decision, the same records as createSecurityEvent, valid as the readers check them', async (t) => {
  const now = new Date('2025-03-01T10:00:00.000Z');
  const inspection = [
    InspectionCheck.parse({ detector: 'threat', side: 'request', status: 'ok', score: 0.2, threshold: 0.5, latency_ms: 0.4 }),
    InspectionCheck.parse({ detector: 'pii', side: 'request', status: 'ok', findings: 1 }),
  ];
  const whole = {
    trace_id: 't',
    tenant_id: 'a',
    source_ip: '10.0.0.1',
    provider_id: '00000000-0000-4000-8000-00000000000a',
    provider_name: 'p',
    profile_id: null,
    model: 'm',
    action: 'MASK',
    decision: 'SANITIZE' as const,
    jailbreak_score: 0.1,
    pii_entities: [{ type: 'EMAIL' as const, start: 0, end: 5, value: 'a@b.c', masked: '[EMAIL]' }],
    categories: [],
    policy_ids: [],
    user_prompt: 'a@b.c',
    latency_ms: 3,
  };
  const { action, decision, jailbreak_score, pii_entities, categories, policy_ids, ...shared } = whole;
  const parts = [
    { event_type: 'PII_DETECTED' as const, action, decision, jailbreak_score, pii_entities, categories, policy_ids, reasons: ['pii'] },
    { event_type: 'REQUEST_SANITIZED' as const, severity: 'LOW' as const, action, decision, jailbreak_score, pii_entities, categories, policy_ids, reasons: [] },
  ];
  const drafts = parts.map((part) => ({ ...whole, ...part }));
  const events = assembleSecurityEvents(shared, parts, inspection, now);
  t.same(
    events,
    drafts.map((draft, i) => createSecurityEvent({ ...draft, id: events[i]!.id, inspection }, now)),
  );
  t.same(Object.keys(events[0]!), Object.keys(createSecurityEvent({ ...drafts[0]!, inspection }, now)), 'the same key order: the stored JSON is the same');
  t.equal(events[0]!.severity, 'MEDIUM', "the type's default severity");
  t.equal(events[1]!.severity, 'LOW', 'a given severity');
  t.not(events[0]!.id, events[1]!.id, 'an id each');
  t.not(events[0]!.inspection, events[1]!.inspection, 'each event has its own list');
  for (const event of events) t.same(SecurityEvent.parse(JSON.parse(JSON.stringify(event))), event, 'the event writer and exporters read it back as is');
  t.same(assembleSecurityEvents(shared, [], inspection, now), [], 'no parts, no events');
});

t.test('the event record', async (t) => {
  const base = parseOk(SecurityEvent, {
    id: globalThis.crypto.randomUUID(),
    trace_id: 't-1',
    timestamp: new Date().toISOString(),
    event_type: 'PII_DETECTED',
    severity: 'MEDIUM',
    tenant_id: 'acme',
    action: 'MASK',
    decision: 'SANITIZE',
    pii_entities: [{ type: 'EMAIL', start: 5, end: 22, value: 'ivan@example.com', masked: 'i***@example.com' }],
    reasons: ['pii'],
  });
  t.same(issuePaths(SecurityEvent, { ...base, event_type: 'HACKED' }), ['event_type']);
  t.same(issuePaths(SecurityEvent, { ...base, severity: 'SEVERE' }), ['severity']);
  t.same(issuePaths(SecurityEvent, { ...base, decision: 'MAYBE' }), ['decision']);
  t.same(issuePaths(SecurityEvent, { ...base, jailbreak_score: -0.1 }), ['jailbreak_score']);
  t.same(issuePaths(SecurityEvent, { ...base, pii_entities: [{ type: 'SHOE', start: 0, end: 1, value: 'x', masked: '*' }] }), ['pii_entities.0.type']);
  t.same(issuePaths(SecurityEvent, { ...base, trace_id: '' }), ['trace_id']);
  t.same(issuePaths(SecurityEvent, { ...base, decision: 'MONITOR_ONLY', action: 'WOULD_BLOCK' }), []);
});

t.test('the list query', async (t) => {
  const q = parseOk(SecurityEventQuery, { trace_id: 'abc', severity: 'high', event_type: 'pii_detected', limit: '10' });
  t.same(q, { trace_id: 'abc', severity: 'HIGH', event_type: 'PII_DETECTED', limit: 10, offset: 0 });
  t.same(parseOk(SecurityEventQuery, {}), { limit: 50, offset: 0 });
  t.same(issuePaths(SecurityEventQuery, { limit: '0' }), ['limit']);
  t.same(issuePaths(SecurityEventQuery, { limit: '1001' }), ['limit']);
  t.same(issuePaths(SecurityEventQuery, { offset: '-1' }), ['offset']);
});
