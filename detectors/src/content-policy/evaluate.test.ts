import t from 'tap';
import { compilePolicySet } from './compile.js';
import { evaluatePolicySet, type EvaluatePolicySetInput } from './evaluate.js';
import { createContentLanguageDetector, type ContentLanguageDetector } from './language.js';
import { EvaluatePolicyListSchema, type EvaluateResponse } from './schemas.js';

const realLanguage = createContentLanguageDetector();

function evaluate(policies: Record<string, unknown>[], input: Partial<EvaluatePolicySetInput> & { text: string }, detectLanguage: ContentLanguageDetector = realLanguage): EvaluateResponse {
  const set = compilePolicySet(EvaluatePolicyListSchema.parse(policies));
  return evaluatePolicySet(set, { scope: 'request', ...input }, { detectLanguage });
}

const blocklist = (id: string, patterns: string[], extra: Record<string, unknown> = {}) => ({
  id,
  type: 'blocklist',
  rules: patterns.map((pattern) => ({ kind: 'keyword', pattern })),
  ...extra,
});
const regexList = (id: string, patterns: string[], extra: Record<string, unknown> = {}) => ({
  id,
  type: 'blocklist',
  rules: patterns.map((pattern) => ({ kind: 'regex', pattern })),
  ...extra,
});

t.test('nothing applicable: blocked false, action null', async (t) => {
  t.same(evaluate([], { text: 'anything' }), {
    blocked: false, action: null, matches: [], trusted_spans: [], fired_policies: [], detected_language: null, language_candidates: [], matches_truncated: false,
  });
  t.same(evaluate([blocklist('p', ['nothing'])], { text: 'anything' }).fired_policies, []);
});

t.test('blocklist keyword: an exact substring, case-insensitive by default, offsets into the original text', async (t) => {
  const text = '😀 Tell me about PROJECT X and project x.';
  const r = evaluate([blocklist('p', ['project x'])], { text });
  t.equal(r.blocked, true);
  t.equal(r.action, 'block');
  t.same(r.matches, [
    { policy_id: 'p', rule_index: 0, kind: 'keyword', start: 17, end: 26, text: 'PROJECT X' },
    { policy_id: 'p', rule_index: 0, kind: 'keyword', start: 31, end: 40, text: 'project x' },
  ]);
  for (const m of r.matches) t.equal(text.slice(m.start, m.end), m.text);
  t.same(r.fired_policies, [{ policy_id: 'p', name: null, type: 'blocklist', action: 'block', priority: 100, reason: 'rule_match' }]);
  t.equal(evaluate([blocklist('p', ['project x'])], { text: 'projectx' }).blocked, false, 'exact: the space matters');
  t.equal(evaluate([blocklist('p', ['ject'])], { text: 'projection' }).blocked, true, 'a substring, not a word');
});

t.test('case_sensitive true: only the same case matches', async (t) => {
  const policies = [blocklist('p', ['Project X'], { case_sensitive: true })];
  t.equal(evaluate(policies, { text: 'about project x' }).blocked, false);
  t.equal(evaluate(policies, { text: 'about Project X' }).blocked, true);
  t.equal(evaluate([blocklist('p', ['Секрет'], { case_sensitive: true })], { text: 'это СЕКРЕТ' }).blocked, false);
  t.equal(evaluate([blocklist('p', ['Секрет'])], { text: 'это СЕКРЕТ' }).blocked, true, 'case folding beyond ASCII');
});

t.test('regex: RE2 syntax; (?i) inside a case-sensitive policy', async (t) => {
  const sensitive = [regexList('r', ['secret\\s+plan'], { case_sensitive: true })];
  t.equal(evaluate(sensitive, { text: 'the SECRET plan' }).blocked, false);
  t.equal(evaluate(sensitive, { text: 'the secret   plan' }).blocked, true);
  const embedded = [regexList('r', ['(?i)secret\\s+plan'], { case_sensitive: true })];
  const r = evaluate(embedded, { text: 'the SECRET Plan' });
  t.equal(r.blocked, true);
  t.same(r.matches.map((m) => m.text), ['SECRET Plan']);
  t.equal(evaluate([regexList('r', ['(?i:secret)PLAN'], { case_sensitive: true })], { text: 'SecretPLAN' }).blocked, true, 'a group flag');
  t.equal(evaluate([regexList('r', ['\\b\\d{4}-\\d{4}-\\d{4}-\\d{4}\\b'])], { text: 'card 1234-5678-9012-3456 ok' }).matches[0]?.text, '1234-5678-9012-3456');
  t.equal(evaluate([regexList('r', ['\\p{Cyrillic}+'])], { text: 'abc где' }).matches[0]?.text, 'где');
});

