// The cost of tracing measured as a pair: the traced gateway and an untraced twin run side by side on
// one upstream, and the load alternates between them in short rounds (off, on, on, off, off, on, ...).
// Run one after the other, the two scenarios were minutes apart, and this machine's speed moved by more
// than the 5 % to be judged in that time (single-run ratios of one build ranged from 0.84 to 1.14);
// alternating rounds give the drift to both sides alike.
import type { Options } from './options.js';
import { readCpuSeconds } from './processes.js';
import { spec } from './requests.js';
import { runScenario, type Measurement } from './scenario.js';

export interface TracingPairRound {
  offRps: number;
  onRps: number;
}

/** Both sides' totals over every round: req/s and, when read, the gateway process's CPU per call. */
export interface TracingPair {
  rounds: TracingPairRound[];
  offRps: number;
  onRps: number;
  cpuMsPerRequest?: { off: number; on: number };
  /** Any round of either side with errors or non-2xx answers (the pair is then not judged). */
  failures: number;
}

export interface PairSide {
  url: string;
  pid: number | undefined;
}

/** Rounds of the pair: enough to alternate the order twice, each round long enough for a steady load. */
export const TRACING_PAIR_ROUNDS = 8;
const MIN_ROUND_SEC = 2;

interface SideTotals {
  requests: number;
  seconds: number;
  cpuSeconds: number;
  cpuRead: boolean;
}

/** One measured segment against one side: its requests, duration and the side's CPU seconds in it. */
export interface PairSegment {
  requests: number;
  durationSec: number;
  rps: number;
  /** The gateway process's CPU seconds over the segment; undefined when it could not be read. */
  cpuSeconds: number | undefined;
  failed: boolean;
}

/**
 * Warms the twin for as long as the traced side has already served and the traced side briefly, then
 * `rounds` rounds of `options.durationSec / rounds` seconds per side (at least 2 s), the order reversed
 * every round so that a steady drift of the machine's speed weighs on both sides alike.
 */
export async function measureTracingPair(off: PairSide, on: PairSide, options: Options, body: string, rounds = TRACING_PAIR_ROUNDS): Promise<TracingPair> {
  const roundSec = Math.max(MIN_ROUND_SEC, Math.round(options.durationSec / rounds));
  // The traced side has served the scenario's own run (warm-up and measured seconds) before the pair;
  // the twin serves as long first. With a short warm-up only, the twin lagged its traced sibling by
  // 2-12 % with tracing on but sampling nothing, a bias in tracing's favour.
  await runScenario({ ...spec(off.url, options, body), durationSec: options.warmupSec + options.durationSec, warmupSec: 0 });
  await runScenario({ ...spec(on.url, options, body), durationSec: options.warmupSec, warmupSec: 0 });
  return alternateRounds(rounds, async (side) => {
    const target = side === 'off' ? off : on;
    const cpuBefore = readCpuSeconds(target.pid);
    const m: Measurement = await runScenario({ ...spec(target.url, options, body), durationSec: roundSec, warmupSec: 0 });
    const cpuAfter = readCpuSeconds(target.pid);
    return {
      requests: m.requests,
      durationSec: m.durationSec,
      rps: m.rps,
      cpuSeconds: cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined,
      failed: m.errors > 0 || m.non2xx > 0,
    };
  });
}

/** The rounds (off then on, then on then off, …) and their totals, `segment` measuring one side once. */
export async function alternateRounds(rounds: number, segment: (side: 'off' | 'on') => Promise<PairSegment>): Promise<TracingPair> {
  const totals = { off: emptyTotals(), on: emptyTotals() };
  const results: TracingPairRound[] = [];
  let failures = 0;
  const measure = async (side: 'off' | 'on'): Promise<PairSegment> => {
    const m = await segment(side);
    const into = totals[side];
    into.requests += m.requests;
    into.seconds += m.durationSec;
    if (m.cpuSeconds !== undefined) into.cpuSeconds += m.cpuSeconds;
    else into.cpuRead = false;
    if (m.failed) failures++;
    return m;
  };
  for (let round = 0; round < rounds; round++) {
    const order: Array<'off' | 'on'> = round % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
    const first = await measure(order[0]!);
    const second = await measure(order[1]!);
    const [offM, onM] = order[0] === 'off' ? [first, second] : [second, first];
    results.push({ offRps: offM.rps, onRps: onM.rps });
  }
  const rps = (t: SideTotals) => (t.seconds > 0 ? t.requests / t.seconds : 0);
  const cpuMs = (t: SideTotals) => (t.requests > 0 ? (t.cpuSeconds * 1000) / t.requests : Number.NaN);
  const cpuRead = totals.off.cpuRead && totals.on.cpuRead;
  return {
    rounds: results,
    offRps: rps(totals.off),
    onRps: rps(totals.on),
    ...(cpuRead ? { cpuMsPerRequest: { off: cpuMs(totals.off), on: cpuMs(totals.on) } } : {}),
    failures,
  };
}

const emptyTotals = (): SideTotals => ({ requests: 0, seconds: 0, cpuSeconds: 0, cpuRead: true });
