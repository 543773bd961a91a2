// One detector call under the profile's detector_timeout_ms, reduced to the outcome the decision
// point reads: ok, timeout, error, or unavailable (a 503: content safety without a GPU, a service that
// is not deployed — spec: tolerated and skipped).
import { performance } from 'node:perf_hooks';
import { inSpan, isPalisadeError, SpanKind, type TraceContext, type Tracer } from '@palisade/core';
import type { DetectorOutcome } from '../decision/index.js';

export interface RunDetectorOptions {
  /** Failures that are not a detector outcome but the request's own (a size refusal): thrown on. */
  rethrow?: (error: unknown) => boolean;
  /** With traces on: the call is a span `detector <name>` (its HTTP call carries the span's traceparent). */
  tracer?: Tracer | undefined;
  /** The span context the detector span hangs under (the request's, or the response scan's). */
  parent?: TraceContext | undefined;
  /** The detector's name in the span (threat, pii, content_policy, content_safety). */
  detector?: string;
}

/** `call` gets the abort signal and the trace context to hand to the detector (undefined with traces off). */
export type DetectorCall<R> = (signal: AbortSignal, traceContext: TraceContext | undefined) => Promise<R>;

/**
 * One timer and one abort signal for the detectors a stage starts together under the same
 * detector_timeout_ms: a controller, a timer and a timeout promise per detector were a measurable part
 * of what an inspected request allocates, and outlived the young generation often enough to be promoted.
 */
export interface DetectorDeadline {
  readonly signal: AbortSignal;
  /** Settles with 'timeout' when the time is up (aborting the signal first); never, once ended before. */
  readonly expired: Promise<'timeout'>;
  /** Stops the timer; with a reason, also aborts the calls still running (their stage has failed). */
  end(reason?: Error): void;
}

export function startDetectorDeadline(timeoutMs: number): DetectorDeadline {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`detector timeout of ${timeoutMs} ms`));
      resolve('timeout');
    }, timeoutMs);
  });
  return {
    signal: controller.signal,
    expired,
    end(reason) {
      clearTimeout(timer);
      if (reason && !controller.signal.aborted) controller.abort(reason);
    },
  };
}

/**
 * Runs a stage's detectors under one deadline (see DetectorDeadline), ended when the stage settles; a
 * stage that throws (a size refusal) aborts the detector calls it leaves running.
 */
export async function withDetectorDeadline<T>(timeoutMs: number, stage: (deadline: DetectorDeadline) => Promise<T>): Promise<T> {
  const deadline = startDetectorDeadline(timeoutMs);
  try {
    return await stage(deadline);
  } catch (error) {
    deadline.end(new Error('the inspection stage failed'));
    throw error;
  } finally {
    deadline.end();
  }
}

/** One detector call under `deadline`, shared with the other detectors of its stage. */
export function runDetector<R>(call: DetectorCall<R>, deadline: DetectorDeadline, options: RunDetectorOptions = {}): Promise<DetectorOutcome<R>> {
  const { tracer, parent } = options;
  if (!tracer || !parent) return runUntraced((signal) => call(signal, undefined), deadline, options);
  const detector = options.detector ?? 'detector';
  return inSpan(
    tracer,
    parent,
    `detector ${detector}`,
    async (ctx, span) => {
      const outcome = await runUntraced((signal) => call(signal, ctx), deadline, options);
      span?.setAttributes({ 'palisade.detector.status': outcome.status, ...('latency_ms' in outcome ? { 'palisade.detector.latency_ms': outcome.latency_ms } : {}) });
      return outcome;
    },
    { kind: SpanKind.CLIENT, attributes: { 'palisade.detector': detector } },
  );
}

async function runUntraced<R>(call: (signal: AbortSignal) => Promise<R>, deadline: DetectorDeadline, options: RunDetectorOptions = {}): Promise<DetectorOutcome<R>> {
  const started = performance.now();
  const latency = () => Math.round((performance.now() - started) * 1000) / 1000;
  try {
    const result = await Promise.race([call(deadline.signal), deadline.expired]);
    if (result === 'timeout') return { status: 'timeout', latency_ms: latency() };
    return { status: 'ok', latency_ms: latency(), result };
  } catch (error) {
    if (deadline.signal.aborted) return { status: 'timeout', latency_ms: latency() };
    if (options.rethrow?.(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (isPalisadeError(error) && error.code === 'SERVICE_UNAVAILABLE') return { status: 'unavailable', latency_ms: latency(), error: message };
    return { status: 'error', latency_ms: latency(), error: message };
  }
}
