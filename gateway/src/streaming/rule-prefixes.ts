// Where a blocklist rule's match may have begun at the end of a streamed answer and not yet ended.
// Holding a fixed bound for every regex (256 characters) delays the first token of every answer by
// that much text; instead, the rules are compiled once into one automaton of the reversed prefixes
// of their matches, and the window's end is read backwards through it: the longest end of the window
// that is the beginning of some match is all that must stay unreleased. In prose that is usually
// nothing, or the word being written.
//
// The automaton is an over-approximation of RE2's language (assertions count as always true, `.`
// matches every character), so it holds back at least what RE2 could still match. A rule it cannot
// model (syntax that JavaScript's parser does not share with RE2, or an automaton over the size
// limit) keeps its fixed length. refa builds and minimises the automata; the RE2-to-JavaScript source
// translation is ours because no library maps RE2 syntax onto a JavaScript parser.
import { DFA, JS, NFA, type CharRange } from 'refa';
import type { ContentPolicy, PolicyRule } from '@palisade/core';

/** A regular expression rule has no length of its own: this bound covers it (set the profile's value to change it). */
export const REGEX_RULE_CHARS = 256;
/** A keyword matches across varied whitespace and case: some slack over its own length. */
export const KEYWORD_SLACK = 16;

/** States of the combined automaton past which the rules keep their fixed lengths (building it stays in milliseconds). */
const MAX_STATES = 20_000;
/** A counted repetition above this is read as unbounded: a superset, so still safe, and a smaller automaton. */
const REPEAT_AS_UNBOUNDED = 32;

export interface RulePrefixes {
  /**
   * Characters at the end of `text` (at most `cap`) that may be the beginning of a rule's match:
   * from the earliest position whose rest of the window is a prefix of some match.
   */
  inProgress(text: string, cap: number): number;
  /** The fixed hold-back of the rules the automaton does not cover (0: it covers all). */
  readonly fixed: number;
  /** The rules the automaton covers. */
  readonly covered: number;
}

/** The fixed hold-back of a rule, used when the automaton does not cover it. */
export function fixedRuleChars(rule: Pick<PolicyRule, 'kind' | 'pattern'>): number {
  return rule.kind === 'keyword' ? rule.pattern.length + KEYWORD_SLACK : REGEX_RULE_CHARS;
}

const JS_SYNTAX = new Set('^$\\.*+?()[]{}|/'.split(''));

/** A keyword as a JavaScript `u` source: an exact literal. */
function keywordSource(keyword: string): string {
  let out = '';
  for (const c of keyword) out += JS_SYNTAX.has(c) ? `\\${c}` : c;
  return out;
}

/**
 * RE2's Perl classes are ASCII (`\s` is `[\t\n\f\r ]`), JavaScript's `\s` is Unicode: `\S` would
 * then miss U+2028 and other spaces RE2 counts as non-space. Each becomes RE2's exact ranges.
 */
const PERL_CLASSES: Readonly<Record<string, string>> = {
  d: '0-9',
  D: '\\u{0}-\\u{2f}\\u{3a}-\\u{10ffff}',
  s: '\\t\\n\\f\\r ',
  S: '\\u{0}-\\u{8}\\u{b}\\u{e}-\\u{1f}\\u{21}-\\u{10ffff}',
  w: '0-9A-Z_a-z',
  W: '\\u{0}-\\u{2f}\\u{3a}-\\u{40}\\u{5b}-\\u{5e}\\u{60}\\u{7b}-\\u{10ffff}',
};

/** RE2's leading flag groups, `(?i)`, `(?s)`, `(?ims)` …: JavaScript takes them as flags. */
const LEADING_FLAGS = /^\(\?([imsU]+)\)/;

/**
 * An RE2 source as a JavaScript `u` source and flags, or null where the two syntaxes differ in a way
 * not translated here (the rule then keeps its fixed length). Escapes are read pairwise, so the scan
 * is linear; `\Q…\E` becomes an escaped literal.
 */
