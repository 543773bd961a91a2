// Language detection for language policies (README.md, "Language"). franc-min (trigrams, 82
// languages) does the statistics; around it: a minimum amount of letters below which nothing is
// decided, scripts that decide by themselves (Hangul → ko, kana → ja, Han without kana → zh), the
// alphabet check that rules out guesses the letters contradict, a margin that keeps near-ties as
// candidates, and mixed texts split by script. A policy fires only when no candidate is allowed, so
// uncertainty never blocks.
import { francAll } from 'franc-min';
import { ALPHABETS, CONFUSABLE_LANGUAGES, toFrancCode, toIso6391 } from './language-data.js';

export interface ContentLanguageDetection {
  /** The text's language (ISO 639-1 where one exists, else ISO 639-3); null when not determined. */
  language: string | null;
  /** Every language the text may be in: near-ties and the languages of each script part of a mixed text. */
  candidates: string[];
  /** False when the text is too short, has too few letters, or a part of it could not be told. */
  determined: boolean;
}

/** `hint`: a language the caller believes the text is in; it only chooses among the candidates. */
export type ContentLanguageDetector = (text: string, hint?: string) => ContentLanguageDetection;

export interface ContentLanguageDetectorOptions {
  /** Letters a text (and each script part of a mixed text) needs before its language is decided. */
  minLetters?: number;
  /** How many letters one Han, kana or Hangul character counts for (each carries about a syllable or word). */
  ideographWeight?: number;
  /**
   * Languages whose distance is within this share of the best one's are candidates too. (franc's
   * 0–1 scores are divided by the text length, so the margin is scaled by distinct trigrams per
   * character to mean the same for short and long texts.)
   */
  margin?: number;
  /** A script with at least this share of the letters makes the text mixed: that part is detected alone. */
  mixedShare?: number;
  /** Characters looked at: the whole text up to this length, else three windows (start, middle, end). */
  sampleLength?: number;
  /** A language is ruled out when this share (and at least two) of the letters are foreign to its alphabet. */
  foreignLetterShare?: number;
  /**
   * Only these languages (ISO 639-1 or 639-3) are guessed statistically; default all of franc-min's 82.
   * franc compares the text with every language of its script, so a short list is proportionally cheaper.
   */
  languages?: readonly string[];
}

export const CONTENT_LANGUAGE_DEFAULTS = Object.freeze({
  minLetters: 20,
  ideographWeight: 3,
  margin: 0.05,
  mixedShare: 0.3,
  sampleLength: 4096,
  foreignLetterShare: 0.01,
} satisfies Required<Omit<ContentLanguageDetectorOptions, 'languages'>>);

type Group = 'latin' | 'cyrillic' | 'arabic' | 'cjk' | 'hangul' | 'other';

const SCRIPT = {
  latin: /\p{Script=Latin}/gu,
  cyrillic: /\p{Script=Cyrillic}/gu,
  arabic: /(?=\p{L})\p{Script=Arabic}/gu,
  han: /\p{Script=Han}/gu,
  kana: /[\p{Script=Hiragana}\p{Script=Katakana}]/gu,
  hangul: /(?=\p{L})\p{Script=Hangul}/gu,
  other: /(?![\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])\p{L}/gu,
} as const;

/** Letters of every group but one, blanked, so that franc sees only that script's words. */
const NOT_IN_GROUP: Record<'latin' | 'cyrillic' | 'arabic' | 'other', RegExp> = {
  latin: /(?!\p{Script=Latin})\p{L}/gu,
  cyrillic: /(?!\p{Script=Cyrillic})\p{L}/gu,
  arabic: /(?!\p{Script=Arabic})\p{L}/gu,
  other: /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu,
};

const countOf = (text: string, re: RegExp): number => text.match(re)?.length ?? 0;

/** franc's sample limit: it looks at the first 2,048 characters. */
const FRANC_MAX_LENGTH = 2048;

/** Distinct trigrams of a text cleaned as franc cleans it (ASCII punctuation and digits out, lower case). */
function distinctTrigrams(text: string): number {
  const clean = ` ${text.replace(/[\u0021-\u0040]+/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase()} `;
  const seen = new Set<string>();
  for (let i = 0; i + 3 <= clean.length; i++) seen.add(clean.slice(i, i + 3));
  return seen.size;
}

/** The confusable languages of the best guess that the letters did not rule out. */
function confusableWith(best: string, ruledOut: readonly string[]): string[] {
  const group = CONFUSABLE_LANGUAGES.find((g) => g.includes(best));
  return group ? group.filter((code) => code !== best && !ruledOut.includes(code)) : [];
}

