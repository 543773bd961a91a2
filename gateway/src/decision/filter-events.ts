// Which of a decision's events are recorded (spec, "Security events" rules 1-2): a suppressible type
// listed in event_logging.disabled_event_types is dropped — the non-suppressible ones never are — and
// the ALLOW record (REQUEST_ALLOWED) is kept only with event_logging.log_allow_decisions.
import { isSuppressible, type Profile } from '@palisade/core';

export function filterEvents<E extends { event_type: string }>(events: readonly E[], profile: Pick<Profile, 'event_logging'>): E[] {
  const { disabled_event_types: disabled, log_allow_decisions: logAllow } = profile.event_logging;
  return events.filter(
    (e) =>
      (logAllow || e.event_type !== 'REQUEST_ALLOWED') &&
      !(disabled.length > 0 && isSuppressible(e.event_type) && (disabled as readonly string[]).includes(e.event_type)),
  );
}
