// The feature extractor: a prompt → its scored windows → one sparse hashed vector per window. The
// learned head (the ONNX model) gathers one weight row per non-zero index, so the vector never exists
// in dense form. The configuration is stored in the model's metadata: training and serving must agree.
import { createThreatViewBuilder, type ThreatBase64Options, THREAT_BASE64_DEFAULTS } from './deobfuscate.js';
import { isThreatSurrogate, THREAT_CHAR, THREAT_CHAR_TABLE, threatCharWidth } from './char-classes.js';
import { threatFmix32, threatHashPair, threatHashString, THREAT_FNV_OFFSET, THREAT_FNV_PRIME } from './hashing.js';
import { createThreatConceptLexicon, THREAT_CONCEPTS, type ThreatConcept } from './concepts.js';
import { THREAT_SIGNAL_FAMILIES, THREAT_SIGNALS, threatSignalAnchors, threatSignalsIn, type ThreatSignal, type ThreatSignalFamily } from './signals.js';
import { threatWindowStarts } from './windows.js';

export interface ThreatFeatureConfig {
  /** log2 of the number of hash buckets (the rows of the model's first weight matrix). */
  dimensionsLog2: number;
  /** Character n-grams of these lengths (inclusive), over the normalised window with a space around it. */
  charNgramMin: number;
  charNgramMax: number;
  /** Word n-grams up to this length (1 = unigrams, 2 = uni- and bigrams). */
  wordNgramMax: number;
  /** Window length and step in characters of normalised text. */
  windowChars: number;
  windowStride: number;
  /** Seed of every hash, so a new feature layout can never be mistaken for the old one. */
  hashSeed: number;
  /** Concept n-grams (concepts.ts) up to this length, between concepts at most 4 words apart per step. */
  conceptNgramMax: number;
  /** Weights of the groups: char, word and concept are each L2-normalised then scaled; signals are 0/1 × weight. */
  charWeight: number;
  wordWeight: number;
  conceptWeight: number;
  signalWeight: number;
  /**
   * Weight of the position group: each word hashed with where it sits — in the prompt's head (its first
   * `headChars` characters) or its body, and whether it opens a sentence. An imperative that opens a
   * sentence deep inside a pasted document or tool output is how an indirect injection looks; the same
   * words at the head of a user's own prompt ("answer in JSON") are a formatting request. 0 = off.
   */
  positionWeight: number;
  headChars: number;
}

export const DEFAULT_THREAT_FEATURE_CONFIG: ThreatFeatureConfig = {
  dimensionsLog2: 18,
  charNgramMin: 1,
  charNgramMax: 5,
  wordNgramMax: 2,
  conceptNgramMax: 3,
  windowChars: 1024,
  windowStride: 768,
  hashSeed: 0x7a1e,
  charWeight: 1,
  wordWeight: 1,
  conceptWeight: 1,
  signalWeight: 1,
  positionWeight: 1,
  headChars: 160,
};

/** One window's features: bucket indices (duplicates allowed, they add) and their values. */
export interface ThreatSparseVector {
  indices: Int32Array;
  values: Float32Array;
}

/** A window's vector and the signal families found in it. */
export interface ThreatWindowVector extends ThreatSparseVector {
  signals: readonly ThreatSignalFamily[];
}

/** What the model takes for one prompt: its windows' vectors and the prompt-level rule inputs. */
export interface ThreatPromptFeatures {
  windows: ThreatSparseVector[];
  /** [THREAT_SIGNAL_FAMILIES.length]: 1 where the family matched in any window of any view. */
  rules: Float32Array;
}

export type ThreatViewKind = 'base' | 'deobfuscated' | 'base64';

export interface ThreatWindow {
  view: ThreatViewKind;
  text: string;
  /** Signals of the whole prompt that every window carries (obfuscation seen, the view it came from). */
  promptSignals: string[];
  /** Where the window starts in its view (characters); the position group tells head from body by it. */
  offset?: number;
}

