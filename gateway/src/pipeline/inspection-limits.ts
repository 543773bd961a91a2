// What the gateway inspects whole, and the refusal of anything longer: a prompt is never forwarded
// because it was too long to inspect (a detector's size refusal is not a "detector error" that
// action_on_detector_error may pass). The profile's max_inspected_chars bounds the mapped text; each
// detector's own input limit bounds the normalized text, which NFKC can make longer (ﷺ → 18 chars).
import { PalisadeError, type Profile } from '@palisade/core';
import { CONTENT_POLICY_LIMITS, PII_MAX_TEXT_BYTES, THREAT_LIMITS } from '@palisade/detectors';

const formatCount = (n: number) => n.toLocaleString('en-US');

function tooLarge(message: string, details: Record<string, unknown>): PalisadeError {
  return new PalisadeError('PAYLOAD_TOO_LARGE', { message, details });
}

/** Before any work: the mapped prompt against the profile's max_inspected_chars. */
export function checkPromptSize(profile: Profile, promptChars: number): void {
  const limit = profile.max_inspected_chars;
  if (promptChars <= limit) return;
  throw tooLarge(
    `The prompt holds ${formatCount(promptChars)} characters; profile ${profile.name} inspects at most ${formatCount(limit)} (max_inspected_chars), so it is refused rather than forwarded uninspected`,
    { max_inspected_chars: limit, prompt_chars: promptChars },
  );
}

const overLimit = (profile: Profile, detector: string, limit: string, size: string) =>
  tooLarge(
    `The normalized prompt is ${size}; the ${detector} inspects at most ${limit}, so the request is refused rather than forwarded uninspected (profile ${profile.name}, max_inspected_chars ${formatCount(profile.max_inspected_chars)})`,
    { max_inspected_chars: profile.max_inspected_chars, detector },
  );

/** The text the threat model reads (the translation, when one was made) against its limit. */
export function checkThreatLimit(profile: Profile, forThreat: string): void {
  if (profile.threat_detection.enabled && forThreat.length > THREAT_LIMITS.maxPromptChars) {
    throw overLimit(profile, 'threat detector', `${formatCount(THREAT_LIMITS.maxPromptChars)} characters`, `${formatCount(forThreat.length)} characters`);
  }
}

/**
 * After normalization: the normalized text against the limits of the detectors that read it (the
 * threat model's text is checked by checkThreatLimit, once it is known).
 */
export function checkDetectorLimits(profile: Profile, normalized: string, withPolicies: boolean): void {
  if (withPolicies && normalized.length > CONTENT_POLICY_LIMITS.maxTextLength) {
    throw overLimit(profile, 'content policy service', `${formatCount(CONTENT_POLICY_LIMITS.maxTextLength)} characters`, `${formatCount(normalized.length)} characters`);
  }
  // UTF-8 is at most 3 bytes per UTF-16 unit: only a long text needs counting.
  if (profile.pii.enabled && normalized.length * 3 > PII_MAX_TEXT_BYTES) {
    const bytes = Buffer.byteLength(normalized, 'utf8');
    if (bytes > PII_MAX_TEXT_BYTES) throw overLimit(profile, 'PII detector', `${formatCount(PII_MAX_TEXT_BYTES)} bytes of UTF-8`, `${formatCount(bytes)} bytes of UTF-8`);
  }
}

/** A detector that answered 413 (an HTTP detector deployed with smaller limits): the request is refused. */
export function isSizeRefusal(error: unknown): boolean {
  return error instanceof PalisadeError && (error.code === 'PAYLOAD_TOO_LARGE' || error.status === 413);
}
