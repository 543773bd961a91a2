// Reads the answer of a Qwen3Guard-Gen-class guard model:
//
//   Safety: Unsafe
//   Categories: Violent, Jailbreak
//   Refusal: No            (response moderation only)
//
// This is the model's own text format (no library parses it). The reader is lenient about case,
// spacing, markdown emphasis and <think> blocks some servers return, and strict about meaning: an
// answer without a recognisable Safety line is an error, never a Safe verdict.
import type { ContentSafetyCategory, ContentSafetyVerdict } from '@palisade/core';

export interface GuardOutput {
  safety: ContentSafetyVerdict;
  /** The spec's categories the guard named, in its order, without repeats. */
  categories: ContentSafetyCategory[];
  /** Names that map to none of the 9 categories, as the guard wrote them. */
  unmapped: string[];
  /** The `Refusal:` line; null when there is none (prompt moderation). */
  refusal: boolean | null;
}

export class GuardOutputError extends Error {
  constructor(
    message: string,
    /** The model's whole answer. */
    readonly output: string,
  ) {
    super(message);
    this.name = 'GuardOutputError';
  }
}

const SAFETY_LEVELS: Readonly<Record<string, ContentSafetyVerdict>> = { safe: 'Safe', controversial: 'Controversial', unsafe: 'Unsafe' };

/** The guard's category names (and the spec's own ids), letters and digits only, lower case. */
const CATEGORY_NAMES: Readonly<Record<string, ContentSafetyCategory>> = {
  violent: 'violence',
  violence: 'violence',
  nonviolentillegalacts: 'illegal_acts',
  illegalacts: 'illegal_acts',
  sexualcontentorsexualacts: 'sexual',
  sexualcontent: 'sexual',
  sexualacts: 'sexual',
  sexual: 'sexual',
  pii: 'pii',
  personallyidentifiableinformation: 'pii',
  suicideselfharm: 'self_harm',
  suicideandselfharm: 'self_harm',
  selfharm: 'self_harm',
  unethicalacts: 'unethical',
  unethical: 'unethical',
  politicallysensitivetopics: 'political_sensitive',
  politicallysensitive: 'political_sensitive',
  politicalsensitive: 'political_sensitive',
  copyrightviolation: 'copyright',
  copyright: 'copyright',
  jailbreak: 'jailbreak',
};

const nameKey = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** The spec category of a guard category name; undefined for `None` and for names it does not know. */
export function guardCategory(name: string): ContentSafetyCategory | undefined {
  return CATEGORY_NAMES[nameKey(name)];
}

/**
 * Drops reasoning: whole <think>…</think> blocks; text up to a closing tag whose opening tag the server
 * left out; and an opening tag that never closed (the answer ran out of tokens while thinking).
 */
export function stripThinking(text: string): string {
  let out = text.replace(/<think>[\s\S]*?<\/think>/gi, '');
  const close = out.toLowerCase().lastIndexOf('</think>');
  if (close >= 0) out = out.slice(close + '</think>'.length);
  const open = out.toLowerCase().indexOf('<think>');
  if (open >= 0) out = out.slice(0, open);
  return out;
}

/** `Key: value`, allowing markdown around it (`**Safety:** Unsafe`, `- Safety: Unsafe`) and a full-width colon. */
const FIELD_LINE = /^[\s>#*_-]*(safety|categories|category|refusal)[\s*_]*[:：][\s*_]*(.*?)[\s*_.]*$/i;

const short = (text: string) => {
  const oneLine = JSON.stringify(text);
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}…` : oneLine;
};

export function parseGuardOutput(output: string): GuardOutput {
  const text = stripThinking(output);
  let safety: ContentSafetyVerdict | undefined;
  let refusal: boolean | null = null;
  const categories: ContentSafetyCategory[] = [];
  const unmapped: string[] = [];

  for (const line of text.split(/\r?\n/)) {
    const m = FIELD_LINE.exec(line);
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (key === 'safety') {
      const level = SAFETY_LEVELS[value.toLowerCase()];
      if (!level) throw new GuardOutputError(`the guard model gave an unknown safety level ${short(value)} (expected Safe, Controversial or Unsafe)`, output);
      if (safety && safety !== level) throw new GuardOutputError(`the guard model gave two different safety levels (${safety} and ${level})`, output);
      safety = level;
    } else if (key === 'refusal') {
      const answer = value.toLowerCase();
      if (answer !== 'yes' && answer !== 'no') throw new GuardOutputError(`the guard model gave an unknown refusal answer ${short(value)} (expected Yes or No)`, output);
      refusal = answer === 'yes';
    } else {
      for (const name of value.split(/[,;]/).map((n) => n.trim()).filter((n) => n !== '')) {
        if (nameKey(name) === 'none') continue;
        const category = guardCategory(name);
        if (category === undefined) {
          if (!unmapped.includes(name)) unmapped.push(name);
        } else if (!categories.includes(category)) {
          categories.push(category);
        }
      }
    }
  }
  if (!safety) {
    const why = /<think>/i.test(output) && text.trim() === '' ? 'the answer ended inside a <think> block' : 'no "Safety: Safe|Controversial|Unsafe" line';
    throw new GuardOutputError(`the guard model's answer is not in the Qwen3Guard format (${why}): ${short(output)}`, output);
  }
  return { safety, categories, unmapped, refusal };
}
