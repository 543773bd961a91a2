// close(): one last try at the stream, then what is left goes to the spill for the next start, or,
// without one, is dropped and said.
import type { EventSpill } from './spill/spill.js';
import type { EventBuffer } from './emitter-buffer.js';
import type { StreamOutage } from './emitter-outage.js';
import type { EmitterContext } from './emitter-types.js';

export interface EmitterShutdownOptions extends EmitterContext {
  buffer: EventBuffer;
  outage: StreamOutage;
  pump(): void;
  flush(timeoutMs: number): Promise<boolean>;
  /** From here on nothing more is appended or spilled. */
  abandon(): void;
}

export async function shutDownEmitter(options: EmitterShutdownOptions, timeoutMs: number): Promise<void> {
  const { spill, buffer, outage } = options;
  // Retry at once instead of waiting out a long backoff: this is the last chance. With a spill and
  // the stream down, there is nothing to wait for: what is left goes to disk for the next start.
  outage.hurry();
  options.pump();
  const drained = spill !== undefined && outage.degraded ? (buffer.runBuilds(), false) : await options.flush(timeoutMs);
  options.abandon();
  outage.stop();
  if (spill !== undefined) leaveInSpill(options, spill, drained);
  else if (!drained) dropUnsent(options);
}

function leaveInSpill({ stream, logger, buffer }: EmitterShutdownOptions, spill: EventSpill, drained: boolean): void {
  const left = [...buffer.takeInFlight(), ...buffer.takeQueued()];
  for (const e of left) spill.push(e);
  spill.writePending();
  spill.rewind(); // a replay round still out stays in the journal
  const { bytes } = spill.stats;
  spill.close();
  if (!drained) logger?.warn({ stream, spilled_now: left.length, spill_bytes: bytes }, 'event emitter closed with security events in the spill journal; they are sent when the gateway starts again');
}

function dropUnsent({ stream, logger, counts, buffer }: EmitterShutdownOptions): void {
  const left = buffer.clearQueue();
  counts.dropped += left;
  logger?.error({ stream, dropped: left, in_flight: buffer.inFlight }, `event emitter closed with ${left} security events not appended`);
}
