// The rows a model is trained on: the shippable rows of the training file plus the attack grammar's.
import { threatShippableRows, threatSourceGroup, type ThreatTrainingRow } from './dataset.js';
import { createThreatRandom } from './prng.js';
import { generateSynthRows } from './synth/grammar.js';

export interface ThreatCorpus {
  /** Rows that train the shipped model (licence_ok file rows and grammar rows). */
  training: ThreatTrainingRow[];
  /** File rows whose licence keeps them out of the shipped model (development checks only). */
  excluded: ThreatTrainingRow[];
}

export interface ThreatCorpusOptions {
  synth: { seed: number; pairs: number };
  /**
   * At most this many rows per source group and label, sampled with `seed`. Large benign corpora
   * (XQuAD, CLINC, the Prompt Engineering Guide) and BIPIA's table attacks add little after a few
   * hundred rows but dominate the training time and, for BIPIA, what the model learns.
   */
  capPerGroup: number;
  seed: number;
}

export function threatCorpus(fileRows: readonly ThreatTrainingRow[], options: ThreatCorpusOptions): ThreatCorpus {
  const shippable = threatShippableRows(fileRows);
  const kept = new Set(shippable);
  return {
    training: capThreatGroups([...shippable, ...generateSynthRows(options.synth)], options.capPerGroup, options.seed),
    excluded: fileRows.filter((r) => !kept.has(r)),
  };
}

/** Rows with at most `cap` per (source group, label), the kept ones chosen by a seeded shuffle, in file order. */
export function capThreatGroups(rows: readonly ThreatTrainingRow[], cap: number, seed: number): ThreatTrainingRow[] {
  const order = createThreatRandom(seed).shuffle(rows.map((_, i) => i));
  const taken = new Map<string, number>();
  const keep = new Uint8Array(rows.length);
  for (const i of order) {
    const key = `${threatSourceGroup(rows[i]!.source)}|${rows[i]!.label}`;
    const n = taken.get(key) ?? 0;
    if (n >= cap) continue;
    taken.set(key, n + 1);
    keep[i] = 1;
  }
  return rows.filter((_, i) => keep[i] === 1);
}