export interface ThreatFeatureExtractor {
  readonly config: ThreatFeatureConfig;
  /** The windows of every view of a raw prompt (normalisation included). */
  windows(prompt: string): ThreatWindow[];
  /** The signal families found in one window (what vector() reports as `signals`). */
  signals(window: ThreatWindow): ThreatSignalFamily[];
  /** The sparse vector of one window; `signals`, when given, are that window's from signals(). */
  vector(window: ThreatWindow, signals?: readonly ThreatSignalFamily[]): ThreatWindowVector;
  /**
   * The vectors of `windows` as the model takes them: [windows × width] indices and values, each window
   * padded with index 0 and value 0 to the longest (at least 1); what packThreatWindows (detector.ts)
   * makes of their vector()s, without an array pair per window. `signals[i]` are window i's.
   */
  packedVectors(windows: readonly ThreatWindow[], signals: readonly (readonly ThreatSignalFamily[])[]): ThreatPackedVectors;
  /** windows() then vector() of each, and the rule inputs. */
  extract(prompt: string): ThreatPromptFeatures;
}

export interface ThreatPackedVectors {
  indices: Int32Array;
  values: Float32Array;
  width: number;
}

/** A vector already computed for a window with the same text and offset: its entries before the signal ones, and its signals. */
interface ThreatTwinVector {
  indices: Int32Array;
  values: Float32Array;
  body: number;
  found: readonly ThreatSignalFamily[];
}

export interface ThreatFeatureExtractorOptions {
  signals?: readonly ThreatSignal[];
  concepts?: readonly ThreatConcept[];
  base64?: ThreatBase64Options;
}

const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const WORD_FLAGS = THREAT_CHAR.letter | THREAT_CHAR.number;

const GOLDEN = 0x9e3779b9;
/** Characters after which the next word opens a sentence or a list item: . ! ? : ; - * • > | # 。！？ */
const SENTENCE_OPENERS = new Set([0x2e, 0x21, 0x3f, 0x3a, 0x3b, 0x2d, 0x2a, 0x2022, 0x3e, 0x7c, 0x23, 0x3002, 0xff01, 0xff1f, 0x22, 0xab, 0xbb, 0x201c, 0x201e]);
const ASCII_SENTENCE_OPENERS = Uint8Array.from({ length: 0x80 }, (_, c) => (SENTENCE_OPENERS.has(c) ? 1 : 0));
/** log1p of the small counts almost every bucket has, computed once (the same doubles as Math.log1p). */
const LOG1P = Float64Array.from({ length: 64 }, (_, k) => Math.log1p(k));

/**
 * Builds an extractor. It owns a dense scratch accumulator of 2^dimensionsLog2 floats that is reset
 * after each window, so counting n-grams costs an array write instead of a Map insert. Extraction is
 * synchronous, so one extractor can serve concurrent requests.
 */
