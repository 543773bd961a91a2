// What a valid profile does that its author may not expect. These are answered as warnings (the
// Admin API's and registry's `Warning: 299` headers, as a Kubernetes API server answers admission
// warnings), never refused: each combination is legitimate, only its effect is easy to miss.
import type { Profile } from './profile.js';

type WarnedSettings = Pick<Profile, 'response_scanning' | 'content_safety'>;

/** Whether answers are meant to be judged by the content-safety guard (either of the profile's two switches). */
export function contentSafetyOnAnswers(profile: WarnedSettings): boolean {
  return profile.content_safety.response_enabled || profile.response_scanning.content_safety_enabled;
}

export function profileWarnings(profile: WarnedSettings): string[] {
  const scanning = profile.response_scanning;
  const warnings: string[] = [];
  if (!scanning.enabled) {
    if (contentSafetyOnAnswers(profile)) warnings.push('content safety on responses is on, but response_scanning.enabled is false: answers are not checked');
    if (scanning.pii_mode !== 'disabled') warnings.push(`response_scanning.pii_mode is ${scanning.pii_mode}, but response_scanning.enabled is false: answers are not scanned for PII`);
    return warnings;
  }
  if (scanning.streaming === 'incremental' && contentSafetyOnAnswers(profile)) {
    warnings.push('response_scanning.streaming is incremental, but content safety on responses needs the whole answer: streamed answers are buffered and sent when complete');
  }
  if (scanning.streaming === 'buffer' && scanning.stream_holdback_chars !== null) {
    warnings.push('response_scanning.stream_holdback_chars has no effect while response_scanning.streaming is buffer');
  }
  return warnings;
}
