// Worker threads shared by the detectors that run off the event loop.
export { createWorkerPool, type WorkerPool, type WorkerPoolOptions, type WorkerPoolStats } from './pool.js';
export { serveWorker, type WorkerJob } from './serve.js';
export type { WorkerFailure, WorkerReply, WorkerRequest, WorkerStart } from './protocol.js';
