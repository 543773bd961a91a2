// The attack grammar: seeded templates with slots (family × framing × payload × obfuscation × language)
// that produce an attack and, beside it, a benign twin built from the same family's innocent uses of the
// same words, the same framing and language, and often a benign output constraint ("answer in JSON").
// Rows carry `source` = palisade/synth:<family>/<framing>/<obfuscation>, so held-out evaluation can
// leave a whole family out.
import type { ThreatTrainingRow } from '../dataset.js';
import { createThreatRandom, type ThreatRandom } from '../prng.js';
import { SYNTH_ECHOES, SYNTH_FAMILIES, SYNTH_LANGUAGES, SYNTH_LEXICONS, SYNTH_LINKS, SYNTH_PERSONA_NAMES, SYNTH_SNIPPETS, type SynthDirectFamily, type SynthFamily, type SynthLanguage, type SynthLexicon } from './lexicon.js';
import { adversarialSuffix, obfuscateSynth, SYNTH_OBFUSCATIONS, type SynthObfuscation } from './obfuscate.js';

export const SYNTH_FRAMINGS = ['bare', 'after_task', 'before_task', 'delimited', 'quoted'] as const;
export type SynthFraming = (typeof SYNTH_FRAMINGS)[number];

export const SYNTH_CARRIERS = ['email', 'web_page', 'table', 'data_table', 'code_comment', 'forum_post', 'tool_result'] as const;
export type SynthCarrier = (typeof SYNTH_CARRIERS)[number];

export interface SynthOptions {
  seed: number;
  /** Attack / twin pairs; the rows are twice as many. */
  pairs: number;
  families?: readonly SynthFamily[];
  languages?: readonly SynthLanguage[];
}

const pick = <T>(random: ThreatRandom, items: readonly T[]): T => items[Math.floor(random.next() * items.length)]!;

function fill(template: string, lex: SynthLexicon, random: ThreatRandom): string {
  const name = pick(random, SYNTH_PERSONA_NAMES);
  return template
    .replaceAll('{p}', () => pick(random, lex.payloads))
    .replaceAll('{n}', name)
    .replaceAll('{e}', () => pick(random, SYNTH_ECHOES))
    .replaceAll('{t}', () => pick(random, lex.tasks))
    .replaceAll('{l}', () => pick(random, SYNTH_LINKS))
    .replaceAll('{c}', () => pick(random, SYNTH_SNIPPETS));
}

function frame(core: string, framing: SynthFraming, lex: SynthLexicon, random: ThreatRandom): string {
  const task = pick(random, lex.tasks);
  switch (framing) {
    case 'bare':
      return core;
    case 'after_task':
      return `${task[0]!.toUpperCase()}${task.slice(1)}. ${core}`;
    case 'before_task':
      return `${core}\n\n${task[0]!.toUpperCase()}${task.slice(1)}.`;
    case 'delimited':
      return `-----\n${core}\n-----`;
    case 'quoted':
      return `"${core}"`;
  }
}

const TABLE_NAMES = ['Lake Louise', 'St. Moritz', 'Garmisch', 'Oslo', 'Kazan', 'Sevilla', 'Lyon', 'Graz', 'A. Petrov', 'M. Keller', 'J. Silva', 'L. Wang'];

/**
 * A table of data (names, dates, numbers) under one of the language's headers, with `inner` as a row of
 * its own that breaks the columns, or at the end of a row's last cell: where a planted instruction sits
 * in a scraped or uploaded table, among cells that are no sentences at all.
 */
function dataTable(lex: SynthLexicon, inner: string | undefined, random: ThreatRandom): string {
  const header = pick(random, lex.tableHeaders);
  const cell = (column: number): string => {
    if (column === 0) return pick(random, TABLE_NAMES);
    const r = random.next();
    if (r < 0.3) return String(1990 + Math.floor(random.next() * 35));
    if (r < 0.55) return `${1 + Math.floor(random.next() * 28)}.${1 + Math.floor(random.next() * 12)}.${2000 + Math.floor(random.next() * 25)}`;
    return String(Math.floor(random.next() * 500));
  };
  const rows = Array.from({ length: 4 + Math.floor(random.next() * 5) }, () => header.map((_, c) => cell(c)));
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
  if (inner === undefined) return lines.join('\n');
  const at = 3 + Math.floor(random.next() * (lines.length - 3));
  if (random.next() < 0.6) lines.splice(at, 0, `| ${inner} |`);
  else lines[at - 1] = `${lines[at - 1]!.slice(0, -2)} ${inner} |`;
  return lines.join('\n');
}

