// The prefix automaton of the blocklist rules: it must hold at least every beginning of a match RE2
// can still complete (over-approximation is safe, under-approximation leaks), and hold nothing of
// prose that no rule can begin.
import t from 'tap';
import fc from 'fast-check';
import RE2 from 're2';
import { randomUUID } from 'node:crypto';
import { ContentPolicy, type PolicyRule } from '@palisade/core';
import { compileRulePrefixes, re2ToJavaScript, REGEX_RULE_CHARS } from './rule-prefixes.js';
import { compileRulePrefixesOffThread, createRulePrefixCache } from './rule-prefixes-compiler.js';

const now = new Date().toISOString();
const policyOf = (rules: PolicyRule[], case_sensitive = false, type: 'blocklist' | 'allowlist' = 'blocklist') =>
  ContentPolicy.parse({ id: randomUUID(), tenant_id: 'default', name: 'p', type, scope: 'response', rules, action: 'block', status: 'ACTIVE', created_at: now, updated_at: now, case_sensitive });
const regex = (pattern: string): PolicyRule => ({ kind: 'regex', pattern });
const keyword = (pattern: string): PolicyRule => ({ kind: 'keyword', pattern });

const CAP = REGEX_RULE_CHARS;

t.test('prose holds nothing; the beginning of a match is held from its first character', async (t) => {
  const rules = compileRulePrefixes([policyOf([regex('(?i)\\bcodename[-_ ]?7\\d{2}\\b'), keyword('Project Nightingale')])]);
  t.equal(rules.covered, 2);
  t.equal(rules.fixed, 0, 'both rules are modelled: no fixed hold-back');
  t.equal(rules.inProgress('The plan is ready, we ship on Monday.', CAP), 0);
  t.equal(rules.inProgress('The plan is ready', CAP), 0, 'a word that no rule begins with');
  t.equal(rules.inProgress('we call it code', CAP), 4, '"code" may begin "codename"');
  t.equal(rules.inProgress('we call it CodeName-7', CAP), 10, 'case-insensitive policy');
  t.equal(rules.inProgress('we call it codename 71', CAP), 11);
  t.equal(rules.inProgress('the project', CAP), 7, 'a keyword is held from its first word on');
  t.equal(rules.inProgress('the project nightin', CAP), 15);
  t.equal(rules.inProgress('codename-7123', CAP), 0, 'a fourth digit: no match of this rule can continue');
});

t.test('case-sensitive policies and leading flag groups', async (t) => {
  const sensitive = compileRulePrefixes([policyOf([keyword('Secret')], true)]);
  t.equal(sensitive.inProgress('a Sec', CAP), 3);
  t.equal(sensitive.inProgress('a sec', CAP), 0, 'case-sensitive: "sec" cannot begin "Secret"');
  const inline = compileRulePrefixes([policyOf([regex('(?i)secret')], true)]);
  t.equal(inline.inProgress('a sEc', CAP), 3, 'the rule\'s own (?i) applies in a case-sensitive policy');
});

t.test('astral characters are read as one code point', async (t) => {
  const rules = compileRulePrefixes([policyOf([regex('🙂{2}x')])]);
  t.equal(rules.inProgress('hello 🙂', CAP), 2);
  t.equal(rules.inProgress('hello 🙂🙂', CAP), 4);
});

t.test('a match in progress is held up to the cap, not beyond', async (t) => {
  const rules = compileRulePrefixes([policyOf([regex('a+b')])]);
  t.equal(rules.inProgress('x' + 'a'.repeat(1000), CAP), CAP);
  t.equal(rules.inProgress('x' + 'a'.repeat(10), CAP), 10);
});

