// Trusted PII: a `trust_pii` content policy marks text the tenant allows (its own support address, its
// company's INN). The gateway passes the marks it got from the content policy service; entities they
// cover are reported with `trusted: true` and do not make `has_pii` true.
// A mark is a value (every occurrence in the text counts, case-insensitively) or a span of the text.
// An entity is trusted when it overlaps a marked span, so a rule matching "@mycorp.com" trusts every
// address of that domain and a rule matching "ИНН 7707083893" trusts the number inside it. Numbers
// also match by their digits ("7707 083 893" is the mark "7707083893"). A mark may name the one PII
// type it applies to.
import type { PiiType } from '@palisade/core';
import { digitsOf } from './text/chars.js';

export type PiiTrustMark = string | { value?: string | undefined; start?: number | undefined; end?: number | undefined; type?: PiiType | undefined };

interface Span {
  start: number;
  end: number;
  type: PiiType | undefined;
}

/** Digits that make a value a number worth comparing by digits alone. */
const MIN_DIGITS = 6;

export interface PiiTrustMatcher {
  isTrusted(entity: { type: PiiType; start: number; end: number; value: string }): boolean;
}

export function createPiiTrustMatcher(text: string, marks: readonly PiiTrustMark[] | undefined): PiiTrustMatcher {
  if (!marks || marks.length === 0) return { isTrusted: () => false };
  const spans: Span[] = [];
  const digitMarks: Array<{ digits: string; type: PiiType | undefined }> = [];
  let lower: string | undefined;
  for (const raw of marks) {
    const mark = typeof raw === 'string' ? { value: raw } : raw;
    if (mark.start !== undefined && mark.end !== undefined && mark.end > mark.start) {
      spans.push({ start: mark.start, end: mark.end, type: mark.type });
    }
    const value = mark.value;
    if (!value) continue;
    const digits = digitsOf(value);
    if (digits.length >= MIN_DIGITS && digits.length * 2 >= value.replace(/\s/g, '').length) digitMarks.push({ digits, type: mark.type });
    lower ??= text.toLowerCase();
    // toLowerCase keeps offsets unless a character changes length (e.g. "İ"); then match exactly.
    const haystack = lower.length === text.length ? lower : text;
    const needle = haystack === lower ? value.toLowerCase() : value;
    for (let at = haystack.indexOf(needle); at !== -1 && needle.length > 0; at = haystack.indexOf(needle, at + needle.length)) {
      spans.push({ start: at, end: at + needle.length, type: mark.type });
    }
  }
  return {
    isTrusted(entity) {
      const applies = (type: PiiType | undefined) => type === undefined || type === entity.type;
      if (spans.some((s) => applies(s.type) && s.start < entity.end && entity.start < s.end)) return true;
      if (digitMarks.length === 0) return false;
      const digits = digitsOf(entity.value);
      return digits.length >= MIN_DIGITS && digitMarks.some((m) => applies(m.type) && m.digits === digits);
    },
  };
}