/** The characters looked at: the whole text up to `length`, else three windows (start, middle, end), NFC. */
export function languageSampleOf(text: string, length: number): string {
  if (text.length <= length) return text.normalize('NFC');
  const w = Math.floor(length / 3);
  const mid = Math.floor((text.length - w) / 2);
  return [text.slice(0, w), text.slice(mid, mid + w), text.slice(text.length - w)].join('\n').normalize('NFC');
}

/** franc codes of the group's languages whose alphabet lacks too many of the text's letters. */
function contradicted(letters: string[], alphabets: Readonly<Record<string, string>>, share: number): string[] {
  const counts = new Map<string, number>();
  for (const l of letters) counts.set(l, (counts.get(l) ?? 0) + 1);
  const out: string[] = [];
  for (const [code, alphabet] of Object.entries(alphabets)) {
    let foreign = 0;
    for (const [letter, n] of counts) if (!alphabet.includes(letter)) foreign += n;
    if (foreign >= 2 && foreign >= share * letters.length) out.push(code);
  }
  return out;
}

interface Part {
  group: Group;
  weight: number;
}

interface PartResult {
  candidates: string[];
  determined: boolean;
}

export function createContentLanguageDetector(options: ContentLanguageDetectorOptions = {}): ContentLanguageDetector {
  const o = { ...CONTENT_LANGUAGE_DEFAULTS, ...options };
  const only = options.languages ? { only: options.languages.map(toFrancCode) } : {};

  const statistical = (sample: string, group: 'latin' | 'cyrillic' | 'arabic' | 'other'): PartResult => {
    const projected = sample.replace(NOT_IN_GROUP[group], ' ');
    let ignore: string[] = [];
    if (group === 'latin' || group === 'cyrillic') {
      const letters = projected.toLowerCase().match(SCRIPT[group]) ?? [];
      ignore = contradicted(letters, ALPHABETS[group], o.foreignLetterShare);
    }
    const scores = francAll(projected, { minLength: 1, ignore, ...only });
    const best = scores[0];
    if (!best || best[0] === 'und') return { candidates: [], determined: false };
    const sampled = projected.slice(0, FRANC_MAX_LENGTH);
    const margin = o.margin * Math.min(1, distinctTrigrams(sampled) / Math.max(1, sampled.length));
    const near = scores.filter(([, score]) => score >= best[1] - margin).map(([code]) => code);
    const candidates = [...near, ...confusableWith(best[0], ignore)].map(toIso6391);
    return { candidates: [...new Set(candidates)], determined: true };
  };

  return (text, hint) => {
    const undetermined: ContentLanguageDetection = { language: null, candidates: [], determined: false };
    const sample = languageSampleOf(text, o.sampleLength);
    const han = countOf(sample, SCRIPT.han);
    const kana = countOf(sample, SCRIPT.kana);
    const parts: Part[] = [
      { group: 'latin' as const, weight: countOf(sample, SCRIPT.latin) },
      { group: 'cyrillic' as const, weight: countOf(sample, SCRIPT.cyrillic) },
      { group: 'arabic' as const, weight: countOf(sample, SCRIPT.arabic) },
      { group: 'cjk' as const, weight: (han + kana) * o.ideographWeight },
      { group: 'hangul' as const, weight: countOf(sample, SCRIPT.hangul) * o.ideographWeight },
      { group: 'other' as const, weight: countOf(sample, SCRIPT.other) },
    ]
      .filter((p) => p.weight > 0)
      .sort((a, b) => b.weight - a.weight);
    const total = parts.reduce((n, p) => n + p.weight, 0);
    if (total < o.minLetters) return undetermined;

    const results = parts
      .filter((p, i) => i === 0 || p.weight >= o.mixedShare * total)
      .map((p): PartResult => {
        if (p.weight < o.minLetters) return { candidates: [], determined: false };
        switch (p.group) {
          case 'cjk':
            // Japanese writes its grammar in kana; Chinese never uses kana.
            return { candidates: [kana > 0 && kana >= 0.05 * (han + kana) ? 'ja' : 'zh'], determined: true };
          case 'hangul':
            return { candidates: ['ko'], determined: true };
          default:
            return statistical(sample, p.group);
        }
      });
    if (!results.every((r) => r.determined)) return undetermined;
    const candidates = [...new Set(results.flatMap((r) => r.candidates))];
    const language = hint !== undefined && candidates.includes(hint) ? hint : candidates[0]!;
    return { language, candidates, determined: true };
  };
}
