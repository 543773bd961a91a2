import t from 'tap';
import { RoutePatternError } from './pattern-error.js';
import { UrlInput, compileUrlPattern, pathOf, regexLiteralPrefix } from './url-pattern.js';

const test = (pattern: string, uri: string) => compileUrlPattern(pattern).test(new UrlInput(uri));

t.test('pathOf drops query and fragment, and the authority of an absolute URI', async (t) => {
  const cases: Array<[string, string]> = [
    ['/v1/chat', '/v1/chat'],
    ['/v1/chat?x=1&y=/a', '/v1/chat'],
    ['/v1/chat#frag', '/v1/chat'],
    ['/v1/chat?x#y', '/v1/chat'],
    ['/v1/%2Fchat', '/v1/%2Fchat'],
    ['http://api.example.com:8080/v1/x?y=1', '/v1/x'],
    ['https://api.example.com', '/'],
    ['https://api.example.com?x=1', '/'],
    ['', ''],
  ];
  for (const [uri, path] of cases) t.equal(pathOf(uri), path, uri);
});

t.test('globs', async (t) => {
  const cases: Array<[pattern: string, uri: string, expected: boolean]> = [
    // literal: exact path, query ignored, case-sensitive, trailing slash significant
    ['/v1/chat/completions', '/v1/chat/completions', true],
    ['/v1/chat/completions', '/v1/chat/completions?api-version=1', true],
    ['/v1/chat/completions', '/v1/chat/completions/', false],
    ['/v1/chat/completions', '/V1/chat/completions', false],
    ['/v1/chat/completions', '/v1/chat/completion', false],
    // `*`: any run of characters within one segment
    ['/x/*', '/x/a', true],
    ['/x/*', '/x/a?q=/b/c', true],
    ['/x/*', '/x/a/b', false],
    ['/x/*', '/x', false],
    ['/x/*', '/x/', true],
    ['/v1/*/chat/*', '/v1/deploy-1/chat/completions', true],
    ['/v1/*/chat/*', '/v1/deploy/x/chat/completions', false],
    ['/v1/chat*', '/v1/chat', true],
    ['/v1/chat*', '/v1/chats', true],
    ['/v1/chat*', '/v1/chat/x', false],
    ['/v1/*.json', '/v1/a.json', true],
    ['/v1/*.json', '/v1/a.jsonx', false],
    ['/v1/a*b*c', '/v1/abc', true],
    ['/v1/a*b*c', '/v1/aXbYc', true],
    ['/v1/a*b*c', '/v1/acb', false],
    ['/v1/a*b*c', '/v1/abcb', false],
    ['/v1/a*a', '/v1/a', false],
    ['/v1/a*a', '/v1/aa', true],
    // `**` as a whole segment: any depth, zero segments included
    ['/x/**', '/x', true],
    ['/x/**', '/x/', true],
    ['/x/**', '/x/a', true],
    ['/x/**', '/x/a/b/c?d', true],
    ['/x/**', '/xy', false],
    ['/x/**', '/xa/b', false],
    ['/x/**', '/', false],
    ['/a/**/b', '/a/b', true],
    ['/a/**/b', '/a/x/b', true],
    ['/a/**/b', '/a/x/y/b', true],
    ['/a/**/b', '/a/x/y/c', false],
    ['/a/**/b', '/a/b/c', false],
    ['/a/**/b/**', '/a/x/b', true],
    ['/a/**/b/*', '/a/b/c/d', false],
    ['/a/**/b/*', '/a/x/b/c', true],
    ['**/chat', '/chat', true],
    ['**/chat', '/a/b/chat', true],
    ['**/chat', '/a/chatx', false],
    ['**', '/anything/at/all', true],
    ['/**', '/', true],
    ['/**', '/a/b', true],
    ['/v1/**/completions', '/v1/chat/completions?x=1', true],
    // `**` inside a segment is the same as `*`
    ['/v1/chat**', '/v1/chats', true],
    ['/v1/chat**', '/v1/chat/x', false],
    // everything else is literal
    ['/v1/file.json', '/v1/fileXjson', false],
    ['/v1/[ab]', '/v1/[ab]', true],
    ['/v1/[ab]', '/v1/a', false],
    ['/a?b', '/a?b', false], // the query never takes part in a glob
    // absolute-form URIs are reduced to their path
    ['/v1/*', 'http://api.example.com:8080/v1/x?y=1', true],
  ];
  for (const [pattern, uri, expected] of cases) t.equal(test(pattern, uri), expected, `${pattern} ~ ${uri}`);
});

