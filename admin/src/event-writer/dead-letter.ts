// Entries the writer cannot store go to a dead-letter stream beside the source (`<stream>:dead`) rather
// than being dropped: a security record is evidence, and the usual cause — a gateway newer than the
// writer (an event type it does not know yet) — is fixed by replaying them after an upgrade.
import type { EventStream } from '@palisade/core';

export const DEAD_LETTER_SUFFIX = ':dead';

export const deadLetterStream = (stream: string): string => `${stream}${DEAD_LETTER_SUFFIX}`;

export interface DeadLetter {
  /** The id of the entry in the source stream. */
  entryId: string;
  payload: unknown;
  reason: string;
}

/**
 * The stored record: flat string fields (readable with redis-cli XRANGE), the payload as JSON so
 * that it can be re-appended to the source stream unchanged.
 */
export function deadLetterRecord(stream: string, consumer: string, letter: DeadLetter, now = new Date()): Record<string, string> {
  return {
    source_stream: stream,
    entry_id: letter.entryId,
    reason: letter.reason,
    payload: JSON.stringify(letter.payload) ?? 'null',
    writer: consumer,
    dead_lettered_at: now.toISOString(),
  };
}

/** Appends the letters, then trims the dead-letter stream to its newest maxLen entries. */
export async function sendToDeadLetter(
  events: EventStream,
  stream: string,
  consumer: string,
  letters: readonly DeadLetter[],
  maxLen: number,
): Promise<void> {
  if (letters.length === 0) return;
  const target = deadLetterStream(stream);
  for (const letter of letters) await events.append(target, deadLetterRecord(stream, consumer, letter));
  await events.trim(target, maxLen);
}
