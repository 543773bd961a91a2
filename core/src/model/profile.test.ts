import t from 'tap';
import { z } from 'zod';
import { CONTENT_SAFETY_CATEGORIES } from './content-safety.js';
import { Profile, ProfileCreate, ProfileSpec, ProfileUpdate } from './profile.js';
import { NON_SUPPRESSIBLE_EVENT_TYPES, SUPPRESSIBLE_EVENT_TYPES } from './security-event.js';
import { issuePaths, issuesOf, parseOk } from '../testing/model.js';

const providerId = '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60';
const base = { name: 'chat-prod', provider_id: providerId };
const withField = (patch: Record<string, unknown>) => ({ ...base, ...patch });

t.test('a minimal profile is the DECISIONS.md record with every default', async (t) => {
  t.same(parseOk(ProfileCreate, base), {
    name: 'chat-prod',
    provider_id: providerId,
    monitor_only: false,
    threat_detection: { enabled: true, jailbreak_threshold: 0.8 },
    pii: { enabled: true, types: ['EMAIL', 'PHONE_NUMBER'], mode: 'mask' },
    translation: { enabled: true, target_lang: 'en' },
    content_safety: {
      enabled: false,
      blocked_categories: [],
      controversial_as_unsafe: false,
      threshold: 0.5,
      category_thresholds: {},
      response_enabled: false,
      response_blocked_categories: [],
    },
    response_scanning: {
      enabled: true,
      pii_mode: 'disabled',
      pii_types: [],
      content_safety_enabled: false,
      response_blocked_categories: [],
      action_on_content_violation: 'block',
      streaming: 'incremental',
      stream_holdback_chars: null,
    },
    content_policy_ids: [],
    detector_timeout_ms: 2000,
    max_inspected_chars: 1_000_000,
    action_on_timeout: 'pass',
    action_on_detector_error: 'pass',
    fail_safe: { mode: 'fail-open' },
    block_status_code: 451,
    event_logging: { log_allow_decisions: false, disabled_event_types: [], inspection_header: false },
  });
});

t.test('name and provider_id are required', async (t) => {
  t.same(issuePaths(ProfileCreate, { provider_id: providerId }), ['name']);
  t.same(issuePaths(ProfileCreate, { name: 'x' }), ['provider_id']);
  t.same(issuePaths(ProfileCreate, withField({ provider_id: 'p-1' })), ['provider_id']);
  t.same(issuePaths(ProfileCreate, withField({ name: 'x'.repeat(256) })), ['name']);
});

t.test('top-level aliases of the profile form map into the nested objects', async (t) => {
  const p = parseOk(ProfileCreate, withField({ jailbreak_threshold: 0.3, pii_types: ['email', 'PHONE', 'CREDIT_CARD'], pii_mode: 'block' }));
  t.same(p.threat_detection, { enabled: true, jailbreak_threshold: 0.3 });
  t.same(p.pii, { enabled: true, types: ['EMAIL', 'PHONE_NUMBER', 'CREDIT_CARD'], mode: 'block' });
  t.notOk('jailbreak_threshold' in p, 'the alias itself is not kept');
  const nestedWins = parseOk(ProfileCreate, withField({ jailbreak_threshold: 0.3, threat_detection: { jailbreak_threshold: 0.9 } }));
  t.equal(nestedWins.threat_detection.jailbreak_threshold, 0.9);
  const merged = parseOk(ProfileCreate, withField({ pii_mode: 'redact', pii: { enabled: false } }));
  t.same(merged.pii, { enabled: false, types: ['EMAIL', 'PHONE_NUMBER'], mode: 'redact' });
});

t.test('jailbreak_threshold is 0.0-1.0', async (t) => {
  for (const v of [-0.01, 1.01]) {
    t.same(issuePaths(ProfileCreate, withField({ jailbreak_threshold: v })), ['threat_detection.jailbreak_threshold'], `alias ${v}`);
    t.same(issuePaths(ProfileCreate, withField({ threat_detection: { jailbreak_threshold: v } })), ['threat_detection.jailbreak_threshold']);
  }
  for (const v of [0, 1]) t.same(issuePaths(ProfileCreate, withField({ jailbreak_threshold: v })), []);
});