t.test('regular expressions (RE2) on the whole URI', async (t) => {
  const cases: Array<[pattern: string, uri: string, expected: boolean]> = [
    ['^/v1/.*', '/v1/chat', true],
    ['^/v1/.*', '/v2/chat', false],
    ['^/v1/.*', '/x/v1/chat', false],
    // the start is anchored by `^`, the end only by `$`
    ['^/v1/chat', '/v1/chat/completions?x=1', true],
    ['^/v1/chat$', '/v1/chat', true],
    ['^/v1/chat$', '/v1/chat/x', false],
    // the query is part of the subject
    ['^/v1/chat$', '/v1/chat?x=1', false],
    ['^/openai/deployments/[^/]+/chat/completions\\?api-version=2024', '/openai/deployments/gpt4/chat/completions?api-version=2024-02-01', true],
    ['^/openai/deployments/[^/]+/chat/completions\\?api-version=2024', '/openai/deployments/gpt4/chat/completions?api-version=2023', false],
    ['^/(a|b)/x', '/a/x', true],
    ['^/(a|b)/x', '/c/x', false],
    ['^/v1\\.0/', '/v1.0/x', true],
    ['^/v1\\.0/', '/v1x0/x', false],
    ['^/ab+c', '/abbbc', true],
    ['^/v1?/x', '/v/x', true],
    // case-insensitive only on request
    ['^/V1/', '/v1/x', false],
    ['^(?i)/V1/', '/v1/x', true],
    // a top-level alternation: the right-hand side is not anchored
    ['^/a|/b', '/zz/b', true],
    ['^/a|/b', '/zz/c', false],
    ['^/ü/.*', '/ü/x', true],
  ];
  for (const [pattern, uri, expected] of cases) t.equal(test(pattern, uri), expected, `${pattern} ~ ${uri}`);
});

t.test('a regex RE2 rejects is a RoutePatternError with a clear message', async (t) => {
  for (const [pattern, reason] of [
    ['^(a)\\1', /invalid escape sequence/],
    ['^/(?<=a)b', /invalid perl operator/],
    ['^/(a', /missing \)/],
    ['^/[a', /missing \]/],
  ] as const) {
    t.throws(() => compileUrlPattern(pattern), RoutePatternError, pattern);
    try {
      compileUrlPattern(pattern);
    } catch (error) {
      t.match((error as Error).message, /^invalid regular expression ".*": .*\(RE2 syntax: no backreferences or lookaround\)$/, pattern);
      t.match((error as Error).message, reason, pattern);
    }
  }
  t.throws(() => compileUrlPattern(''), RoutePatternError);
});

t.test('literal length: non-wildcard characters of a glob, the literal prefix of a regex', async (t) => {
  const cases: Array<[string, number]> = [
    ['/v1/chat/completions', 20],
    ['/v1/chat/*', 9],
    ['/v1/**', 4],
    ['/v1/**/x', 6],
    ['**', 0],
    ['^/v1/chat/.*', 9],
    ['^/v1/.*', 4],
    ['^(?i)/v1', 0],
  ];
  for (const [pattern, n] of cases) t.equal(compileUrlPattern(pattern).literalLength, n, pattern);
  t.equal(compileUrlPattern('/v1/*').usesQuery, false);
  t.equal(compileUrlPattern('^/v1/').usesQuery, true);
});

t.test('regexLiteralPrefix is conservative', async (t) => {
  const cases: Array<[string, string]> = [
    ['^/v1/chat/.*', '/v1/chat/'],
    ['^/v1\\.0/', '/v1.0/'],
    ['^/v1?', '/v'],
    ['^/ab+c', '/ab'],
    ['^/a{2}', '/'],
    ['^/x\\d', '/x'],
    ['^/[ab]', '/'],
    ['^/a|/b', ''],
    ['^/a(b|c)', '/a'],
    ['^/a[|]', '/a'],
    ['^/\\Qa|b\\E', ''],
    ['^(?i)/x', ''],
    ['^/é*', '/'],
    ['^/😀x', '/😀x'],
    ['^/😀*', '/'],
    ['^/x$', '/x'],
    ['/not/anchored', ''],
  ];
  for (const [pattern, prefix] of cases) t.equal(regexLiteralPrefix(pattern), prefix, pattern);
  // the prefix check must never reject a real match
  t.equal(test('^/😀*x', '/x'), true);
  t.equal(test('^/v1?x', '/vx'), true);
});
