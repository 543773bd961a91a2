// A prompt's features as the model takes them, one run of windows at a time. Every window's signals are
// found first, because the prompt-level rule inputs come from all windows and go into every run; then
// each run's vectors are packed, handed over and dropped, so a long prompt holds one run's vectors, not
// all of them (a 1 MiB prompt's came to about 100 MB). The detector scores runs with this; the bench
// times it as the feature cost of a prompt.
import type { ThreatFeatureExtractor, ThreatRunVectors } from './features.js';
import { THREAT_LIMITS } from './limits.js';
import { THREAT_SIGNAL_FAMILIES, type ThreatSignalFamily } from './signals.js';

export interface ThreatRunsSummary {
  /** The signal families found in any window, in THREAT_SIGNAL_FAMILIES order. */
  signals: ThreatSignalFamily[];
  windows: number;
}

/**
 * One run: its vectors (end to end; padThreatRun pads them), how many windows they hold, and the
 * prompt's rule inputs. The arrays are reused by the next run: they are valid until the visitor's
 * promise settles.
 */
export type ThreatRunVisitor = (run: ThreatRunVectors, windows: number, rules: Float32Array) => Promise<void> | void;

export async function forEachThreatRun(
  extractor: ThreatFeatureExtractor,
  prompt: string,
  visit: ThreatRunVisitor,
  beforeRun: () => void = () => {},
): Promise<ThreatRunsSummary> {
  const windows = extractor.windows(prompt);
  const seen = new Set<ThreatSignalFamily>();
  const rules = new Float32Array(THREAT_SIGNAL_FAMILIES.length);
  const found = windows.map((w) => {
    const families = extractor.signals(w);
    for (const family of families) {
      seen.add(family);
      rules[THREAT_SIGNAL_FAMILIES.indexOf(family)] = 1;
    }
    return families;
  });
  // One pair of arrays for every run of this prompt, its own until it is given back (concurrent prompts never share one).
  const scratch = extractor.borrowScratch();
  try {
    for (let start = 0; start < windows.length; start += THREAT_LIMITS.windowsPerRun) {
      beforeRun();
      const end = Math.min(windows.length, start + THREAT_LIMITS.windowsPerRun);
      await visit(extractor.runVectors(windows.slice(start, end), found.slice(start, end), scratch), end - start, rules);
    }
  } finally {
    extractor.returnScratch(scratch);
  }
  return { signals: THREAT_SIGNAL_FAMILIES.filter((f) => seen.has(f)), windows: windows.length };
}