t.test('pii types and modes', async (t) => {
  t.same(issuePaths(ProfileCreate, withField({ pii_types: ['EMAIL', 'SHOE_SIZE'] })), ['pii.types.1']);
  t.same(issuePaths(ProfileCreate, withField({ pii_mode: 'hide' })), ['pii.mode']);
  for (const mode of ['mask', 'block', 'redact']) t.same(issuePaths(ProfileCreate, withField({ pii_mode: mode })), [], mode);
  for (const mode of ['disabled', 'monitor', 'mask', 'block']) {
    t.same(issuePaths(ProfileCreate, withField({ response_scanning: { pii_mode: mode } })), [], mode);
  }
  t.same(issuePaths(ProfileCreate, withField({ response_scanning: { pii_mode: 'redact' } })), ['response_scanning.pii_mode']);
  const out = parseOk(ProfileCreate, withField({ response_scanning: { pii_types: ['jwt', 'DATABASE_URL'] } }));
  t.same(out.response_scanning.pii_types, ['JWT', 'DATABASE_URL']);
});

t.test('fail_safe mode accepts the form spellings and normalises them', async (t) => {
  t.equal(parseOk(ProfileCreate, withField({ fail_safe: { mode: 'fail_open' } })).fail_safe.mode, 'fail-open');
  t.equal(parseOk(ProfileCreate, withField({ fail_safe: { mode: 'fail_closed' } })).fail_safe.mode, 'fail-closed');
  t.equal(parseOk(ProfileCreate, withField({ fail_safe: { mode: 'fail-closed' } })).fail_safe.mode, 'fail-closed');
  t.equal(parseOk(ProfileCreate, withField({ fail_safe: 'fail_closed' })).fail_safe.mode, 'fail-closed');
  t.same(issuePaths(ProfileCreate, withField({ fail_safe: { mode: 'sometimes' } })), ['fail_safe.mode']);
});

t.test('block_status_code is an integer 400-599, default 451', async (t) => {
  for (const v of [399, 600, 451.5]) t.same(issuePaths(ProfileCreate, withField({ block_status_code: v })), ['block_status_code'], `${v}`);
  for (const v of [400, 403, 599]) t.same(issuePaths(ProfileCreate, withField({ block_status_code: v })), [], `${v}`);
});

t.test('detector timeouts and actions', async (t) => {
  t.same(issuePaths(ProfileCreate, withField({ detector_timeout_ms: 99 })), ['detector_timeout_ms']);
  t.same(issuePaths(ProfileCreate, withField({ detector_timeout_ms: 60001 })), ['detector_timeout_ms']);
  t.same(issuePaths(ProfileCreate, withField({ action_on_timeout: 'retry' })), ['action_on_timeout']);
  t.same(issuePaths(ProfileCreate, withField({ max_inspected_chars: 999 })), ['max_inspected_chars']);
  t.same(issuePaths(ProfileCreate, withField({ max_inspected_chars: 1_000_001 })), ['max_inspected_chars'], 'not past what the detectors read whole');
  t.same(issuePaths(ProfileCreate, withField({ max_inspected_chars: 50_000 })), []);
  t.same(issuePaths(ProfileCreate, withField({ action_on_detector_error: 'ignore' })), ['action_on_detector_error']);
  t.same(issuePaths(ProfileCreate, withField({ action_on_timeout: 'block', action_on_detector_error: 'block' })), []);
});

t.test('event_logging.disabled_event_types only takes suppressible types', async (t) => {
  const ok = parseOk(ProfileCreate, withField({ event_logging: { disabled_event_types: [...SUPPRESSIBLE_EVENT_TYPES] } }));
  t.same(ok.event_logging.disabled_event_types, SUPPRESSIBLE_EVENT_TYPES);
  t.same(parseOk(ProfileCreate, withField({ event_logging: { disabled_event_types: ['rate_limit'] } })).event_logging.disabled_event_types, ['RATE_LIMIT']);
  for (const type of [...NON_SUPPRESSIBLE_EVENT_TYPES, 'NOT_A_TYPE']) {
    const issues = issuesOf(ProfileCreate, withField({ event_logging: { disabled_event_types: ['RATE_LIMIT', type] } }));
    t.same(issues.map((i) => i.path), [['event_logging', 'disabled_event_types', 1]], type);
    t.match(issues[0]?.message, /not a suppressible event type/);
  }
});

