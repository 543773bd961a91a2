// A detector's outcome → its result, or the profile's fail-safe settings applied in its place:
// timeout → action_on_timeout, error → action_on_detector_error (README.md, "Detector failures").
import { BLOCK, addEvent, raise, type Findings } from './findings.js';
import type { DecisionDetector, DetectorOutcome } from './types.js';

const LABELS: Readonly<Record<DecisionDetector, string>> = {
  threat: 'threat detector',
  pii: 'PII detector',
  content_safety: 'content safety',
  content_policy: 'content policy service',
};

/**
 * The result of an `ok` outcome; null for anything else. A missing or skipped detector counts for
 * nothing. `unavailable` (a 503) is skipped silently for content safety, which answers 503 without a
 * GPU (spec); from any other detector it is an error, so a detector that is down cannot open the gate.
 */
export function usable<R>(f: Findings, detector: DecisionDetector, outcome: DetectorOutcome<R> | undefined): R | null {
  if (outcome === undefined) return null;
  switch (outcome.status) {
    case 'ok':
      return outcome.result;
    case 'skipped':
      return null;
    case 'unavailable':
      if (detector !== 'content_safety') detectorError(f, detector, `unavailable${outcome.error ? `: ${outcome.error}` : ''}`);
      return null;
    case 'timeout':
      detectorTimeout(f, detector);
      return null;
    case 'error':
      detectorError(f, detector, outcome.error);
      return null;
  }
}

/** FAIL_SAFE_TRIGGERED whichever way action_on_timeout goes: a check was replaced by a setting. */
function detectorTimeout(f: Findings, detector: DecisionDetector): void {
  const action = f.profile.action_on_timeout;
  const reason = `${LABELS[detector]} did not answer within ${f.profile.detector_timeout_ms} ms; action_on_timeout ${action}`;
  f.reasons.push(reason);
  if (action === 'block') raise(f, BLOCK, true);
  addEvent(f, 'FAIL_SAFE_TRIGGERED', action === 'block' ? 'BLOCK' : 'PASS', [reason]);
}

/** DETECTOR_ERROR always; FAIL_SAFE_TRIGGERED too, as for a timeout. */
function detectorError(f: Findings, detector: DecisionDetector, error: string): void {
  const action = f.profile.action_on_detector_error;
  const reason = `${LABELS[detector]} failed (${error}); action_on_detector_error ${action}`;
  f.reasons.push(reason);
  if (action === 'block') raise(f, BLOCK, true);
  const eventAction = action === 'block' ? 'BLOCK' : 'PASS';
  const reasons = [reason];
  addEvent(f, 'DETECTOR_ERROR', eventAction, reasons);
  addEvent(f, 'FAIL_SAFE_TRIGGERED', eventAction, reasons);
}
