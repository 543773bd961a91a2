import t from 'tap';
import { RulePatternError, compileRuleRegex, escapeKeyword, findOccurrences, ruleSource, usesSingleByteEscape } from './rule-regex.js';

t.test('a keyword is an exact substring: every RE2 metacharacter is literal', async (t) => {
  const keyword = 'a.b*c+(d)[e]{2}|f?^$\\g';
  const regex = compileRuleRegex({ kind: 'keyword', pattern: keyword }, true);
  t.ok(regex.test(`xx ${keyword} yy`));
  regex.lastIndex = 0;
  t.notOk(regex.test('aXb*c+(d)[e]{2}|f?^$\\g'), 'the dot is not a wildcard');
  t.equal(escapeKeyword('1+1'), '1\\+1');
});

t.test('case_sensitive false prefixes (?i) for keywords and regexes alike', async (t) => {
  t.equal(ruleSource({ kind: 'keyword', pattern: 'Secret' }, false), '(?i)Secret');
  t.equal(ruleSource({ kind: 'regex', pattern: 'Se.ret' }, false), '(?i)Se.ret');
  t.equal(ruleSource({ kind: 'regex', pattern: 'Se.ret' }, true), 'Se.ret');
  const insensitive = compileRuleRegex({ kind: 'keyword', pattern: 'Секрет' }, false);
  t.ok(insensitive.test('это СЕКРЕТ'), 'Unicode case folding');
  const sensitive = compileRuleRegex({ kind: 'keyword', pattern: 'Секрет' }, true);
  t.notOk(sensitive.test('это СЕКРЕТ'));
});

t.test('\\C is refused; escaped backslashes and \\Q…\\E are not mistaken for it', async (t) => {
  t.ok(usesSingleByteEscape('a\\Cb'));
  t.notOk(usesSingleByteEscape('a\\\\Cb'), 'an escaped backslash followed by C');
  t.notOk(usesSingleByteEscape('\\Qa\\Cb\\E'), 'literal inside \\Q…\\E');
  t.ok(usesSingleByteEscape('\\Qx\\E\\C'));
  t.throws(() => compileRuleRegex({ kind: 'regex', pattern: 'x\\C' }, true), RulePatternError);
  t.doesNotThrow(() => compileRuleRegex({ kind: 'keyword', pattern: 'x\\C' }, true), 'a keyword is literal');
});

t.test('compile errors carry RE2’s reason; size and emptiness are checked first', async (t) => {
  t.throws(() => compileRuleRegex({ kind: 'regex', pattern: '(?<=a)b' }, true), { name: 'RulePatternError', message: /RE2 cannot compile this regex: .*\(\?<=/ });
  t.throws(() => compileRuleRegex({ kind: 'regex', pattern: '(a)\\1' }, true), { message: /invalid escape/ });
  t.throws(() => compileRuleRegex({ kind: 'regex', pattern: 'a{1001}' }, true), { message: /repetition/ });
  t.throws(() => compileRuleRegex({ kind: 'keyword', pattern: 'x'.repeat(4097) }, true), { message: /longer than 4096/ });
  t.doesNotThrow(() => compileRuleRegex({ kind: 'keyword', pattern: 'x'.repeat(4096) }, true));
  t.throws(() => compileRuleRegex({ kind: 'keyword', pattern: '' }, true), { message: /empty/ });
  t.doesNotThrow(() => compileRuleRegex({ kind: 'regex', pattern: '(?P<word>\\pL+)\\s+\\x{41}[[:digit:]]' }, true), 'RE2 syntax');
});

t.test('occurrences: UTF-16 offsets into the original text, non-overlapping', async (t) => {
  const text = '😀 Это СЕКРЕТ и секрет';
  const regex = compileRuleRegex({ kind: 'keyword', pattern: 'секрет' }, false);
  const { occurrences, more } = findOccurrences(regex, text, 10);
  t.same(occurrences, [{ start: 7, end: 13 }, { start: 16, end: 22 }]);
  t.same(occurrences.map((o) => text.slice(o.start, o.end)), ['СЕКРЕТ', 'секрет']);
  t.notOk(more);
  t.equal(regex.lastIndex, 0, 'left ready for the next evaluation');
  const aa = findOccurrences(compileRuleRegex({ kind: 'keyword', pattern: 'aa' }, true), 'aaaaa', 10);
  t.same(aa.occurrences, [{ start: 0, end: 2 }, { start: 2, end: 4 }]);
});

t.test('empty matches advance by code point and end', async (t) => {
  const { occurrences } = findOccurrences(compileRuleRegex({ kind: 'regex', pattern: 'x*' }, true), '😀x', 10);
  t.same(occurrences, [{ start: 0, end: 0 }, { start: 2, end: 3 }, { start: 3, end: 3 }]);
});

t.test('the limit cuts the listing and says so', async (t) => {
  const regex = compileRuleRegex({ kind: 'keyword', pattern: 'a' }, true);
  const cut = findOccurrences(regex, 'aaaa', 3);
  t.equal(cut.occurrences.length, 3);
  t.ok(cut.more);
  const exact = findOccurrences(regex, 'aaa', 3);
  t.equal(exact.occurrences.length, 3);
  t.notOk(exact.more);
});
