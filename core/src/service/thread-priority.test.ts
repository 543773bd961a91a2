import { readdirSync } from 'node:fs';
import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import t from 'tap';
import { currentThreadId, lowerHelperThreadsPriority, lowerThreadPriority } from './thread-priority.js';

const linux = process.platform === 'linux';

function otherThreads(): number[] {
  return readdirSync('/proc/self/task').map(Number).filter((tid) => tid !== process.pid);
}

t.test('the main thread keeps its priority; the other threads run below it, and only once', { skip: linux ? false : 'thread priorities are per thread on Linux only' }, async (t) => {
  // A worker that lowered itself already, as a detector worker does, must not be lowered again.
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads'); const os = require('node:os'); const fs = require('node:fs');
     const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
     os.setPriority(tid, Math.min(19, os.getPriority(tid) + 2));
     parentPort.postMessage(tid); setInterval(() => {}, 1000);`,
    { eval: true },
  );
  const workerTid = await new Promise<number>((resolve) => worker.once('message', resolve));
  t.teardown(() => worker.terminate());
  const eventLoop = getPriority(process.pid);
  t.equal(getPriority(workerTid), Math.min(19, eventLoop + 2));

  const atEventLoop = otherThreads().filter((tid) => getPriority(tid) === eventLoop);
  t.ok(atEventLoop.length > 0, 'Node has helper threads at the event loop priority (V8 platform threads)');
  t.equal(lowerHelperThreadsPriority(3), atEventLoop.length, 'each of them lowered');
  t.equal(getPriority(process.pid), eventLoop, 'the event loop keeps its priority');
  for (const tid of atEventLoop) t.equal(getPriority(tid), Math.min(19, eventLoop + 3), `helper ${tid} three steps below`);
  t.equal(getPriority(workerTid), Math.min(19, eventLoop + 2), 'a thread that lowered itself is left alone');
  t.equal(lowerHelperThreadsPriority(3), 0, 'a second call lowers nothing that was lowered');
  t.equal(lowerHelperThreadsPriority(0), 0, '0 turns it off');
});

t.test('a thread knows its own id; a thread that does not exist is not lowered', { skip: linux ? false : 'Linux only' }, async (t) => {
  t.equal(currentThreadId(), process.pid, 'the main thread id is the process id');
  t.equal(lowerThreadPriority(2 ** 30, 1), false);
  t.equal(lowerThreadPriority(process.pid, 0), false, 'no change asked');
});
