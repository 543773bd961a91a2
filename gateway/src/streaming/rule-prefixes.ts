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
// limit) keeps its fixed length. refa builds and minimises the automata (prefix-tables.ts); the
// RE2-to-JavaScript source translation is ours (re2-source.ts).
import { JS } from 'refa';
import type { ContentPolicy, PolicyRule } from '@palisade/core';
import { groupTable, longestAcceptedEnd, MAX_STATES, type PrefixTable } from './prefix-tables.js';
import { keywordSource, re2ToJavaScript } from './re2-source.js';

export { re2ToJavaScript } from './re2-source.js';
export type { PrefixTable } from './prefix-tables.js';

/** A regular expression rule has no length of its own: this bound covers it (set the profile's value to change it). */
export const REGEX_RULE_CHARS = 256;
/** A keyword matches across varied whitespace and case: some slack over its own length. */
export const KEYWORD_SLACK = 16;

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

/** A rule as the compiler takes it (plain data: it crosses to a worker thread). */
export interface PrefixRule {
  kind: PolicyRule['kind'];
  pattern: string;
  caseSensitive: boolean;
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