export function re2ToJavaScript(source: string): { source: string; flags: string } | null {
  let rest = source;
  let caseless = false;
  for (let m = LEADING_FLAGS.exec(rest); m; m = LEADING_FLAGS.exec(rest)) {
    if (m[1]!.includes('i')) caseless = true;
    rest = rest.slice(m[0].length);
  }
  let out = '';
  let inClass = false;
  for (let i = 0; i < rest.length; i += 1) {
    const c = rest[i]!;
    if (c === '\\') {
      const next = rest[i + 1];
      if (next === undefined) return null;
      i += 1;
      if (next === 'Q') {
        const end = rest.indexOf('\\E', i + 1);
        const literal = end < 0 ? rest.slice(i + 1) : rest.slice(i + 1, end);
        for (const ch of literal) out += `\\u{${ch.codePointAt(0)!.toString(16)}}`;
        i = end < 0 ? rest.length : end + 1;
        continue;
      }
      if (next === 'z' || next === 'A') {
        // Anchors: assertions are read as always true anyway.
        if (inClass) return null;
        continue;
      }
      const perl = PERL_CLASSES[next];
      if (perl !== undefined) {
        out += inClass ? perl : `[${perl}]`;
        continue;
      }
      if ((next === 'p' || next === 'P') && rest[i + 1] !== '{') {
        const name = rest[i + 1];
        if (name === undefined || !/[A-Za-z]/.test(name)) return null;
        out += `\\${next}{${name}}`;
        i += 1;
        continue;
      }
      if (next === 'x' && rest[i + 1] === '{') {
        const end = rest.indexOf('}', i + 2);
        if (end < 0) return null;
        out += `\\u{${rest.slice(i + 2, end)}}`;
        i = end;
        continue;
      }
      // Under `u`, JavaScript refuses identity escapes of most punctuation, which RE2 allows.
      if (!/[A-Za-z0-9]/.test(next)) {
        out += `\\u{${next.codePointAt(0)!.toString(16)}}`;
        continue;
      }
      out += `\\${next}`;
      continue;
    }
    if (inClass) {
      if (c === '[' && rest[i + 1] === ':') return null; // POSIX classes: RE2 only
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      if (rest[i + 1] === '^') {
        out += '^';
        i += 1;
      }
      // A `]` first in a class is a literal in RE2.
      if (rest[i + 1] === ']') {
        out += '\\]';
        i += 1;
      }
      continue;
    }
    if (c === '(' && rest[i + 1] === '?') {
      // A named group becomes a plain one: names would clash when the rules are joined.
      const nameAt = rest[i + 2] === 'P' && rest[i + 3] === '<' ? i + 4 : rest[i + 2] === '<' ? i + 3 : -1;
      if (nameAt >= 0) {
        const end = rest.indexOf('>', nameAt);
        if (end < 0) return null;
        out += '(?:';
        i = end;
        continue;
      }
      if (rest[i + 2] !== ':') return null; // inline flags mid-pattern
    }
    out += c;
  }
  if (inClass) return null;
  // `s`: `.` matches every character (RE2's `.` takes \r and line separators that JavaScript's does not).
  return { source: out, flags: `su${caseless ? 'i' : ''}` };
}

/** A rule as the compiler takes it (plain data: it crosses to a worker thread). */
export interface PrefixRule {
  kind: PolicyRule['kind'];
  pattern: string;
  caseSensitive: boolean;
}

/** The minimised automaton as flat tables: an ASCII row per state, sorted ranges for the rest. */
export interface PrefixTable {
  initial: number;
  final: Uint8Array;
  ascii: Int32Array;
  /** The ranges of state s are [rangeStart[s], rangeStart[s + 1]) of min, max and to. */
  rangeStart: Int32Array;
  min: Uint32Array;
  max: Uint32Array;
  to: Int32Array;
}

/** What the compiler hands back: tables, and the fixed hold-back of the rules they do not cover. */
export interface CompiledPrefixes {
  tables: PrefixTable[];
  fixed: number;
  covered: number;
}

/** The rules of blocklist policies (other policy types buffer the whole answer). */
export function prefixRulesOf(policies: readonly ContentPolicy[]): PrefixRule[] {
  const rules: PrefixRule[] = [];
  for (const policy of policies) {
    if (policy.type !== 'blocklist') continue;
    for (const rule of policy.rules) rules.push({ kind: rule.kind, pattern: rule.pattern, caseSensitive: policy.case_sensitive });
  }
  return rules;
}

/** A rule's JavaScript source and flags, checked by the parser alone; null when it cannot be modelled. */
function javaScriptRule(rule: PrefixRule): { source: string; flags: string } | null {
  const translated = rule.kind === 'keyword' ? { source: keywordSource(rule.pattern), flags: 'su' } : re2ToJavaScript(rule.pattern);
  if (!translated) return null;
  const flags = rule.caseSensitive || translated.flags.includes('i') ? translated.flags : `${translated.flags}i`;
  try {
    JS.Parser.fromLiteral({ source: translated.source, flags }).parse({ assertions: 'ignore', backreferences: 'throw', maxNodes: MAX_STATES });
    return { source: translated.source, flags };
  } catch {
    return null;
  }
}

/** One alternation of sources sharing flags, as a table; throws when over the size limits. */
function groupTable(sources: readonly string[], flags: string): PrefixTable {
  const source = sources.map((s) => `(?:${s})`).join('|');
  const { expression, maxCharacter } = JS.Parser.fromLiteral({ source, flags }).parse({ assertions: 'ignore', backreferences: 'throw', maxNodes: MAX_STATES });
  const nfa = NFA.fromRegex(expression, { maxCharacter }, { assertions: 'ignore', infinityThreshold: REPEAT_AS_UNBOUNDED }, new NFA.LimitedNodeFactory(MAX_STATES));
  nfa.prefixes();
  nfa.reverse();
  const dfa = DFA.fromFA(nfa, new DFA.LimitedNodeFactory(MAX_STATES));
  dfa.minimize();
  return tableOf(dfa);
}