/** Code a forum answer shows; the planted instruction comes before it, as if it were the answer's advice. */
const FORUM_CODE = ['for row in rows:\n    total += row.price', 'df = df.loc[df["price"] > 0].copy()', 'const items = await fetch(url).then((r) => r.json());', 'SELECT name, count(*) FROM orders GROUP BY name;'];

/** A document of the carrier's kind with `inner` (an instruction or a benign ask, or nothing) in its body. */
function carry(carrier: SynthCarrier, lex: SynthLexicon, inner: string | undefined, random: ThreatRandom): string {
  if (carrier === 'data_table') return dataTable(lex, inner, random);
  const lines = random.shuffle([...lex.documentLines]).slice(0, 3 + Math.floor(random.next() * 3));
  const at = 1 + Math.floor(random.next() * (lines.length - 1));
  if (inner !== undefined) lines.splice(at, 0, inner);
  switch (carrier) {
    case 'email':
      return `From: m.keller@example.com\nSubject: ${lines[0]}\n\n${lines.join('\n')}`;
    case 'web_page':
      return `<html><body><h1>${lines[0]}</h1>${lines.map((l, i) => (l === inner && i % 2 === 0 ? `<!-- ${l} -->` : `<p>${l}</p>`)).join('')}</body></html>`;
    case 'table':
      return ['| # | note |', '|---|---|', ...lines.map((l, i) => `| ${i + 1} | ${l} |`)].join('\n');
    case 'code_comment':
      return ['def report(rows):', ...lines.map((l) => `    # ${l}`), '    return rows'].join('\n');
    case 'forum_post': {
      const code = `\`\`\`\n${pick(random, FORUM_CODE)}\n\`\`\``;
      const before = inner === undefined ? lines : lines.filter((l) => l !== inner);
      const answer = inner === undefined ? [code] : [inner, code];
      return [`> ${before[0]}`, '', ...before.slice(1, 2), ...answer, ...before.slice(2)].join('\n');
    }
    case 'tool_result':
      return JSON.stringify({ status: 'ok', results: lines.map((text, id) => ({ id, text })) });
  }
}

interface SynthPair {
  attack: string;
  twin: string;
  framing: string;
  obfuscation: SynthObfuscation;
}

function directPair(family: SynthDirectFamily, lex: SynthLexicon, random: ThreatRandom): SynthPair {
  const framing = pick(random, SYNTH_FRAMINGS);
  const obfuscation: SynthObfuscation = random.next() < 0.55 ? 'none' : pick(random, SYNTH_OBFUSCATIONS);
  const core = obfuscateSynth(fill(pick(random, lex.attacks[family]), lex, random), obfuscation, random);
  // A third of the twins carry a benign output constraint, the rest are the family's innocent uses.
  const twinCore = random.next() < 0.33 ? `${fill(pick(random, lex.twins[family]), lex, random)} ${pick(random, lex.constraints)}` : fill(pick(random, lex.twins[family]), lex, random);
  return { attack: frame(core, framing, lex, random), twin: frame(twinCore, framing, lex, random), framing, obfuscation };
}

function splittingPair(lex: SynthLexicon, random: ThreatRandom): SynthPair {
  const sentence = fill(pick(random, lex.attacks.override), lex, random);
  const cut = Math.max(1, Math.floor(sentence.length * (0.3 + 0.4 * random.next())));
  const attack = pick(random, lex.splitting).replace('{a}', sentence.slice(0, cut)).replace('{b}', sentence.slice(cut));
  return { attack, twin: `${pick(random, lex.splittingTwins)} ${random.next() < 0.5 ? pick(random, lex.constraints) : ''}`.trim(), framing: 'variables', obfuscation: 'none' };
}

// Noisy but benign tails a user's own prompt carries: a formula, a URL with a query, an error line, a
// regex, JSON, a shell command. The adversarial suffix's twin ends in one of them, so that punctuation
// and odd tokens after a request are not what marks the attack.
const BENIGN_TAILS = [
  '\\frac{a+b}{2} \\leq \\sqrt{ab}',
  'https://shop.example/search?q=running+shoes&size=42&sort=price_asc',
  "Error: ENOENT: no such file or directory, open '/tmp/cache.json' at Object.openSync (node:fs:603:3)",
  '/^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$/i',
  '{"id": 42, "tags": ["a", "b"], "nested": {"ok": true}}',
  'git commit -m "fix(parser): handle empty input" && git push origin HEAD',
  'SELECT name, count(*) FROM orders WHERE total > 100 GROUP BY name;',
  'TypeError: Cannot read properties of undefined (reading \'map\') at App.render (App.jsx:17:23)',
];

