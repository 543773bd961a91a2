// The feature extractor: a prompt → its scored windows → one sparse hashed vector per window. The
// learned head (the ONNX model) gathers one weight row per non-zero index, so the vector never exists
// in dense form. The configuration is stored in the model's metadata: training and serving must agree.
import { createThreatViewBuilder } from './deobfuscate.js';
import { type ThreatBase64Options, THREAT_BASE64_DEFAULTS } from './deobfuscate-base64.js';
import { createThreatConceptLexicon, THREAT_CONCEPTS, type ThreatConcept } from './concepts.js';
import { createThreatFeatureAccumulator } from './feature-accumulator.js';
import { createThreatCharGrams } from './feature-char-grams.js';
import { createThreatVectorPacking, type ThreatTwinVector } from './feature-packing.js';
import { createThreatWindowCutter } from './feature-windows.js';
import { createThreatWordGrams } from './feature-word-grams.js';
import { threatFmix32, threatHashString } from './hashing.js';
import { THREAT_SIGNALS, threatSignalAnchors, threatSignalsIn, type ThreatSignal, type ThreatSignalFamily } from './signals.js';

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
   * makes of their vector()s, without an array pair per window. `signals[i]` are window i's. With
   * `scratch`, the result is written into its arrays (grown when too short) and views of them are
   * returned, valid until the scratch is used again: a long prompt's runs reuse one pair of arrays.
   */
  packedVectors(windows: readonly ThreatWindow[], signals: readonly (readonly ThreatSignalFamily[])[], scratch?: ThreatPackedScratch): ThreatPackedVectors;
  /**
   * The vectors of `windows` end to end, as the JavaScript head reads them (packedVectors() is these,
   * padded): no window pays for the longest one's width. With `scratch`, written into its arrays.
   */
  runVectors(windows: readonly ThreatWindow[], signals: readonly (readonly ThreatSignalFamily[])[], scratch?: ThreatPackedScratch): ThreatRunVectors;
  /** windows() then vector() of each, and the rule inputs. */
  extract(prompt: string): ThreatPromptFeatures;
  /**
   * A scratch for packedVectors() that no one else holds until it is given back: a few are kept for
   * reuse, so the runs of one prompt after another, and of concurrent prompts, write into arrays
   * already paged in (a fresh array pair per prompt cost a tenth of a 2 KB prompt's features).
   */
  borrowScratch(): ThreatPackedScratch;
  /** Gives a scratch of borrowScratch() back; its arrays must not be read after this. */
  returnScratch(scratch: ThreatPackedScratch): void;
}

export interface ThreatPackedVectors {
  indices: Int32Array;
  values: Float32Array;
  width: number;
}

/**
 * One run's window vectors end to end: window i's entries are [ends[i - 1], ends[i]) (from 0 for the
 * first); `width` is the longest window's entry count (at least 1), the width padding would give.
 */
export interface ThreatRunVectors {
  indices: Int32Array;
  values: Float32Array;
  ends: Int32Array;
  width: number;
  /** The scratch's arrays for the padded copy (padThreatRun), when the run was written into a scratch. */
  padInto?: { indices: Int32Array; values: Float32Array };
}

/**
 * Arrays runVectors() and packedVectors() may write into instead of allocating (see there); replaced
 * when they grow. `indices`/`values` take the run's vectors end to end, `padded` the padded copy.
 */
export interface ThreatPackedScratch {
  indices: Int32Array;
  values: Float32Array;
  padded?: { indices: Int32Array; values: Float32Array };
}

export interface ThreatFeatureExtractorOptions {
  signals?: readonly ThreatSignal[];
  concepts?: readonly ThreatConcept[];
  base64?: ThreatBase64Options;
}

/** Scratches an extractor keeps for reuse (see borrowScratch). */
const MAX_SPARE_SCRATCHES = 4;

/**
 * Builds an extractor from its parts: the window cutter (feature-windows.ts), the accumulator the
 * groups are counted and flushed in (feature-accumulator.ts), the character and word groups
 * (feature-char-grams.ts, feature-word-grams.ts) and the copying out (feature-packing.ts). Extraction
 * is synchronous, so one extractor can serve concurrent requests.
 */
