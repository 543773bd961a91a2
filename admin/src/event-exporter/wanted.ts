// Which security events an exporter sends at all: none while it is disabled (its cursor keeps
// moving), none from before it existed, and of the rest those its filters match.
import { matchesFilters, type Exporter, type SecurityEvent } from '@palisade/core';

export function exporterWants(exporter: Exporter): (event: SecurityEvent) => boolean {
  const createdAt = Date.parse(exporter.created_at);
  return (event) => {
    if (!exporter.enabled) return false;
    // A new exporter's group starts at the beginning of the retained stream; it exports events from
    // its creation on, not the history (which is in the admin API and the reports).
    if (Date.parse(event.timestamp) < createdAt) return false;
    return matchesFilters(event, exporter.filters);
  };
}
