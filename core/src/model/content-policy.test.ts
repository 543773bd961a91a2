import t from 'tap';
import { ContentPolicy, ContentPolicyCreate, ContentPolicyUpdate, POLICY_ACTION_STRICTNESS } from './content-policy.js';
import { issuePaths, parseOk } from '../testing/model.js';

const base = { name: 'no-secrets', type: 'blocklist', rules: [{ kind: 'keyword', pattern: 'project x' }] };
const withField = (patch: Record<string, unknown>) => ({ ...base, ...patch });

t.test('defaults', async (t) => {
  t.same(parseOk(ContentPolicyCreate, base), {
    ...base,
    description: '',
    languages: [],
    scope: 'request',
    case_sensitive: false,
    priority: 100,
    action: 'block',
  });
});

t.test('blocklist and allowlist need at least one rule', async (t) => {
  t.same(issuePaths(ContentPolicyCreate, withField({ rules: [] })), ['rules']);
  t.same(issuePaths(ContentPolicyCreate, withField({ type: 'allowlist', rules: [] })), ['rules']);
  t.same(issuePaths(ContentPolicyCreate, { name: 'x', type: 'allowlist' }), ['rules']);
  t.same(issuePaths(ContentPolicyCreate, withField({ type: 'allowlist' })), []);
});

t.test('language policies need ISO 639-1 languages', async (t) => {
  t.same(issuePaths(ContentPolicyCreate, { name: 'lang', type: 'language' }), ['languages']);
  t.same(issuePaths(ContentPolicyCreate, { name: 'lang', type: 'language', languages: [] }), ['languages']);
  t.same(parseOk(ContentPolicyCreate, { name: 'lang', type: 'language', languages: ['en', 'RU'] }).languages, ['en', 'ru']);
  t.same(issuePaths(ContentPolicyCreate, { name: 'lang', type: 'language', languages: ['en', 'eng'] }), ['languages.1']);
  t.same(issuePaths(ContentPolicyCreate, { name: 'lang', type: 'language', languages: ['e1'] }), ['languages.0']);
  t.same(issuePaths(ContentPolicyCreate, { name: 'lang', type: 'language', languages: ['de', 'xx'] }), ['languages.1'], 'not an ISO 639-1 code');
});

t.test('rules: kind keyword|regex, non-empty pattern; regexes are not compiled here', async (t) => {
  t.same(issuePaths(ContentPolicyCreate, withField({ rules: [{ kind: 'keyword', pattern: '' }] })), ['rules.0.pattern']);
  t.same(issuePaths(ContentPolicyCreate, withField({ rules: [{ kind: 'glob', pattern: 'a*' }] })), ['rules.0.kind']);
  t.same(issuePaths(ContentPolicyCreate, withField({ rules: [{ kind: 'regex', pattern: '(?i)secret\\s+plan' }] })), []);
  t.same(issuePaths(ContentPolicyCreate, withField({ rules: [{ kind: 'regex', pattern: '(' }] })), [], 'RE2 check happens in the service');
});

t.test('type, scope, action, priority', async (t) => {
  t.same(issuePaths(ContentPolicyCreate, withField({ type: 'denylist' })), ['type']);
  t.equal(parseOk(ContentPolicyCreate, withField({ scope: 'input' })).scope, 'request');
  t.equal(parseOk(ContentPolicyCreate, withField({ scope: 'output' })).scope, 'response');
  t.equal(parseOk(ContentPolicyCreate, withField({ scope: 'both' })).scope, 'both');
  t.same(issuePaths(ContentPolicyCreate, withField({ scope: 'sideways' })), ['scope']);
  for (const action of ['block', 'flag', 'trust_pii']) t.same(issuePaths(ContentPolicyCreate, withField({ action })), [], action);
  t.same(issuePaths(ContentPolicyCreate, withField({ action: 'allow' })), ['action']);
  for (const priority of [-1, 1001, 2.5]) t.same(issuePaths(ContentPolicyCreate, withField({ priority })), ['priority'], `${priority}`);
  for (const priority of [0, 1000]) t.same(issuePaths(ContentPolicyCreate, withField({ priority })), [], `${priority}`);
  t.same(issuePaths(ContentPolicyCreate, withField({ case_sensitive: 'yes' })), ['case_sensitive']);
  t.ok(POLICY_ACTION_STRICTNESS.block > POLICY_ACTION_STRICTNESS.flag && POLICY_ACTION_STRICTNESS.flag > POLICY_ACTION_STRICTNESS.trust_pii);
});

t.test('update: partial, aliases mapped, no defaults', async (t) => {
  t.same(parseOk(ContentPolicyUpdate, { scope: 'output' }), { scope: 'response' });
  t.same(parseOk(ContentPolicyUpdate, { priority: 7 }), { priority: 7 });
  t.same(issuePaths(ContentPolicyUpdate, { rules: [{ kind: 'regex', pattern: '' }] }), ['rules.0.pattern']);
});

t.test('the stored record: DRAFT or ACTIVE', async (t) => {
  const now = new Date().toISOString();
  const record = { ...base, id: globalThis.crypto.randomUUID(), tenant_id: 't1', created_at: now, updated_at: now };
  t.equal(parseOk(ContentPolicy, record).status, 'DRAFT');
  t.same(issuePaths(ContentPolicy, { ...record, status: 'ACTIVE' }), []);
  t.same(issuePaths(ContentPolicy, { ...record, status: 'ARCHIVED' }), ['status']);
});