export function createThreatFeatureExtractor(
  config: ThreatFeatureConfig = DEFAULT_THREAT_FEATURE_CONFIG,
  options: ThreatFeatureExtractorOptions = {},
): ThreatFeatureExtractor {
  const mask = 2 ** config.dimensionsLog2 - 1;
  const signals = options.signals ?? THREAT_SIGNALS;
  const seed = (group: number): number => threatFmix32(config.hashSeed ^ group);
  const accumulator = createThreatFeatureAccumulator(config, signals.length);
  const { out, countAll, flush } = accumulator;
  const chars = createThreatCharGrams(config, seed(0x01), countAll);
  const words = createThreatWordGrams(
    config,
    { word: seed(0x02), bigram: seed(0x03), concept: seed(0x05), position: seed(0x06) },
    createThreatConceptLexicon(options.concepts ?? THREAT_CONCEPTS),
    countAll,
  );
  const seedSignal = seed(0x04);
  const cutter = createThreatWindowCutter(config, createThreatViewBuilder(options.base64 ?? THREAT_BASE64_DEFAULTS), threatSignalAnchors(signals));

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
  // A window made by windows() is searched only for the signals its anchors allow, any other with every pattern.
  const signalsOf = (window: ThreatWindow): ThreatSignalFamily[] => threatSignalsIn(window.text, signals, cutter.maskOf(window));

  // Where the last window whose character n-grams were counted lies: the next window of the same view
  // overlaps it (the char group checks the code units, as a window given to vector() may come from anywhere).
  let lastCountedView: ThreatViewKind | undefined;
  let lastCountedOffset = 0;

  // The window's vector into out; returns its signals. With `twin` (the vector of a window with the
  // same body: see bodyKey) only the signal entries are computed, from the twin's signals when it
  // carries them, else from the window's.
  const fill = (window: ThreatWindow, known?: readonly ThreatSignalFamily[], twin?: ThreatTwinVector): readonly ThreatSignalFamily[] => {
    out.count = 0;
    let found: readonly ThreatSignalFamily[];
    if (twin !== undefined) {
      accumulator.reserve(twin.body);
      out.indices.set(twin.indices.subarray(0, twin.body));
      out.values.set(twin.values.subarray(0, twin.body));
      out.count = twin.body;
      found = twin.found ?? known ?? signalsOf(window);
    } else {
      const offset = window.offset ?? 0;
      chars.load(window.text);
      chars.count(window.text.length, window.view === lastCountedView ? offset - lastCountedOffset : 0);
      lastCountedView = window.view;
      lastCountedOffset = offset;
      flush(config.charWeight);
      words.countWords(chars.codes, window.text, window.offset ?? 0);
      flush(config.wordWeight);
      if (config.positionWeight > 0) {
        words.countPositions();
        flush(config.positionWeight);
      }
      if (config.conceptWeight > 0) {
        words.countConcepts();
        flush(config.conceptWeight);
      }
      found = known ?? signalsOf(window);
    }
    if (config.signalWeight > 0) {
      for (const name of found) accumulator.push(signalBucket(name), config.signalWeight);
      for (const name of window.promptSignals) accumulator.push(signalBucket(name), config.signalWeight);
    }
    return found;
  };
  // Every group but the signals depends on the window's text and, through the position group, on its
  // offset only where the offset is 0 (a sentence opens there) or within the head: past both, windows
  // with the same text have the same body. Repetitive text (a table, a log, a run of one pattern) has
  // few distinct windows, and each run computes each of them once.
  const bodyKey = (window: ThreatWindow): string | undefined => {
    const offset = window.offset ?? 0;
    return offset > 0 && offset >= config.headChars ? window.text : undefined;
  };
  const bodyCount = (window: ThreatWindow, found: readonly ThreatSignalFamily[]): number =>
    config.signalWeight > 0 ? out.count - found.length - window.promptSignals.length : out.count;

  const vector = (window: ThreatWindow, known?: readonly ThreatSignalFamily[]): ThreatWindowVector => {
    const found = fill(window, known);
    return { indices: out.indices.slice(0, out.count), values: out.values.slice(0, out.count), signals: found as ThreatSignalFamily[] };
  };
  const { runVectors, packedVectors, extract } = createThreatVectorPacking({ out, fill, bodyKey, bodyCount, cutter });

  // Scratches given back, at most as many as prompts are usually in flight at once on one extractor.
  const spareScratches: ThreatPackedScratch[] = [];
  const borrowScratch = (): ThreatPackedScratch => spareScratches.pop() ?? { indices: new Int32Array(0), values: new Float32Array(0) };
  const returnScratch = (scratch: ThreatPackedScratch): void => {
    if (spareScratches.length < MAX_SPARE_SCRATCHES) spareScratches.push(scratch);
  };

  return {
    config,
    borrowScratch,
    returnScratch,
    windows: cutter.windows,
    signals: signalsOf,
    vector,
    runVectors,
    packedVectors,
    extract,
  };
}
