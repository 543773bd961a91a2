// GITHUB_TOKEN: the five prefixed token formats (ghp_ personal, gho_ OAuth, ghu_ user-to-server,
// ghs_ server-to-server, ghr_ refresh) followed by 36 or more base62 characters (GitHub reserves up to
// 255 in all), and fine-grained personal tokens "github_pat_" + base62 and "_". The token must be a whole
// run of [A-Za-z0-9_-]. Forty hex digits with no prefix are commit SHAs, never tokens here.
// Mask (our choice, like API keys): the prefix kept, the rest replaced by "*".
import type { PiiCandidate, PiiRule } from '../rule.js';
import { isAsciiAlnum, isTokenChar } from '../text/chars.js';
import { looksRandom } from '../text/randomness.js';
import { maskAfter } from '../text/mask-text.js';

export const GITHUB_PREFIXES = ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'] as const;
const FINE_GRAINED = 'github_pat_';
const MAX_TOKEN = 255;

function tokenBody(run: string): { prefix: string; body: string } | undefined {
  if (run.startsWith(FINE_GRAINED)) return { prefix: FINE_GRAINED, body: run.slice(FINE_GRAINED.length) };
  const prefix = GITHUB_PREFIXES.find((p) => run.startsWith(p));
  return prefix ? { prefix, body: run.slice(prefix.length) } : undefined;
}

/** Whether a whole run of token characters is a GitHub token. */
export function isGithubToken(run: string): boolean {
  const parts = tokenBody(run);
  if (!parts || run.length > MAX_TOKEN) return false;
  const { prefix, body } = parts;
  const fine = prefix === FINE_GRAINED;
  if (body.length < (fine ? 40 : 36)) return false;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (!isAsciiAlnum(c) && !(fine && c === 95)) return false;
  }
  return looksRandom(body);
}

/** A run of token characters starting with a GitHub prefix (no backtracking); the boundary before it
 * is checked in the scan, not by a lookbehind that would run at every position. */
const GITHUB_RUN = '(?:gh[pousr]_|github_pat_)[A-Za-z0-9_-]*';

export const githubTokenRule: PiiRule = {
  type: 'GITHUB_TOKEN',
  scan({ text }) {
    const out: PiiCandidate[] = [];
    const runs = new RegExp(GITHUB_RUN, 'g');
    for (let m = runs.exec(text); m !== null; m = runs.exec(text)) {
      if (m.index > 0 && isTokenChar(text.charCodeAt(m.index - 1))) continue;
      if (isGithubToken(m[0])) out.push({ start: m.index, end: m.index + m[0].length, score: 0.99 });
    }
    return out;
  },
  mask(value) {
    const parts = tokenBody(value);
    return maskAfter(value, parts ? parts.prefix.length : 0);
  },
};
