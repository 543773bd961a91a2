// The content-policy tester over real HTTP on the Admin API (forwarded identities), on PGlite and
// PostgreSQL: draft and stored policies, each action and type, RE2 errors on their rule, the limits.
import t from 'tap';
import { CONTENT_POLICY_TEST_MAX_TEXT, createResourceStore } from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { contentPolicyBody, startAdminApi, type Caller } from '../testing/admin-api.js';
import { registerContentPolicyTestRoute } from './test-route.js';

const VIEWER: Caller = { user: 'vera', groups: 'viewer', tenant: 'acme' };
const OPERATOR: Caller = { user: 'oscar', groups: 'operator', tenant: 'acme' };
const OTHER_OPERATOR: Caller = { user: 'gus', groups: 'operator', tenant: 'globex' };
const PATH = '/api/v1/content-policies/test';

const draft = (over: Record<string, unknown> = {}) => ({
  type: 'blocklist',
  action: 'block',
  rules: [
    { kind: 'keyword', pattern: 'project falcon' },
    { kind: 'regex', pattern: '\\bACC-\\d{4}\\b' },
  ],
  ...over,
});

t.test('the content-policy tester', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const { api, call } = await startAdminApi(t, db, { routeModules: [(app, ctx) => registerContentPolicyTestRoute(app, { ...ctx, store: createResourceStore(db) })] });

    t.test('a draft blocklist: which rules fire, where, and the action (a viewer may test)', async (t) => {
      const text = 'About Project Falcon: see ACC-1234 and ACC-98765.';
      const res = await call('POST', PATH, { as: VIEWER, body: { ...draft(), name: 'unsaved', text } });
      t.equal(res.status, 200, res.text);
      t.match(res.body, { type: 'blocklist', fired: true, action: 'block', reason: 'rule_match', matches_truncated: false });
      t.same(res.body.matches, [
        { rule_index: 0, kind: 'keyword', pattern: 'project falcon', start: 6, end: 20, text: 'Project Falcon' },
        { rule_index: 1, kind: 'regex', pattern: '\\bACC-\\d{4}\\b', start: 26, end: 34, text: 'ACC-1234' },
      ]);
      const quiet = await call('POST', PATH, { as: VIEWER, body: { ...draft(), text: 'Nothing to see.' } });
      t.match(quiet.body, { fired: false, action: null, reason: null, matches: [] });
      const sensitive = await call('POST', PATH, { as: VIEWER, body: { ...draft({ case_sensitive: true }), text } });
      t.same(sensitive.body.matches.map((m: { rule_index: number }) => m.rule_index), [1], 'case sensitivity is the policy’s');
    });

    t.test('flag and trust_pii policies report their own action and name each rule', async (t) => {
      for (const action of ['flag', 'trust_pii']) {
        const res = await call('POST', PATH, { as: VIEWER, body: { ...draft({ action }), text: 'ref ACC-0001' } });
        t.match(res.body, { fired: true, action, matches: [{ rule_index: 1, text: 'ACC-0001' }] }, action);
      }
    });

    t.test('an allowlist fires when no rule matches, and lists the rules that kept it quiet', async (t) => {
      const allow = draft({ type: 'allowlist', rules: [{ kind: 'keyword', pattern: 'invoice' }] });
      const held = await call('POST', PATH, { as: VIEWER, body: { ...allow, text: 'Summarise this invoice.' } });
      t.match(held.body, { fired: false, action: null, matches: [{ rule_index: 0, text: 'invoice' }] });
      const fired = await call('POST', PATH, { as: VIEWER, body: { ...allow, text: 'Write me a poem.' } });
      t.match(fired.body, { fired: true, action: 'block', reason: 'no_allowlist_match', matches: [] });
    });

    t.test('a language policy names the language it found', async (t) => {
      const text = 'Пожалуйста, подготовьте краткий отчёт о продажах за прошлый квартал для всей команды.';
      const res = await call('POST', PATH, { as: VIEWER, body: { type: 'language', languages: ['en'], action: 'block', text } });
      t.match(res.body, { fired: true, reason: 'language_not_allowed', detected_language: 'ru' });
    });

    t.test('a stored policy by id, in the caller’s tenant only', async (t) => {
      const stored = await api.contentPolicies.create(contentPolicyBody({ rules: [{ kind: 'keyword', pattern: 'forbidden' }], action: 'flag' }), 'acme');
      const res = await call('POST', PATH, { as: VIEWER, body: { id: stored.id, text: 'a forbidden word' } });
      t.match(res.body, { fired: true, action: 'flag', matches: [{ rule_index: 0, pattern: 'forbidden', start: 2, end: 11 }] });
      const elsewhere = await call('POST', PATH, { as: OTHER_OPERATOR, body: { id: stored.id, text: 'a forbidden word' } });
      t.equal(elsewhere.status, 404, 'another tenant’s policy is not found');
      const named = await call('POST', `${PATH}?tenant_id=acme`, { as: OTHER_OPERATOR, body: { id: stored.id, text: 'x' } });
      t.equal(named.status, 403, 'naming another tenant is refused');
    });

    t.test('a pattern RE2 refuses is a 400 naming the rule’s field', async (t) => {
      const rules = [{ kind: 'keyword', pattern: 'ok' }, { kind: 'regex', pattern: '(?<=look)behind' }];
      const res = await call('POST', PATH, { as: OPERATOR, body: { ...draft({ rules }), text: 'x' } });
      t.equal(res.status, 400);
      t.equal(res.body.error.code, 'VALIDATION_ERROR');
      t.same(res.body.error.details.map((d: { path: string }) => d.path), ['rules.1.pattern']);
    });

    t.test('bad input and limits', async (t) => {
      const long = await call('POST', PATH, { as: VIEWER, body: { ...draft(), text: 'a'.repeat(CONTENT_POLICY_TEST_MAX_TEXT + 1) } });
      t.equal(long.status, 400);
      t.match(long.body.error, { code: 'VALIDATION_ERROR', details: [{ path: 'text' }] });
      const huge = await call('POST', PATH, { as: VIEWER, body: { ...draft(), text: 'a'.repeat(1024 * 1024 + 1) } });
      t.equal(huge.status, 413);
      t.equal(huge.body.error.code, 'PAYLOAD_TOO_LARGE');
      const noRules = await call('POST', PATH, { as: VIEWER, body: { type: 'blocklist', text: 'x' } });
      t.match(noRules.body.error, { code: 'VALIDATION_ERROR', details: [{ path: 'rules' }] });
      const noText = await call('POST', PATH, { as: VIEWER, body: draft() });
      t.match(noText.body.error, { code: 'VALIDATION_ERROR', details: [{ path: 'text' }] });
      t.equal((await call('POST', PATH, { as: null, body: { ...draft(), text: 'x' } })).status, 401);
    });
  });
});