t.test('RE2 syntax: what is translated and what keeps the fixed length', async (t) => {
  t.same(re2ToJavaScript('(?i)(?s)abc'), { source: 'abc', flags: 'sui' });
  t.same(re2ToJavaScript('(?P<year>\\d{4})'), { source: '(?:[0-9]{4})', flags: 'su' });
  t.same(re2ToJavaScript('a\\Sb[^\\s]'), { source: 'a[\\u{0}-\\u{8}\\u{b}\\u{e}-\\u{1f}\\u{21}-\\u{10ffff}]b[^\\t\\n\\f\\r ]', flags: 'su' }, 'RE2\'s ASCII \\s and \\S, exactly');
  t.same(re2ToJavaScript('\\pL\\x{1F642}'), { source: '\\p{L}\\u{1F642}', flags: 'su' });
  t.same(re2ToJavaScript('a\\-b\\@c'), { source: 'a\\u{2d}b\\u{40}c', flags: 'su' });
  t.same(re2ToJavaScript('\\Qa.b\\E'), { source: '\\u{61}\\u{2e}\\u{62}', flags: 'su' });
  t.same(re2ToJavaScript('\\Aabc\\z'), { source: 'abc', flags: 'su' });
  t.same(re2ToJavaScript('[]a]'), { source: '[\\]a]', flags: 'su' });
  t.equal(re2ToJavaScript('a(?i)b'), null, 'inline flags mid-pattern');
  t.equal(re2ToJavaScript('[[:alpha:]]+'), null, 'POSIX classes');
  const mixed = compileRulePrefixes([policyOf([regex('[[:digit:]]{3}'), keyword('nightingale')])]);
  t.equal(mixed.covered, 1);
  t.equal(mixed.fixed, REGEX_RULE_CHARS, 'an untranslated regex keeps the fixed bound');
  t.equal(mixed.inProgress('the night', CAP), 5, 'the others are still modelled');
});

t.test('allowlist and language policies are not blocklist rules', async (t) => {
  const rules = compileRulePrefixes([policyOf([keyword('hello')], false, 'allowlist')]);
  t.equal(rules.covered, 0);
  t.equal(rules.fixed, 0);
});

t.test('an automaton over the size limit: every rule keeps its fixed length', async (t) => {
  const many = Array.from({ length: 1000 }, (_, i) => keyword(`keyword number ${i} of a long list ${i * 7919}`));
  const rules = compileRulePrefixes([policyOf(many)]);
  t.equal(rules.covered, 0);
  t.equal(rules.fixed, Math.max(...many.map((r) => r.pattern.length)) + 16);
});

// The safety property, against RE2 itself: every prefix of every match RE2 finds is held whole.
const PATTERNS = [
  '(?i)\\bcodename[-_ ]?\\d{3}\\b',
  'sk-[A-Za-z0-9]{8,}',
  '\\d{3}-\\d{2}-\\d{4}',
  '(?i)pass(word)?\\s*[:=]\\s*\\S+',
  'secret.{0,5}key',
  '(?i)\\bпароль\\b',
  '[a-z]+@[a-z]+\\.(com|org)',
  '(ab|ba)+c?',
  '[^\\s@]{2,}@x',
  '\\w+\\W\\d',
  '(?i)k\\S{2}s',
];
const ALPHABET = ['a', 'b', 'c', 'k', 's', '-', ' ', '\n', '\r', '\u2028', '1', '2', '7', '@', '.', 'x', 'y', 'e', 'r', 't', ':', '=', 'П', 'п', 'а', 'р', 'о', 'л', 'ь', 'O', 'D', 'E', 'N', 'M', '\u00a0', '\u3000', '\u212a', '\u017f'];
const SEEDS = ['codename-123', 'CODENAME 777', 'sk-abcdEFGH1234', '123-45-6789', 'Password: x', 'pass=hunter2', 'secret\r\nkey', 'secret\u2028key', 'ПАРОЛЬ', 'ab@cd.com', 'ababbac'];