/** A request the attacker wants served, then an optimised token soup; the twin is a real task with a noisy but benign tail. */
function suffixPair(lex: SynthLexicon, random: ThreatRandom): SynthPair {
  const request = fill('{p}', lex, random);
  const attack = `${request[0]!.toUpperCase()}${request.slice(1)} ${adversarialSuffix(random)}`;
  const task = pick(random, lex.tasks);
  const tail = random.next() < 0.7 ? ` ${pick(random, BENIGN_TAILS)}` : '';
  return { attack, twin: `${task[0]!.toUpperCase()}${task.slice(1)}:${tail}`, framing: 'suffix', obfuscation: 'none' };
}

/** The same how-to request, asking for something harmful (the attack) or for something everyday (the twin). */
function requestPair(lex: SynthLexicon, random: ThreatRandom): SynthPair | undefined {
  if (lex.requestFrames.length === 0) return undefined;
  const frameText = pick(random, lex.requestFrames);
  return { attack: frameText.replace('{h}', pick(random, lex.harmfulHowTos)), twin: frameText.replace('{h}', pick(random, lex.everydayHowTos)), framing: 'request', obfuscation: 'none' };
}

function indirectPair(lex: SynthLexicon, random: ThreatRandom): SynthPair {
  const carrier = pick(random, SYNTH_CARRIERS);
  const family = pick(random, ['override', 'goal_hijack', 'extraction', 'refusal_suppression'] as const);
  const obfuscation: SynthObfuscation = random.next() < 0.8 ? 'none' : pick(random, ['homoglyphs', 'typos', 'leetspeak'] as const);
  // A planted instruction is an attack sentence, or a directive about the answer that only the place it
  // sits in (a document, not the user's request) makes an attack.
  const planted = random.next() < 0.4 ? pick(random, lex.directives) : pick(random, lex.attacks[family]);
  const instruction = obfuscateSynth(fill(planted, lex, random), obfuscation, random);
  const task = pick(random, lex.tasks);
  // The same user request and the same kind of document; the twin's document has no instruction or a
  // benign ask (a table: a note) of its own, and half the time the user adds an output constraint.
  const ask = random.next() < 0.5 ? pick(random, carrier === 'data_table' ? lex.tableNotes : lex.documentAsks) : undefined;
  const constraint = random.next() < 0.5 ? ` ${pick(random, lex.constraints)}` : '';
  const seed = Math.floor(random.next() * 2 ** 31);
  const attackDoc = carry(carrier, lex, instruction, createThreatRandom(seed));
  const twinDoc = carry(carrier, lex, ask, createThreatRandom(seed));
  return { attack: `${task}:${constraint}\n\n${attackDoc}`, twin: `${task}:${constraint}\n\n${twinDoc}`, framing: carrier, obfuscation };
}

/** The families whose pairs are not a direct attack sentence and its twin; undefined: none in this language. */
const PAIR_BUILDERS: Record<Exclude<SynthFamily, SynthDirectFamily>, (lex: SynthLexicon, random: ThreatRandom) => SynthPair | undefined> = {
  indirect: indirectPair,
  payload_splitting: splittingPair,
  adversarial_suffix: suffixPair,
  plain_request: requestPair,
};

/** Attack / benign-twin rows, reproducible from the seed; families and languages in turn. */
export function generateSynthRows(options: SynthOptions): ThreatTrainingRow[] {
  const random = createThreatRandom(options.seed);
  const families = options.families ?? SYNTH_FAMILIES;
  const languages = options.languages ?? SYNTH_LANGUAGES;
  const rows: ThreatTrainingRow[] = [];
  const seen = new Set<string>();
  // Each (family, language) slot gets a few draws for a text not seen yet; a slot whose combinations
  // are used up is skipped, so a small family never blocks the others.
  for (let i = 0; i < options.pairs; i++) {
    const family = families[i % families.length]!;
    const lang = languages[Math.floor(i / families.length) % languages.length]!;
    const lex = SYNTH_LEXICONS[lang];
    for (let attempt = 0; attempt < 8; attempt++) {
      const build = PAIR_BUILDERS[family as keyof typeof PAIR_BUILDERS];
      const pair = build ? build(lex, random) : directPair(family as SynthDirectFamily, lex, random);
      if (pair === undefined) break; // the language has no rows of this family
      if (seen.has(pair.attack)) continue;
      seen.add(pair.attack);
      const source = `palisade/synth:${family}/${pair.framing}/${pair.obfuscation}`;
      rows.push({ text: pair.attack, label: 1, source, lang, licence_ok: true });
      // The twin lists are small: a repeated twin is left out rather than weighted twice.
      if (!seen.has(pair.twin)) {
        seen.add(pair.twin);
        rows.push({ text: pair.twin, label: 0, source, lang, licence_ok: true });
      }
      break;
    }
  }
  return rows;
}
