// Where the inspection time of a call goes: normalization, each detector, the decision, and the whole,
// per side of the call. A Prometheus histogram, so operators see it and the benchmark prints the split
// from the same numbers (mean = _sum / _count between two scrapes).
import { Counter, Histogram, type Registry } from 'prom-client';

/** turn_wait: time a CPU stage waited for a loop turn under load (scheduling/turn-slicer.ts), once per wait. */
export const INSPECTION_STAGES = ['turn_wait', 'normalize', 'threat', 'pii', 'content_policy', 'content_safety', 'decision', 'total'] as const;
export type InspectionStage = (typeof INSPECTION_STAGES)[number];
export type InspectionSide = 'request' | 'response';

export const INSPECTION_STAGE_METRIC = 'palisade_inspection_stage_seconds';
export const DETECTOR_OUTCOME_METRIC = 'palisade_detector_outcomes_total';
export const DECISION_METRIC = 'palisade_decisions_total';
export const FAIL_SAFE_METRIC = 'palisade_fail_safe_triggered_total';

export interface InspectionTimings {
  observe(side: InspectionSide, stage: InspectionStage, ms: number): void;
  /** One detector outcome (ok, timeout, error, unavailable, skipped). */
  outcome(side: InspectionSide, detector: string, status: string): void;
  /** The effective decision of one side, and whether the fail-safe made it. */
  decided(side: InspectionSide, decision: string, failSafe: boolean): void;
  /** Adds the histogram to a service's registry (the gateway's /metrics). */
  register(registry: Registry): void;
}

export function createInspectionTimings(): InspectionTimings {
  // Built unregistered: the inspector exists before the service whose registry shows it.
  const histogram = new Histogram({
    name: INSPECTION_STAGE_METRIC,
    help: 'Time spent per inspection stage (detectors run in parallel: their times overlap within total)',
    labelNames: ['side', 'stage'],
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [],
  });
  // One child per label pair, made once: observe() on the hot path does no label lookup.
  const children = new Map<string, ReturnType<typeof histogram.labels>>();
  for (const side of ['request', 'response'] as const) for (const stage of INSPECTION_STAGES) children.set(`${side}:${stage}`, histogram.labels(side, stage));
  const outcomes = new Counter({
    name: DETECTOR_OUTCOME_METRIC,
    help: 'Detector calls by outcome: ok, timeout, error, unavailable (503), skipped (off in the profile)',
    labelNames: ['side', 'detector', 'status'],
    registers: [],
  });
  const decisions = new Counter({ name: DECISION_METRIC, help: 'Inspected calls by effective decision, per side', labelNames: ['side', 'decision'], registers: [] });
  const failSafe = new Counter({ name: FAIL_SAFE_METRIC, help: 'Decisions made by the fail-safe (a detector or the decision point failed)', labelNames: ['side'], registers: [] });
  return {
    observe(side, stage, ms) {
      children.get(`${side}:${stage}`)!.observe(ms / 1000);
    },
    outcome(side, detector, status) {
      outcomes.labels(side, detector, status).inc();
    },
    decided(side, decision, failSafeTriggered) {
      decisions.labels(side, decision).inc();
      if (failSafeTriggered) failSafe.labels(side).inc();
    },
    register(registry) {
      registry.registerMetric(histogram);
      registry.registerMetric(outcomes);
      registry.registerMetric(decisions);
      registry.registerMetric(failSafe);
    },
  };
}

/** The detector outcomes' latencies (when the detector ran) into the timings. */
export function observeOutcomes(
  timings: InspectionTimings,
  side: InspectionSide,
  outcomes: Partial<Record<'threat' | 'pii' | 'content_policy' | 'content_safety', { status: string; latency_ms?: number }>>,
): void {
  for (const [stage, outcome] of Object.entries(outcomes)) {
    if (!outcome) continue;
    timings.outcome(side, stage, outcome.status);
    if (outcome.latency_ms !== undefined) timings.observe(side, stage as InspectionStage, outcome.latency_ms);
  }
}
