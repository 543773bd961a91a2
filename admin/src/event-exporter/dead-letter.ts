// Events an exporter could not deliver after its retries (a webhook answering 5xx max_retries times, a
// 4xx, a Kafka broker refusing the record) go to `<stream>:exporter-dead` with the exporter's id,
// instead of vanishing: an operator can read them (redis-cli XRANGE) and re-send them. A separate stream
// from the event writer's `<stream>:dead`: replaying those would re-deliver to every exporter.
import type { EventStream } from '@palisade/core';

export const EXPORTER_DEAD_LETTER_SUFFIX = ':exporter-dead';
export const exporterDeadLetterStream = (stream: string): string => `${stream}${EXPORTER_DEAD_LETTER_SUFFIX}`;

export interface ExporterDeadLetter {
  entryId: string;
  payload: unknown;
}

/** Flat string fields, readable with redis-cli; payload is the original stream payload as JSON. */
export function exporterDeadLetterRecord(stream: string, exporter: { id: string; name: string; type: string }, letter: ExporterDeadLetter, reason: string, now: Date): Record<string, string> {
  return {
    source_stream: stream,
    entry_id: letter.entryId,
    exporter_id: exporter.id,
    exporter_name: exporter.name,
    exporter_type: exporter.type,
    reason,
    payload: JSON.stringify(letter.payload) ?? 'null',
    dead_lettered_at: now.toISOString(),
  };
}

export async function sendExporterDeadLetters(
  events: EventStream,
  stream: string,
  exporter: { id: string; name: string; type: string },
  letters: readonly ExporterDeadLetter[],
  reason: string,
  maxLen: number,
  now: Date,
): Promise<void> {
  if (letters.length === 0) return;
  const target = exporterDeadLetterStream(stream);
  for (const letter of letters) await events.append(target, exporterDeadLetterRecord(stream, exporter, letter, reason, now));
  await events.trim(target, maxLen);
}