t.test('allowlist: a text matching none of its rules is blocked; one matching any passes', async (t) => {
  const allow = { id: 'a', type: 'allowlist', rules: [{ kind: 'keyword', pattern: 'weather' }, { kind: 'regex', pattern: '^translate:' }] };
  const none = evaluate([allow], { text: 'write me a poem' });
  t.equal(none.blocked, true);
  t.same(none.fired_policies.map((f) => f.reason), ['no_allowlist_match']);
  t.same(none.matches, [], 'nothing matched, so nothing is listed');
  t.equal(evaluate([allow], { text: 'what is the Weather like' }).blocked, false);
  t.equal(evaluate([allow], { text: 'translate: hello' }).blocked, false);
  t.equal(evaluate([allow], { text: 'please translate: hello' }).blocked, true, '^ anchors at the start of the text');
  t.equal(evaluate([allow], { text: '' }).blocked, true, 'an empty text matches nothing');
});

t.test('language policy: ru and en texts', async (t) => {
  const enOnly = [{ id: 'l', type: 'language', languages: ['en'] }];
  const ru = 'Привет! Расскажи, пожалуйста, как приготовить борщ на ужин для всей семьи.';
  const en = 'Hello! Please tell me how to cook a nice soup for dinner for the whole family.';
  const blocked = evaluate(enOnly, { text: ru });
  t.equal(blocked.blocked, true);
  t.equal(blocked.detected_language, 'ru');
  t.same(blocked.fired_policies.map((f) => f.reason), ['language_not_allowed']);
  const passed = evaluate(enOnly, { text: en });
  t.equal(passed.blocked, false);
  t.equal(passed.detected_language, 'en');
  const ruEn = [{ id: 'l', type: 'language', languages: ['ru', 'en'] }];
  t.equal(evaluate(ruEn, { text: ru }).blocked, false);
  t.equal(evaluate(ruEn, { text: en }).blocked, false);
  t.equal(evaluate(ruEn, { text: 'Der schnelle braune Fuchs springt über den faulen Hund, während der Bauer zuschaut.' }).blocked, true);
});

t.test('language policy: below the minimum length, and uncertain detections, never block', async (t) => {
  const enOnly = [{ id: 'l', type: 'language', languages: ['en'] }];
  const short = evaluate(enOnly, { text: 'Привет, как дела?' });
  t.equal(short.blocked, false, '13 letters');
  t.equal(short.detected_language, null);
  t.equal(evaluate(enOnly, { text: '12345 !!! ???' }).blocked, false, 'no letters');
  const mixed = evaluate(enOnly, { text: 'Please translate this into English: Сегодня хорошая погода, и мы идём гулять' });
  t.equal(mixed.blocked, false, 'an English part is a candidate');
  t.ok(mixed.language_candidates.includes('en') && mixed.language_candidates.includes('ru'));
  const stub: ContentLanguageDetector = () => ({ language: 'de', candidates: ['de', 'en'], determined: true });
  t.equal(evaluate(enOnly, { text: 'whatever' }, stub).blocked, false, 'a near-tie with an allowed language');
  const undecided: ContentLanguageDetector = () => ({ language: null, candidates: [], determined: false });
  t.equal(evaluate(enOnly, { text: 'whatever' }, undecided).blocked, false);
});

t.test('language is detected once per evaluation, and only when a language policy applies', async (t) => {
  let calls = 0;
  const counting: ContentLanguageDetector = (_text, hint) => {
    calls++;
    return { language: hint ?? 'fr', candidates: ['fr'], determined: true };
  };
  const r = evaluate([{ id: 'a', type: 'language', languages: ['en'] }, { id: 'b', type: 'language', languages: ['de'], action: 'flag' }], { text: 'x', language: 'fr' }, counting);
  t.equal(calls, 1);
  t.equal(r.fired_policies.length, 2);
  evaluate([blocklist('p', ['x'])], { text: 'x' }, counting);
  t.equal(calls, 1);
});

