// Many patterns, one pass: RE2.Set answers which of its patterns match anywhere in a text with one
// automaton, so the cost of "which rules fire" does not grow rule by rule. Two safety nets keep it
// correct on hostile or huge sets: a set RE2 cannot build is split in halves (down to single
// patterns), and a set whose DFA runs out of memory while matching answers through its single regexes.
import RE2 from 're2';

/** The part of RE2.Set this module uses (tests inject failing ones). */
export interface SetMatcher {
  match(input: string | Buffer): number[];
}

export interface PatternSetOptions {
  /** Patterns per RE2.Set; smaller sets keep each DFA small. Default 512. */
  chunkSize?: number;
  /** Builds one set from RE2 sources; RE2.Set with the `u` flag by default. */
  buildSet?: (sources: readonly string[]) => SetMatcher;
}

export interface PatternSet {
  readonly size: number;
  /** Indices, ascending, of the patterns that match somewhere in the text. */
  match(text: string): number[];
}

const DEFAULT_CHUNK_SIZE = 512;

const buildRe2Set = (sources: readonly string[]): SetMatcher => new RE2.Set(sources, 'u');

interface Chunk {
  /** Index of the chunk's first pattern in the whole list. */
  offset: number;
  size: number;
  /** Undefined: RE2 could not build a set even for this chunk; its single regexes answer. */
  set: SetMatcher | undefined;
}

/** A failed build of a chunk larger than one pattern is retried as two halves. */
function buildChunks(sources: readonly string[], offset: number, size: number, build: PatternSetOptions['buildSet'] & {}, out: Chunk[]): void {
  try {
    out.push({ offset, size, set: build(sources.slice(offset, offset + size)) });
  } catch {
    if (size === 1) {
      out.push({ offset, size, set: undefined });
      return;
    }
    const half = Math.ceil(size / 2);
    buildChunks(sources, offset, half, build, out);
    buildChunks(sources, offset + half, size - half, build, out);
  }
}

/**
 * `sources[i]` and `singles[i]` must be the same pattern: the single regex (flags `gu`) is the fallback
 * for its chunk. The set holds references only; `singles` stays owned by the caller.
 */
export function createPatternSet(sources: readonly string[], singles: readonly RE2[], options: PatternSetOptions = {}): PatternSet {
  if (sources.length !== singles.length) throw new Error('createPatternSet: sources and singles differ in length');
  const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const build = options.buildSet ?? buildRe2Set;
  const chunks: Chunk[] = [];
  for (let offset = 0; offset < sources.length; offset += chunkSize) {
    buildChunks(sources, offset, Math.min(chunkSize, sources.length - offset), build, chunks);
  }

  const testSingles = (chunk: Chunk, text: string, out: number[]) => {
    for (let i = chunk.offset; i < chunk.offset + chunk.size; i++) {
      const regex = singles[i]!;
      regex.lastIndex = 0;
      if (regex.test(text)) out.push(i);
      regex.lastIndex = 0;
    }
  };

  return {
    size: sources.length,
    match(text: string): number[] {
      if (chunks.length === 0) return [];
      // One UTF-8 conversion for all chunks instead of one per set.
      const input = chunks.length > 1 ? Buffer.from(text, 'utf8') : text;
      const out: number[] = [];
      for (const chunk of chunks) {
        if (chunk.set === undefined) {
          testSingles(chunk, text, out);
          continue;
        }
        let hits: number[];
        try {
          hits = chunk.set.match(input);
        } catch {
          // RE2.Set gives up when its DFA exceeds its memory budget; single regexes fall back to NFA.
          testSingles(chunk, text, out);
          continue;
        }
        for (const hit of hits) out.push(chunk.offset + hit);
      }
      return out;
    },
  };
}
