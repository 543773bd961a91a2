// The pool's queue of inputs waiting for a free worker: first in, first out, O(1) per step (an array
// and a head index), and an input taken out by its id (an abort) without a scan: its array entry
// stays and is passed over when its turn comes.

export interface WaitingQueue<Job extends { id: number }> {
  /** Inputs still waiting. */
  readonly size: number;
  push(job: Job): void;
  /** The oldest input still waiting, taken out of the queue; undefined when none is. */
  next(): Job | undefined;
  /** Takes a waiting input out; false when it is not waiting (handed to a worker already). */
  remove(id: number): boolean;
  /** Takes every waiting input out, oldest first. */
  drain(): Job[];
}

export function createWaitingQueue<Job extends { id: number }>(): WaitingQueue<Job> {
  let queue: Job[] = [];
  let head = 0;
  // The inputs not yet handed out (insertion order = queue order).
  const waiting = new Map<number, Job>();
  const compact = () => {
    if (head === queue.length) {
      queue = [];
      head = 0;
    } else if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  };
  return {
    get size() {
      return waiting.size;
    },
    push(job) {
      waiting.set(job.id, job);
      queue.push(job);
    },
    next() {
      let found: Job | undefined;
      while (!found && head < queue.length) {
        const job = queue[head++]!;
        if (waiting.delete(job.id)) found = job; // else aborted while it waited
      }
      compact();
      return found;
    },
    remove: (id) => waiting.delete(id),
    drain() {
      const jobs = [...waiting.values()];
      waiting.clear();
      queue = [];
      head = 0;
      return jobs;
    },
  };
}