export function createThreatFeatureExtractor(
  config: ThreatFeatureConfig = DEFAULT_THREAT_FEATURE_CONFIG,
  options: ThreatFeatureExtractorOptions = {},
): ThreatFeatureExtractor {
  const size = 2 ** config.dimensionsLog2;
  const mask = size - 1;
  const signals = options.signals ?? THREAT_SIGNALS;
  const base64 = options.base64 ?? THREAT_BASE64_DEFAULTS;
  const lexicon = createThreatConceptLexicon(options.concepts ?? THREAT_CONCEPTS);
  const viewBuilder = createThreatViewBuilder(base64);
  const charTable = THREAT_CHAR_TABLE;
  const conceptSeq: number[] = [];
  // Counts per bucket and the buckets touched in this window. A window of W characters makes at most
  // (W + 2) character n-grams per length and fewer than 2W word n-grams, which bounds `touched`.
  const maxGramsPerWindow = (config.windowChars + 2) * (config.charNgramMax - config.charNgramMin + 1) + 2 * config.windowChars + 64;
  // Per bucket, 1 + its place in `touched` while its group is counted (0: not touched); the counts sit
  // beside `touched`, in the order the buckets were first seen, so the group's flush reads them in
  // sequence instead of one random read of a 2^18 table per bucket. 16-bit places when a window cannot
  // touch 65,535 buckets: half the memory the hot loop scatters into.
  const slots = maxGramsPerWindow < 0xffff ? new Uint16Array(size) : new Uint32Array(size);
  const touched = new Int32Array(Math.min(size, maxGramsPerWindow));
  const touchedCounts = new Int32Array(touched.length);
  const touchedLog = new Float64Array(touched.length);
  let touchedCount = 0;
  const seedChar = threatFmix32(config.hashSeed ^ 0x01);
  const seedWord = threatFmix32(config.hashSeed ^ 0x02);
  const seedBigram = threatFmix32(config.hashSeed ^ 0x03);
  const seedSignal = threatFmix32(config.hashSeed ^ 0x04);
  const seedConcept = threatFmix32(config.hashSeed ^ 0x05);
  const seedPosition = threatFmix32(config.hashSeed ^ 0x06);
  // (bucket of word, position tag) per word of the window, counted after the word group is flushed.
  // A window has fewer words than characters.
  let positioned = new Int32Array(config.windowChars);
  let positionedCount = 0;
  const lengthSalts = Array.from({ length: config.charNgramMax + 1 }, (_, n) => Math.imul(n, GOLDEN));

  // The window's vector is written here and copied out once: growing number[] per window allocated
  // several times the vector's size. Values are rounded to float32 on write, as the copy did before.
  // Signals add at most one entry per signal and prompt signal (bounded by `signalRoom`).
  const signalRoom = 64 + signals.length;
  let outIndices = new Int32Array(3 * touched.length + signalRoom);
  let outValues = new Float32Array(outIndices.length);
  let outCount = 0;
  // Room for `more` entries: grows only with more prompt signals than signalRoom allows for.
  const reserveOut = (more: number): void => {
    if (outCount + more <= outIndices.length) return;
    const length = Math.max(outIndices.length * 2, outCount + more);
    const grownIndices = new Int32Array(length);
    grownIndices.set(outIndices);
    const grownValues = new Float32Array(length);
    grownValues.set(outValues);
    outIndices = grownIndices;
    outValues = grownValues;
  };
  const pushOut = (index: number, value: number): void => {
    reserveOut(1);
    outIndices[outCount] = index;
    outValues[outCount] = value;
    outCount++;
  };

  // Sub-linear term frequency, the group L2-normalised and scaled, the scratch reset. The group is
  // written straight into the output arrays (room reserved once, not checked per entry).
  const flush = (weight: number): void => {
    let norm = 0;
    for (let i = 0; i < touchedCount; i++) {
      const count = touchedCounts[i]!;
      const v = count < LOG1P.length ? LOG1P[count]! : Math.log1p(count);
      touchedLog[i] = v;
      norm += v * v;
    }
    const scale = norm > 0 ? weight / Math.sqrt(norm) : 0;
    reserveOut(touchedCount);
    const indices = outIndices;
    const values = outValues;
    const base = outCount;
    for (let i = 0; i < touchedCount; i++) {
      const bucket = touched[i]!;
      indices[base + i] = bucket;
      values[base + i] = touchedLog[i]! * scale;
      slots[bucket] = 0;
    }
    outCount = base + touchedCount;
    touchedCount = 0;
  };

  // The window's code units with a space on each side, and each character n-gram's bucket in the order
  // they are counted (by start position, then length). Both grow only for a window longer than the config's.
  let codeBytes = Buffer.alloc(2 * (config.windowChars + 2));
  let codes = new Uint16Array(codeBytes.buffer, codeBytes.byteOffset, config.windowChars + 2);
  let buckets = new Int32Array(codes.length * (config.charNgramMax - config.charNgramMin + 1));
  // The layout every model so far uses (1- to 5-grams) is hashed by an unrolled loop, a third faster than the loop over lengths.
  const unrolled = config.charNgramMin === 1 && config.charNgramMax === 5;
  const [, salt1, salt2, salt3, salt4, salt5] = lengthSalts as [number, number, number, number, number, number];
  const bucketOf = (h: number): number => threatFmix32(h) & mask;

  // The window's code units copied by Buffer.write (lone surrogates kept): a charCodeAt per character of
  // a window, a slice of its view, cost four times as much.
  const loadCodes = (text: string): void => {
    const n = text.length + 2;
    if (codes.length < n) {
      codeBytes = Buffer.alloc(2 * n);
      codes = new Uint16Array(codeBytes.buffer, codeBytes.byteOffset, n);
      buckets = new Int32Array(n * (config.charNgramMax - config.charNgramMin + 1));
    }
    codes[0] = 0x20;
    codeBytes.write(text, 2, 'utf16le');
    codes[n - 1] = 0x20;
  };

  // The character n-grams of the loaded window (`length` code units).
  const charGrams = (length: number): void => {
    const n = length + 2;
    const min = config.charNgramMin;
    const max = config.charNgramMax;
    const start = THREAT_FNV_OFFSET ^ seedChar;
    let m = 0;
    let i = 0;
    if (unrolled) {
      for (; i + 5 <= n; i++) {
        let h = Math.imul(start ^ codes[i]!, THREAT_FNV_PRIME);
        buckets[m++] = bucketOf(h ^ salt1);
        h = Math.imul(h ^ codes[i + 1]!, THREAT_FNV_PRIME);
        buckets[m++] = bucketOf(h ^ salt2);
        h = Math.imul(h ^ codes[i + 2]!, THREAT_FNV_PRIME);
        buckets[m++] = bucketOf(h ^ salt3);
        h = Math.imul(h ^ codes[i + 3]!, THREAT_FNV_PRIME);
        buckets[m++] = bucketOf(h ^ salt4);
        h = Math.imul(h ^ codes[i + 4]!, THREAT_FNV_PRIME);
        buckets[m++] = bucketOf(h ^ salt5);
      }
    }
    for (; i < n; i++) {
      let h = start;
      const end = Math.min(max, n - i);
      for (let k = 0; k < end; k++) {
        h = Math.imul(h ^ codes[i + k]!, THREAT_FNV_PRIME);
        if (k + 1 >= min) buckets[m++] = bucketOf(h ^ lengthSalts[k + 1]!);
      }
    }
    for (let j = 0; j < m; j++) countBucket(buckets[j]!);
  };

  function countBucket(bucket: number): void {
    const slot = slots[bucket]!;
    if (slot === 0) {
      touched[touchedCount] = bucket;
      touchedCounts[touchedCount] = 1;
      slots[bucket] = ++touchedCount;
    } else touchedCounts[slot - 1]!++;
  }

  // Word n-grams of the loaded window (its text is `text`: code unit j is codes[j + 1]); the concept
  // sequence (concept id, word position) is collected on the way.
  const wordGrams = (text: string, offset: number): void => {
    // Not `number | undefined`: a hash above 2^30 in a variable that may hold undefined is boxed, an
    // allocation per word.
    let previous = 0;
    let first = true;
    let position = 0;
    let sentenceStart = offset === 0;
    conceptSeq.length = 0;
    positionedCount = 0;
    if (positioned.length < text.length) positioned = new Int32Array(text.length);
    const length = text.length;
    // The words of /[\p{L}\p{N}]+/u, found with the character table (char-classes.ts) instead of
    // matchAll, whose match arrays were a fifth of the worker's allocations.
    let i = 0;
    while (i < length) {
      const start = i;
      // The word's hash (threatHashString over its code units) is computed as it is scanned.
      let h = THREAT_FNV_OFFSET ^ seedWord;
      while (i < length) {
        const c = codes[i + 1]!;
        // A letter or number of the BMP by the table, astral ones by the regex (see char-classes.ts).
        const width = isThreatSurrogate(c) ? threatCharWidth(text, i, WORD_FLAGS, WORD_CHAR) : (charTable[c]! & WORD_FLAGS) !== 0 ? 1 : 0;
        if (width === 0) break;
        h = Math.imul(h ^ c, THREAT_FNV_PRIME);
        if (width === 2) h = Math.imul(h ^ codes[i + 2]!, THREAT_FNV_PRIME);
        i += width;
      }
      if (i === start) {
        const c = codes[i + 1]!;
        // . ! ? : ; newline-like bullets and quotes open a sentence; a space keeps the state.
        if (c !== 0x20) sentenceStart = c < 0x80 ? ASCII_SENTENCE_OPENERS[c] === 1 : SENTENCE_OPENERS.has(c);
        i++;
        continue;
      }
      if (config.positionWeight > 0) {
        const tag = (offset + start < config.headChars ? 0 : 2) + (sentenceStart ? 1 : 0);
        positioned[positionedCount++] = threatFmix32(threatHashPair(h, tag, seedPosition)) & mask;
      }
      sentenceStart = false;
      countBucket(threatFmix32(h) & mask);
      if (config.wordNgramMax >= 2 && !first) countBucket(threatFmix32(threatHashPair(previous, h, seedBigram)) & mask);
      previous = h;
      first = false;
      // The word is cut out only when the lexicon has a word or prefix that starts like it.
      if (lexicon.mayStart(codes[start + 1]!, i - start > 1 ? codes[start + 2]! : 0xffff)) {
        const concept = lexicon.lookupCodes(codes, start + 1, i + 1);
        if (concept >= 0) conceptSeq.push(concept, position);
      }
      position++;
    }
  };

  // Concept uni-, bi- and trigrams; each step may skip at most 3 non-concept words.
  const conceptGrams = (): void => {
    const max = config.conceptNgramMax;
    for (let i = 0; i < conceptSeq.length; i += 2) {
      let h = threatFmix32(seedConcept ^ (conceptSeq[i]! + 1));
      countBucket(h & mask);
      for (let n = 2, j = i + 2; n <= max && j < conceptSeq.length; n++, j += 2) {
        if (conceptSeq[j + 1]! - conceptSeq[j - 1]! > 4) break;
        h = threatFmix32(Math.imul(h ^ (conceptSeq[j]! + 1), THREAT_FNV_PRIME) ^ n);
        countBucket(h & mask);
      }
    }
  };

  // The few signal names recur in every window: each one's bucket is hashed once.
  const signalBuckets = new Map<string, number>();
  const signalBucket = (name: string): number => {
    let bucket = signalBuckets.get(name);
    if (bucket === undefined) {
      bucket = threatFmix32(threatHashString(`sig:${name}`, seedSignal)) & mask;
      signalBuckets.set(name, bucket);
    }
    return bucket;
  };

  // The signals each window of windows() may match (threatSignalAnchors), found once per view; a
  // window made elsewhere is searched with every pattern.
  const anchors = threatSignalAnchors(signals);
  const windowMasks = new WeakMap<ThreatWindow, number>();
  // A de-obfuscated window → the base window with the same text and offset, and the base windows that have one.
  const twins = new WeakMap<ThreatWindow, ThreatWindow>();
  const hasTwins = new WeakSet<ThreatWindow>();
  const signalsOf = (window: ThreatWindow): ThreatSignalFamily[] => threatSignalsIn(window.text, signals, windowMasks.get(window) ?? -1);

  // The window's vector into outIndices/outValues[0, outCount); returns its signals. With `twin` (the
  // vector of a window with the same text and offset, and that window's signals) only the signal
  // entries are computed: every other group depends on the text and offset alone.
  const fillVector = (window: ThreatWindow, known?: readonly ThreatSignalFamily[], twin?: ThreatTwinVector): readonly ThreatSignalFamily[] => {
    outCount = 0;
    let found: readonly ThreatSignalFamily[];
    if (twin !== undefined) {
      reserveOut(twin.body);
      outIndices.set(twin.indices.subarray(0, twin.body));
      outValues.set(twin.values.subarray(0, twin.body));
      outCount = twin.body;
      found = twin.found;
    } else {
      loadCodes(window.text);
      charGrams(window.text.length);
      flush(config.charWeight);
      wordGrams(window.text, window.offset ?? 0);
      flush(config.wordWeight);
      if (config.positionWeight > 0) {
        for (let i = 0; i < positionedCount; i++) countBucket(positioned[i]!);
        flush(config.positionWeight);
      }
      if (config.conceptWeight > 0) {
        conceptGrams();
        flush(config.conceptWeight);
      }
      found = known ?? signalsOf(window);
    }
    if (config.signalWeight > 0) {
      for (const name of found) pushOut(signalBucket(name), config.signalWeight);
      for (const name of window.promptSignals) pushOut(signalBucket(name), config.signalWeight);
    }
    return found;
  };
  /** The part of the vector just filled that a twin window shares (all but the signal entries). */
  const bodyCount = (window: ThreatWindow, found: readonly ThreatSignalFamily[]): number =>
    config.signalWeight > 0 ? outCount - found.length - window.promptSignals.length : outCount;

  const vector = (window: ThreatWindow, known?: readonly ThreatSignalFamily[]): ThreatWindowVector => {
    const found = fillVector(window, known);
    return { indices: outIndices.slice(0, outCount), values: outValues.slice(0, outCount), signals: found as ThreatSignalFamily[] };
  };

  // One run's vectors side by side before they are padded (grows to the longest run seen).
  let runIndices = new Int32Array(0);
  let runValues = new Float32Array(0);
  const packedVectors = (windows: readonly ThreatWindow[], signals: readonly (readonly ThreatSignalFamily[])[]): ThreatPackedVectors => {
    const ends = new Int32Array(windows.length);
    let used = 0;
    let width = 1;
    // Where each window's vector starts in the run, for its twin later in the run.
    const placed = new Map<ThreatWindow, { start: number; body: number; found: readonly ThreatSignalFamily[] }>();
    for (let i = 0; i < windows.length; i++) {
      const twinOf = twins.get(windows[i]!);
      const twin = twinOf === undefined ? undefined : placed.get(twinOf);
      const found = fillVector(
        windows[i]!,
        signals[i],
        twin && { indices: runIndices.subarray(twin.start), values: runValues.subarray(twin.start), body: twin.body, found: twin.found },
      );
      if (hasTwins.has(windows[i]!)) placed.set(windows[i]!, { start: used, body: bodyCount(windows[i]!, found), found });
      if (used + outCount > runIndices.length) {
        const length = Math.max(2 * runIndices.length, used + outCount);
        const grownIndices = new Int32Array(length);
        grownIndices.set(runIndices.subarray(0, used));
        const grownValues = new Float32Array(length);
        grownValues.set(runValues.subarray(0, used));
        runIndices = grownIndices;
        runValues = grownValues;
      }
      runIndices.set(outIndices.subarray(0, outCount), used);
      runValues.set(outValues.subarray(0, outCount), used);
      used += outCount;
      ends[i] = used;
      if (outCount > width) width = outCount;
    }
    const indices = new Int32Array(windows.length * width);
    const values = new Float32Array(windows.length * width);
    for (let i = 0, start = 0; i < windows.length; start = ends[i]!, i++) {
      indices.set(runIndices.subarray(start, ends[i]!), i * width);
      values.set(runValues.subarray(start, ends[i]!), i * width);
    }
    return { indices, values, width };
  };

  // Short vectors (a repetitive text's) are carved from shared 64 KiB slabs, not two arrays each: an
  // array's own buffer is a malloc, an external-memory record and GC bookkeeping, which on thousands
  // of small windows cost about a tenth of the features. Longer vectors (prose) take two arrays: there
  // slabs measured slower.
  const SLAB_BYTES = 1 << 16;
  const SLAB_VECTOR_BYTES = 1 << 14;
  const extract = (prompt: string): ThreatPromptFeatures => {
    const rules = new Float32Array(THREAT_SIGNAL_FAMILIES.length);
    const all = windows(prompt);
    let slab = new ArrayBuffer(0);
    let used = 0;
    const done = new Map<ThreatWindow, ThreatTwinVector>();
    const vectors = all.map((w, k): ThreatSparseVector => {
      const twinOf = twins.get(w);
      const found = fillVector(w, undefined, twinOf === undefined ? undefined : done.get(twinOf));
      const bytes = 8 * outCount;
      let indices: Int32Array;
      let values: Float32Array;
      if (bytes > SLAB_VECTOR_BYTES) {
        indices = outIndices.slice(0, outCount);
        values = outValues.slice(0, outCount);
      } else {
        if (used + bytes > slab.byteLength) {
          // Room for the windows left at this one's size, so a short prompt takes one small slab.
          slab = new ArrayBuffer(Math.min(SLAB_BYTES, bytes * (all.length - k)));
          used = 0;
        }
        indices = new Int32Array(slab, used, outCount);
        values = new Float32Array(slab, used + 4 * outCount, outCount);
        used += bytes;
        indices.set(outIndices.subarray(0, outCount));
        values.set(outValues.subarray(0, outCount));
      }
      if (hasTwins.has(w)) done.set(w, { indices, values, body: bodyCount(w, found), found });
      for (const family of found) rules[THREAT_SIGNAL_FAMILIES.indexOf(family)] = 1;
      return { indices, values };
    });
    return { windows: vectors, rules };
  };

  const windows = (prompt: string): ThreatWindow[] => {
    const views = viewBuilder.views(prompt);
    const obfuscation: string[] = [];
    if (views.obfuscation.leet > 0) obfuscation.push('obf.leet');
    if (views.obfuscation.spaced > 0) obfuscation.push('obf.spaced');
    if (views.obfuscation.base64 > 0) obfuscation.push('obf.base64');
    const cut = (text: string, view: ThreatViewKind, promptSignals: string[]): ThreatWindow[] => {
      const starts = threatWindowStarts(text.length, config.windowChars, config.windowStride);
      const masks = anchors.windowMasks(text, starts, config.windowChars);
      return starts.map((offset, k) => {
        const window: ThreatWindow = { view, text: text.slice(offset, offset + config.windowChars), promptSignals, offset };
        windowMasks.set(window, masks[k]!);
        return window;
      });
    };
    const out = cut(views.base, 'base', obfuscation);
    if (views.deobfuscated !== undefined) {
      const deobfuscated = cut(views.deobfuscated, 'deobfuscated', [...obfuscation, 'view.deobfuscated']);
      // Leetspeak maps code units one for one, so the two views often have the same length and most
      // windows the same text at the same offset (a text with one e-mail address in it): such a window
      // reuses its twin's vector (fillVector).
      if (views.deobfuscated.length === views.base.length) {
        for (let k = 0; k < deobfuscated.length; k++) {
          if (deobfuscated[k]!.text !== out[k]!.text) continue;
          twins.set(deobfuscated[k]!, out[k]!);
          hasTwins.add(out[k]!);
        }
      }
      out.push(...deobfuscated);
    }
    for (const decoded of views.decoded) out.push(...cut(decoded, 'base64', [...obfuscation, 'view.base64']));
    return out;
  };

  return {
    config,
    windows,
    signals: signalsOf,
    vector,
    packedVectors,
    extract,
  };
}