function tableOf(dfa: DFA): PrefixTable {
  const ids = new Map<DFA.Node, number>();
  for (const node of dfa.nodes()) ids.set(node, ids.size);
  const count = ids.size;
  const final = new Uint8Array(count);
  const ascii = new Int32Array(count * 128).fill(-1);
  const rangeStart = new Int32Array(count + 1);
  const min: number[] = [];
  const max: number[] = [];
  const to: number[] = [];
  for (const [node, id] of ids) {
    if (dfa.finals.has(node)) final[id] = 1;
    const entries: Array<[CharRange, number]> = [];
    for (const [range, target] of node.out.entries()) entries.push([range, ids.get(target)!]);
    entries.sort((a, b) => a[0].min - b[0].min);
    rangeStart[id] = min.length;
    for (const [range, target] of entries) {
      for (let c = range.min; c <= Math.min(range.max, 127); c += 1) ascii[id * 128 + c] = target;
      min.push(range.min);
      max.push(range.max);
      to.push(target);
    }
  }
  rangeStart[count] = min.length;
  return { initial: ids.get(dfa.initial)!, final, ascii, rangeStart, min: Uint32Array.from(min), max: Uint32Array.from(max), to: Int32Array.from(to) };
}

function step(table: PrefixTable, state: number, cp: number): number {
  if (cp < 128) return table.ascii[state * 128 + cp]!;
  let lo = table.rangeStart[state]!;
  let hi = table.rangeStart[state + 1]! - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < table.min[mid]!) hi = mid - 1;
    else if (cp > table.max[mid]!) lo = mid + 1;
    else return table.to[mid]!;
  }
  return -1;
}

/** The longest end of `text` (at most `cap` code units) whose reversal the table accepts. */
function longestAcceptedEnd(table: PrefixTable, text: string, cap: number): number {
  let state = table.initial;
  let longest = 0;
  let i = text.length;
  const stop = Math.max(0, text.length - cap);
  while (i > stop) {
    let cp = text.charCodeAt(i - 1);
    let width = 1;
    if (cp >= 0xdc00 && cp <= 0xdfff && i >= 2) {
      const high = text.charCodeAt(i - 2);
      if (high >= 0xd800 && high <= 0xdbff) {
        cp = (high - 0xd800) * 0x400 + (cp - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    state = step(table, state, cp);
    if (state < 0) break;
    i -= width;
    if (table.final[state]) longest = text.length - i;
  }
  return longest;
}

/**
 * Builds the tables: the rules are grouped by flags into one alternation each (one automaton per
 * group is far cheaper to build than one per rule). Milliseconds for tens of rules, up to about a
 * second for thousands: the proxy runs it on a worker thread (compileRulePrefixesOffThread).
 */
export function buildPrefixTables(rules: readonly PrefixRule[]): CompiledPrefixes {
  let fixed = 0;
  let covered = 0;
  const groups = new Map<string, { sources: string[]; rules: PrefixRule[] }>();
  for (const rule of rules) {
    const js = javaScriptRule(rule);
    if (!js) {
      fixed = Math.max(fixed, fixedRuleChars(rule));
      continue;
    }
    const group = groups.get(js.flags) ?? { sources: [], rules: [] };
    group.sources.push(js.source);
    group.rules.push(rule);
    groups.set(js.flags, group);
  }
  const tables: PrefixTable[] = [];
  for (const [flags, group] of groups) {
    try {
      tables.push(groupTable(group.sources, flags));
      covered += group.rules.length;
    } catch {
      // Over the size limits: this group's rules keep their fixed lengths.
      for (const rule of group.rules) fixed = Math.max(fixed, fixedRuleChars(rule));
    }
  }
  return { tables, fixed, covered };
}

/** The matcher over compiled tables. */
export function rulePrefixesOf(compiled: CompiledPrefixes): RulePrefixes {
  const { tables, fixed, covered } = compiled;
  return {
    inProgress(text, cap) {
      let longest = 0;
      for (const table of tables) longest = Math.max(longest, longestAcceptedEnd(table, text, cap));
      return longest;
    },
    fixed,
    covered,
  };
}

/** Compiles the blocklist rules of these policies here, synchronously (tests, tools, small sets). */
export function compileRulePrefixes(policies: readonly ContentPolicy[]): RulePrefixes {
  return rulePrefixesOf(buildPrefixTables(prefixRulesOf(policies)));
}

/** The longest fixed hold-back of the blocklist rules of these policies (0: none). */
export function longestFixedRuleChars(policies: readonly ContentPolicy[]): number {
  let longest = 0;
  for (const policy of policies) {
    if (policy.type !== 'blocklist') continue;
    for (const rule of policy.rules) longest = Math.max(longest, fixedRuleChars(rule));
  }
  return longest;
}

/** Until the automaton is built: every rule at its fixed length. */
export function fixedRulePrefixes(policies: readonly ContentPolicy[]): RulePrefixes {
  return { inProgress: () => 0, fixed: longestFixedRuleChars(policies), covered: 0 };
}
