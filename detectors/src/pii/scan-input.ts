// The per-call scan input: the text plus indexes built on first use and shared by the rules of that call.
// Memoisation lives in the closure of one call, never at module level.
import type { PiiScanInput } from './rule.js';
import { indexDigitGroups, type DigitIndex } from './text/digit-groups.js';
import { contextBefore, type CtxFlags } from './text/keywords.js';

export interface ScanInputOptions {
  language?: string | undefined;
  systemPrompt?: string | undefined;
}

/** "ru-RU" → "ru"; anything missing or odd → "auto". */
export function primaryLanguage(language: string | undefined): string {
  if (!language) return 'auto';
  const primary = language.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return /^[a-z]{2,3}$/.test(primary) ? primary : 'auto';
}

export function createScanInput(text: string, options: ScanInputOptions = {}): PiiScanInput {
  let digits: DigitIndex | undefined;
  const words = new Map<string, CtxFlags>();
  return {
    text,
    language: primaryLanguage(options.language),
    systemPrompt: options.systemPrompt,
    digitGroups: () => (digits ??= indexDigitGroups(text)),
    // Read again for each rule that asks (at most 48 characters back): a memo keyed by offset grew to
    // one entry per number of the text and made 1 MiB of "ИНН 770708389 " four times slower.
    contextBefore: (start) => contextBefore(text, start, words),
  };
}
