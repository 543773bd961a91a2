// A PII worker thread: the same in-process detector (detector.ts) run on the texts the pool sends,
// so a large text is scanned here and not on the event loop of the gateway.
import { serveWorker } from '../workers/serve.js';
import { createPiiDetector } from './detector.js';
import type { PiiDetectRequest, PiiDetectResponse } from './schema.js';
import type { PiiWorkerInit } from './worker-pool.js';

await serveWorker<PiiWorkerInit, PiiDetectRequest, PiiDetectResponse, null>(async (init) => {
  const detector = createPiiDetector(init.minScore === undefined ? {} : { minScore: init.minScore });
  return { ready: null, run: (request, signal) => detector.detect(request, { signal }) };
});
