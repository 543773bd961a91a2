// Detail retention: what an event keeps once its details are past detail_retention_days.
import type { SecurityEvent } from '@palisade/core';

/**
 * The event with its concrete PII replaced by the masks it already carries: each pii_entities value
 * becomes its `masked` form, and so does every occurrence of those values in user_prompt (matched by
 * value, not by offset, because offsets may refer to the normalised or translated text). Everything
 * else — type, decision, scores, offsets — stays for reports and investigations.
 */
export function scrubEventDetails(event: SecurityEvent): SecurityEvent {
  const entities = event.pii_entities ?? [];
  let prompt = event.user_prompt;
  if (typeof prompt === 'string') {
    // Longest first, so that a value containing another is masked whole.
    for (const entity of [...entities].sort((a, b) => b.value.length - a.value.length)) {
      if (entity.value) prompt = prompt.split(entity.value).join(entity.masked);
    }
  }
  return { ...event, user_prompt: prompt, pii_entities: entities.map((entity) => ({ ...entity, value: entity.masked })) };
}
