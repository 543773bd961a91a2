// A threat worker for worker-pool.test.ts that dies on purpose: the real worker, except that the
// prompt "__exit__" ends the thread before it is scored (a crash as the pool sees one).
import { parentPort } from 'node:worker_threads';
import type { WorkerRequest } from '../workers/protocol.js';

parentPort?.on('message', (message: WorkerRequest<string>) => {
  if (message.type === 'run' && message.input === '__exit__') process.exit(3);
});
await import('../threat/worker-main.js');
