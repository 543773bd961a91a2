// Undoing the cheap obfuscations attackers use to slip past n-gram models: leetspeak ("1gn0r3"),
// spaced-out letters ("i g n o r e") and instructions wrapped in base64. Each produces an extra view of
// the prompt that is scored like plain text; the prompt's score is the maximum over its views. The
// transforms live beside this file: deobfuscate-leet.ts, deobfuscate-spaced.ts, deobfuscate-base64.ts.
import { stringOfCodeUnits, writeCodeUnits } from '@palisade/core';
import { lowerThreatCodes, threatCodesRoom } from './char-classes.js';
import { decodeThreatBase64Blocks, type ThreatBase64Options, THREAT_BASE64_DEFAULTS } from './deobfuscate-base64.js';
import { undoThreatLeetspeakCodes } from './deobfuscate-leet.js';
import { joinThreatSpacedLetterCodes } from './deobfuscate-spaced.js';
import {
  collapseThreatWhitespace,
  collapseThreatWhitespaceCodes,
  countThreatWordSplits,
  lowerThreatText,
  mayHaveThreatHomoglyphs,
  resolveThreatHomoglyphCodes,
  stripThreatInvisiblesTwice,
} from './normalize.js';

export interface ThreatTextViews {
  /** The normalised prompt (normalizeThreatText). */
  base: string;
  /** Leetspeak and spaced-out letters undone, normalised; only when it differs from `base`. */
  deobfuscated?: string;
  /** Normalised text of the base64 blocks that decoded to readable text (one level deep). */
  decoded: string[];
  /**
   * How many leet tokens, spaced-letter runs and decoded base64 blocks were found, how many places
   * split a word with invisible characters (countThreatWordSplits) and how many words mixed lookalike
   * letters of two scripts (resolved to one).
   */
  obfuscation: { leet: number; spaced: number; base64: number; invisible: number; homoglyph: number };
}

/** The views of a prompt that are scored: the normalised text, its de-obfuscated form, decoded base64. */
export function threatTextViews(prompt: string, base64Options: ThreatBase64Options = THREAT_BASE64_DEFAULTS): ThreatTextViews {
  return createThreatViewBuilder(base64Options).views(prompt);
}

export interface ThreatViewBuilder {
  /** threatTextViews of `prompt`, with this builder's scratch buffers. */
  views(prompt: string): ThreatTextViews;
}

/**
 * threatTextViews with scratch buffers that live as long as the builder (the feature extractor holds
 * one). The normalised and the de-obfuscated texts are made in two buffers of code units, each step
 * rewriting them in place, and only the views themselves become strings: a string or a fresh buffer
 * per step cost a long prompt more in page faults (about 4 ms per MB on a VM) than the steps did. The
 * buffers grow to the longest prompt seen (2 bytes per code unit each, and 1 byte for one-byte text).
 */
export function createThreatViewBuilder(base64Options: ThreatBase64Options = THREAT_BASE64_DEFAULTS): ThreatViewBuilder {
  let lowered: Uint16Array = new Uint16Array(0);
  let collapsed: Uint16Array = new Uint16Array(0);
  let narrow = Buffer.alloc(0);
  const stringOf = (codes: Uint16Array, length: number): string => {
    if (narrow.length < length) narrow = Buffer.alloc(Math.max(length, 2 * narrow.length));
    return stringOfCodeUnits(codes, length, narrow);
  };
  const views = (prompt: string): ThreatTextViews => {
    // What the string steps did: stripped = stripThreatInvisibles(prompt), lowered =
    // lowerThreatText(stripped), base = collapse(lowered), deobfuscated = collapse(leet(spaced(lowered))).
    const { once: stripped, twice, invisibleRemoved } = stripThreatInvisiblesTwice(prompt);
    let length = twice.length;
    lowered = threatCodesRoom(lowered, length);
    writeCodeUnits(twice, lowered);
    if (!lowerThreatCodes(lowered, length)) {
      const lower = twice.toLowerCase();
      length = lower.length;
      lowered = threatCodesRoom(lowered, length);
      writeCodeUnits(lower, lowered);
    }
    const homoglyph = mayHaveThreatHomoglyphs(lowered, length) ? resolveThreatHomoglyphCodes(lowered, length) : 0;
    collapsed = threatCodesRoom(collapsed, length);
    collapsed.set(lowered.subarray(0, length));
    const baseLength = collapseThreatWhitespaceCodes(collapsed, length);
    const base = stringOf(collapsed, baseLength);
    // The de-obfuscation rewrites the lowered text in place: it is not needed after this.
    const spaced = joinThreatSpacedLetterCodes(lowered, length);
    const leet = undoThreatLeetspeakCodes(lowered, spaced.length);
    let deobfuscated: string | undefined;
    // Each run joined drops its separators and each leet token changes a code unit: the text differs
    // from the lowered one exactly when one was found.
    if (spaced.count > 0 || leet > 0) {
      const deobfuscatedLength = collapseThreatWhitespaceCodes(lowered, spaced.length);
      let same = deobfuscatedLength === baseLength;
      for (let i = 0; same && i < baseLength; i++) same = lowered[i] === collapsed[i];
      if (!same) deobfuscated = stringOf(lowered, deobfuscatedLength);
    }
    const decoded = decodeThreatBase64Blocks(stripped, base64Options).map((text) => collapseThreatWhitespace(lowerThreatText(text)));
    return {
      base,
      ...(deobfuscated !== undefined ? { deobfuscated } : {}),
      decoded,
      obfuscation: { leet, spaced: spaced.count, base64: decoded.length, invisible: invisibleRemoved ? countThreatWordSplits(prompt) : 0, homoglyph },
    };
  };
  return { views };
}