t.test('priority: evaluation order; ties keep the request order; the strictest action wins regardless', async (t) => {
  const flagHigh = blocklist('flag-high', ['word'], { action: 'flag', priority: 900 });
  const blockLow = blocklist('block-low', ['word'], { action: 'block', priority: 10 });
  const r = evaluate([blockLow, flagHigh], { text: 'a word' });
  t.same(r.fired_policies.map((f) => f.policy_id), ['flag-high', 'block-low']);
  t.equal(r.action, 'block', 'a lower-priority block still beats a flag');
  t.equal(r.blocked, true);

  const tieFlag = blocklist('tie-flag', ['word'], { action: 'flag', priority: 500 });
  const tieBlock = blocklist('tie-block', ['word'], { action: 'block', priority: 500 });
  const ab = evaluate([tieFlag, tieBlock], { text: 'word' });
  const ba = evaluate([tieBlock, tieFlag], { text: 'word' });
  t.same(ab.fired_policies.map((f) => f.policy_id), ['tie-flag', 'tie-block']);
  t.same(ba.fired_policies.map((f) => f.policy_id), ['tie-block', 'tie-flag']);
  t.equal(ab.action, 'block');
  t.equal(ba.action, 'block');
  t.same(ab.matches.map((m) => m.policy_id), ['tie-flag', 'tie-block'], 'matches follow the evaluation order');
});

t.test('strictness: block over flag over trust_pii', async (t) => {
  const flag = blocklist('f', ['word'], { action: 'flag' });
  const trust = blocklist('t', ['word'], { action: 'trust_pii' });
  const flagged = evaluate([trust, flag], { text: 'word' });
  t.equal(flagged.action, 'flag');
  t.equal(flagged.blocked, false, 'flag lets the text pass');
  const trusted = evaluate([trust], { text: 'word' });
  t.equal(trusted.action, 'trust_pii');
  t.equal(trusted.blocked, false);
});

t.test('trust_pii next to block: the block stands and the trusted spans are returned', async (t) => {
  const text = 'Mail ivan@corp.example about the merger, cc anna@corp.example';
  const trust = regexList('trust-corp', ['[\\w.]+@corp\\.example'], { action: 'trust_pii', priority: 1000 });
  const block = blocklist('no-merger', ['merger'], { action: 'block', priority: 1 });
  const r = evaluate([trust, block], { text });
  t.equal(r.blocked, true);
  t.equal(r.action, 'block');
  t.same(r.trusted_spans, [
    { policy_id: 'trust-corp', start: 5, end: 22, text: 'ivan@corp.example' },
    { policy_id: 'trust-corp', start: 44, end: 61, text: 'anna@corp.example' },
  ]);
  t.same(r.matches.map((m) => m.text), ['merger'], 'trusted spans are not listed as matches');
  t.same(r.fired_policies.map((f) => [f.policy_id, f.action]), [['trust-corp', 'trust_pii'], ['no-merger', 'block']]);
});

t.test('scope: input → request, output → response, both → either', async (t) => {
  const policies = [
    blocklist('req', ['alpha'], { scope: 'request' }),
    blocklist('resp', ['alpha'], { scope: 'response' }),
    blocklist('both', ['alpha'], { scope: 'both' }),
  ];
  t.same(evaluate(policies, { text: 'alpha', scope: 'request' }).fired_policies.map((f) => f.policy_id), ['req', 'both']);
  t.same(evaluate(policies, { text: 'alpha', scope: 'response' }).fired_policies.map((f) => f.policy_id), ['resp', 'both']);
});

t.test('only ACTIVE policies apply', async (t) => {
  const r = evaluate([blocklist('draft', ['alpha'], { status: 'DRAFT' }), blocklist('active', ['alpha'], { action: 'flag', status: 'ACTIVE' })], { text: 'alpha' });
  t.same(r.fired_policies.map((f) => f.policy_id), ['active']);
  t.equal(r.blocked, false);
});

t.test('listing limits: per rule and in all; the rule still fires', async (t) => {
  const r = evaluate([blocklist('p', ['a'])], { text: 'a'.repeat(150) });
  t.equal(r.matches.length, 100);
  t.equal(r.matches_truncated, true);
  t.equal(r.blocked, true);
  const rules = Array.from({ length: 12 }, (_, i) => `k${String.fromCharCode(97 + i)}`);
  const text = rules.map((k) => `${k} `.repeat(100)).join('');
  const many = evaluate([blocklist('p', rules)], { text });
  t.equal(many.matches.length, 1000);
  t.equal(many.matches_truncated, true);
  t.equal(evaluate([blocklist('p', ['a'])], { text: 'a'.repeat(100) }).matches_truncated, false);
});

t.test('lone surrogates do not shift offsets', async (t) => {
  const text = 'x\ud800 secret';
  const r = evaluate([blocklist('p', ['secret'])], { text });
  t.same(r.matches.map((m) => [m.start, m.end]), [[3, 9]]);
  t.equal(text.slice(3, 9), 'secret');
});