t.test('content safety: the 9 categories and 0-1 thresholds', async (t) => {
  const all = [...CONTENT_SAFETY_CATEGORIES];
  t.equal(all.length, 9);
  t.same(issuePaths(ProfileCreate, withField({ content_safety: { enabled: true, blocked_categories: all, response_blocked_categories: all } })), []);
  t.same(issuePaths(ProfileCreate, withField({ content_safety: { blocked_categories: ['weapons'] } })), ['content_safety.blocked_categories.0']);
  t.same(issuePaths(ProfileCreate, withField({ response_scanning: { response_blocked_categories: ['weapons'] } })), ['response_scanning.response_blocked_categories.0']);
  t.same(issuePaths(ProfileCreate, withField({ content_safety: { threshold: 1.5 } })), ['content_safety.threshold']);
  t.same(issuePaths(ProfileCreate, withField({ content_safety: { threshold: -0.1 } })), ['content_safety.threshold']);
  t.same(issuePaths(ProfileCreate, withField({ content_safety: { category_thresholds: { violence: 0.7, jailbreak: 0.2 } } })), []);
  t.same(issuePaths(ProfileCreate, withField({ content_safety: { category_thresholds: { violence: 2 } } })), ['content_safety.category_thresholds.violence']);
  const unknownCategory = issuePaths(ProfileCreate, withField({ content_safety: { category_thresholds: { weapons: 0.1 } } }));
  t.ok(unknownCategory.length === 1 && unknownCategory[0]?.startsWith('content_safety.category_thresholds'), unknownCategory.join());
  t.same(issuePaths(ProfileCreate, withField({ response_scanning: { action_on_content_violation: 'warn' } })), ['response_scanning.action_on_content_violation']);
});

t.test('translation and content policies', async (t) => {
  t.same(issuePaths(ProfileCreate, withField({ translation: { target_lang: 'eng' } })), ['translation.target_lang']);
  t.same(issuePaths(ProfileCreate, withField({ translation: { target_lang: 'zz' } })), ['translation.target_lang']);
  t.same(issuePaths(ProfileCreate, withField({ translation: { enabled: false, target_lang: 'ru' } })), []);
  const id = '0d7a2f6e-0c1b-4a55-9c55-2a1f9e3b4c5d';
  t.same(issuePaths(ProfileCreate, withField({ content_policy_ids: [id] })), []);
  t.same(issuePaths(ProfileCreate, withField({ content_policy_ids: ['policy-1'] })), ['content_policy_ids.0']);
  t.same(issuePaths(ProfileCreate, withField({ content_policy_ids: [id, id] })), ['content_policy_ids.1']);
});

t.test('update: partial and nested-partial, no defaults, aliases mapped', async (t) => {
  t.same(parseOk(ProfileUpdate, { event_logging: { disabled_event_types: ['RATE_LIMIT'] } }), {
    event_logging: { disabled_event_types: ['RATE_LIMIT'] },
  });
  t.same(parseOk(ProfileUpdate, { pii_mode: 'redact', jailbreak_threshold: 0.5 }), {
    pii: { mode: 'redact' },
    threat_detection: { jailbreak_threshold: 0.5 },
  });
  t.same(parseOk(ProfileUpdate, { monitor_only: true }), { monitor_only: true });
  t.same(parseOk(ProfileUpdate, { fail_safe: { mode: 'fail_closed' } }), { fail_safe: { mode: 'fail-closed' } });
  t.same(issuePaths(ProfileUpdate, { block_status_code: 600 }), ['block_status_code']);
  t.same(issuePaths(ProfileUpdate, { event_logging: { disabled_event_types: ['PII_DETECTED'] } }), ['event_logging.disabled_event_types.0']);
  t.same(issuePaths(ProfileUpdate, { jailbreak_threshold: 2 }), ['threat_detection.jailbreak_threshold']);
  const rebind = issuesOf(ProfileUpdate, { provider_id: providerId, monitor_only: true });
  t.same(rebind.map((i) => i.path), [['provider_id']], 'provider_id is read-only');
  t.match(rebind[0]?.message, /immutable/);
});

t.test('the stored record and its states', async (t) => {
  const now = new Date().toISOString();
  const record = { ...base, id: globalThis.crypto.randomUUID(), tenant_id: 't1', created_at: now, updated_at: now };
  t.equal(parseOk(Profile, record).status, 'DRAFT');
  for (const status of ['DRAFT', 'ACTIVE', 'ARCHIVED']) t.same(issuePaths(Profile, { ...record, status }), [], status);
  t.same(issuePaths(Profile, { ...record, status: 'PAUSED' }), ['status']);
  t.doesNotThrow(() => z.toJSONSchema(ProfileSpec, { io: 'input' }));
});
