// A threat worker thread: one in-thread detector (detector.ts) that scores the prompts the pool sends.
// Scoring is mostly synchronous feature extraction, so a worker takes one prompt after the other; a
// cancel aborts a long prompt between its onnxruntime chunks.
import { serveWorker } from '../workers/serve.js';
import { createThreatDetector, type ThreatScoreResult } from './detector.js';
import type { ThreatWorkerInit, ThreatWorkerReady } from './worker-protocol.js';

await serveWorker<ThreatWorkerInit, string, ThreatScoreResult, ThreatWorkerReady>(async (init, warn) => {
  const detector = await createThreatDetector({
    device: init.device,
    intraOpThreads: init.intraOpThreads,
    ...(init.modelPath ? { modelPath: init.modelPath } : {}),
    logger: { warn },
  });
  return {
    ready: { metadata: detector.metadata, device: detector.device, deviceInfo: detector.deviceInfo() },
    run: (prompt, signal) => detector.score(prompt, { signal }),
  };
});
