// One rule as an RE2 regular expression: keywords become escaped literals, a case-insensitive policy
// prefixes `(?i)`. The same source feeds the multi-pattern set (which rules fire) and the per-rule
// regex (where), and create-time validation compiles exactly this source, so a stored rule cannot
// fail at request time.
import RE2 from 're2';
import type { PolicyRule } from '@palisade/core';
import { CONTENT_POLICY_LIMITS } from './limits.js';

/** A rule's pattern that cannot be used; the message names the reason. */
export class RulePatternError extends Error {
  override readonly name = 'RulePatternError';
}

const RE2_META = /[\\^$.|?*+()[\]{}]/g;

/** A keyword as an RE2 literal (exact substring, code point by code point). */
export function escapeKeyword(keyword: string): string {
  return keyword.replace(RE2_META, '\\$&');
}

/**
 * The RE2 source of a rule. case_sensitive false applies to keywords and regexes alike; a regex of a
 * case-sensitive policy may still embed `(?i)` for itself or a group.
 */
export function ruleSource(rule: PolicyRule, caseSensitive: boolean): string {
  const body = rule.kind === 'keyword' ? escapeKeyword(rule.pattern) : rule.pattern;
  return caseSensitive ? body : `(?i)${body}`;
}

/**
 * `\C` matches one UTF-8 byte and can end a match inside a character, which breaks the UTF-16 offsets
 * of the answer; RE2 accepts it, we do not. Escapes are skipped pairwise and `\Q…\E` is literal.
 */
export function usesSingleByteEscape(source: string): boolean {
  for (let i = 0; i < source.length; i++) {
    if (source[i] !== '\\') continue;
    const next = source[i + 1];
    if (next === 'C') return true;
    if (next === 'Q') {
      const end = source.indexOf('\\E', i + 2);
      if (end < 0) return false;
      i = end + 1;
      continue;
    }
    i++;
  }
  return false;
}

/**
 * Compiles a rule with the flags used everywhere: `u` (RE2 works on code points) and `g` (occurrences
 * are listed with lastIndex). Throws RulePatternError naming what is wrong.
 */
export function compileRuleRegex(rule: PolicyRule, caseSensitive: boolean): RE2 {
  if (rule.pattern.length === 0) throw new RulePatternError('pattern must not be empty');
  if (rule.pattern.length > CONTENT_POLICY_LIMITS.maxPatternLength) {
    throw new RulePatternError(`pattern is longer than ${CONTENT_POLICY_LIMITS.maxPatternLength} characters`);
  }
  if (rule.kind === 'regex' && usesSingleByteEscape(rule.pattern)) {
    throw new RulePatternError('\\C (any byte) is not supported: matches must end on character boundaries');
  }
  try {
    return new RE2(ruleSource(rule, caseSensitive), 'gu');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RulePatternError(`RE2 cannot compile this regex: ${reason}`);
  }
}

/** A found occurrence: UTF-16 offsets into the text, end exclusive. */
export interface Occurrence {
  start: number;
  end: number;
}

/** The index after the code point at `i` (a surrogate pair counts as one). */
function nextCodePoint(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return i + 2;
  }
  return i + 1;
}

/**
 * Non-overlapping occurrences, leftmost first, at most `limit`; `more` says whether the listing was cut.
 * The regex is shared by concurrent evaluations; this is safe because the loop is synchronous and
 * starts by resetting lastIndex. (String.prototype.match is avoided: node-re2 loops on empty matches.)
 */
export function findOccurrences(regex: RE2, text: string, limit: number): { occurrences: Occurrence[]; more: boolean } {
  const occurrences: Occurrence[] = [];
  let more = false;
  regex.lastIndex = 0;
  for (;;) {
    const m = regex.exec(text);
    if (m === null) break;
    if (occurrences.length === limit) {
      more = true;
      break;
    }
    const start = m.index;
    const end = start + m[0].length;
    occurrences.push({ start, end });
    if (end === start) {
      if (end >= text.length) break;
      regex.lastIndex = nextCodePoint(text, end);
    }
  }
  regex.lastIndex = 0;
  return { occurrences, more };
}