t.test('every prefix of every RE2 match is held (random texts around real matches)', async (t) => {
  const rules = compileRulePrefixes([policyOf(PATTERNS.map(regex), true)]);
  t.equal(rules.covered, PATTERNS.length, 'every pattern is modelled');
  const re2 = PATTERNS.map((p) => new RE2(p, 'gu'));
  const piece = fc.oneof(fc.constantFrom(...ALPHABET), fc.constantFrom(...SEEDS));
  let checked = 0;
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
      const text = pieces.join('');
      for (const re of re2) {
        re.lastIndex = 0;
        for (let m = re.exec(text); m; m = re.exec(text)) {
          if (m[0].length === 0) {
            re.lastIndex += 1;
            continue;
          }
          for (let end = m.index + 1; end <= m.index + m[0].length; end += 1) {
            const held = rules.inProgress(text.slice(0, end), CAP);
            if (held < end - m.index) throw new Error(`${re.source}: ${JSON.stringify(text.slice(m.index, end))} at the end of ${JSON.stringify(text.slice(0, end))} held ${held}`);
            checked += 1;
          }
        }
      }
    }),
    { numRuns: 1500 },
  );
  t.ok(checked > 1000, `${checked} prefixes of RE2 matches checked`);
});

t.test('built on a worker thread: the same tables; the cache serves fixed lengths until they arrive', async (t) => {
  const policies = [policyOf([regex('(?i)\\bcodename[-_ ]?7\\d{2}\\b'), keyword('Project Nightingale'), regex('[[:digit:]]+')])];
  const here = compileRulePrefixes(policies);
  const there = await compileRulePrefixesOffThread(policies);
  t.equal(there.covered, 2);
  t.equal(there.fixed, REGEX_RULE_CHARS);
  for (const text of ['we call it code', 'the project nightin', 'plain prose. ', 'CODENAME 71', '🙂 codename-'])
    t.equal(there.inProgress(text, CAP), here.inProgress(text, CAP), JSON.stringify(text));

  let release: (() => void) | undefined;
  const compiles: number[] = [];
  const cache = createRulePrefixCache(async (p) => {
    compiles.push(p.length);
    await new Promise<void>((resolve) => (release = resolve));
    return compileRulePrefixes(p);
  }, 2);
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const clean = [policyOf([keyword('Project Nightingale')])];
  const first = cache(clean);
  t.equal(first.rules.covered, 0, 'before the automaton: no rule modelled');
  t.equal(first.rules.fixed, 'Project Nightingale'.length + 16, 'every rule at its fixed length');
  t.equal(cache(clean).rules, first.rules, 'one build per policy set');
  t.equal(cache([policyOf([keyword('Project Nightingale')])]).rules, first.rules, 'new policy objects with the same rules (a bundle change elsewhere): no rebuild');
  await turn();
  release!();
  await first.ready;
  t.equal(first.rules.covered, 1, 'the same view switches to the automaton');
  t.equal(first.rules.fixed, 0);
  t.equal(first.rules.inProgress('the project', CAP), 7);
  const edited = cache([policyOf([keyword('Project Nightingale'), keyword('Operation Overlord')])]);
  t.not(edited.rules, first.rules, 'changed rules: built again');
  const third = cache([policyOf([keyword('Other')])]);
  await turn();
  t.same(compiles, [1, 1], 'one build at a time: the third waits for the second');
  release!();
  await edited.ready;
  await turn();
  t.same(compiles, [1, 1, 1]);
  release!();
  await third.ready;
  t.equal(third.rules.covered, 1);
  t.not(cache(clean).rules, first.rules, 'at most two sets kept: the least recently used went');
});

t.test('a build that runs past its time keeps the fixed lengths', async (t) => {
  const many = Array.from({ length: 400 }, (_, i) => regex(`\\b(secret|token)[-_ ]?${i}[a-z]{2,8}\\d{2}\\b`));
  const rules = await compileRulePrefixesOffThread([policyOf(many)], { timeoutMs: 1 });
  t.equal(rules.covered, 0);
  t.equal(rules.fixed, REGEX_RULE_CHARS);
});
