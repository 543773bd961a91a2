// The prefix automaton of the blocklist rules as flat tables, and reading a text's end backwards
// through them (rule-prefixes.ts says why). refa builds and minimises the automata.
import { DFA, JS, NFA, type CharRange } from 'refa';

/** States of the combined automaton past which the rules keep their fixed lengths (building it stays in milliseconds). */
export const MAX_STATES = 20_000;
/** A counted repetition above this is read as unbounded: a superset, so still safe, and a smaller automaton. */
const REPEAT_AS_UNBOUNDED = 32;

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

/** One alternation of sources sharing flags, as a table; throws when over the size limits. */
export function groupTable(sources: readonly string[], flags: string): PrefixTable {
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
export function longestAcceptedEnd(table: PrefixTable, text: string, cap: number): number {
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
