// A threat worker thread: one in-thread detector (detector.ts) that scores the prompts the pool sends.
// Scoring is mostly synchronous feature extraction, so a worker takes one prompt after the other; a
// cancel aborts a long prompt between its onnxruntime chunks.
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { isPalisadeError } from '@palisade/core';
import { createThreatDetector } from './detector.js';
import type { ThreatWorkerFailure, ThreatWorkerInit, ThreatWorkerReply, ThreatWorkerRequest } from './worker-protocol.js';

const port = parentPort;
if (!port) throw new Error('worker-main.ts runs as a worker thread of the threat worker pool');

function failure(error: unknown): ThreatWorkerFailure {
  if (isPalisadeError(error)) return { code: error.code, message: error.message };
  if (error instanceof Error) return { message: error.message, name: error.name };
  return { message: String(error) };
}

const send = (reply: ThreatWorkerReply) => port.postMessage(reply);
const init = workerData as ThreatWorkerInit;

/**
 * Lowers this thread's CPU priority, so that on a busy machine the event loop (I/O of every request)
 * runs before inference. Linux allows a priority per thread: /proc/thread-self names this thread's
 * id. Elsewhere, or without permission, the thread keeps the process's priority.
 */
function lowerPriority(niceness: number): void {
  if (niceness === 0 || process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, Math.min(19, getPriority(tid) + niceness));
  } catch {
    // not permitted or no procfs: same priority as the event loop
  }
}
lowerPriority(init.niceness);

try {
  const detector = await createThreatDetector({
    device: init.device,
    intraOpThreads: init.intraOpThreads,
    ...(init.modelPath ? { modelPath: init.modelPath } : {}),
    logger: { warn: (message) => send({ type: 'warn', message }) },
  });
  const running = new Map<number, AbortController>();
  port.on('message', (message: ThreatWorkerRequest) => {
    if (message.type === 'cancel') {
      running.get(message.id)?.abort();
      return;
    }
    const controller = new AbortController();
    running.set(message.id, controller);
    detector
      .score(message.prompt, { signal: controller.signal })
      .then(
        (result) => send({ type: 'result', id: message.id, result }),
        (error: unknown) => send({ type: 'error', id: message.id, error: failure(error) }),
      )
      .finally(() => running.delete(message.id));
  });
  send({ type: 'ready', metadata: detector.metadata, device: detector.device, deviceInfo: detector.deviceInfo() });
} catch (error) {
  send({ type: 'start-failed', error: failure(error) });
}
