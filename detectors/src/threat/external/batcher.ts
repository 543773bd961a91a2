// Dynamic batching: items submitted while the model is busy, or within a short window of each other,
// go to the model as one batch. One batch runs at a time, so under load batches fill up by themselves
// (the queue grows while a run is in flight) and a lone request waits at most `maxWaitMs`. A
// transformer on CPU or GPU scores a padded batch of 16 windows in far less than 16 single runs.

export interface DynamicBatcherOptions<T, R> {
  /** Most items in one run. */
  maxBatch: number;
  /** Longest a lone item waits for company before its batch runs. */
  maxWaitMs: number;
  /** Scores a batch; answers one result per item, in order. */
  run(items: T[]): Promise<R[]>;
}

export interface DynamicBatcher<T, R> {
  /** An item whose signal is aborted while it waits is dropped (rejected with the signal's reason), never run. */
  submit(item: T, signal?: AbortSignal): Promise<R>;
  /** Runs started so far (a metric, and what tests count). */
  readonly runs: number;
}

interface Waiting<T, R> {
  item: T;
  signal: AbortSignal | undefined;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export function createDynamicBatcher<T, R>(options: DynamicBatcherOptions<T, R>): DynamicBatcher<T, R> {
  const queue: Array<Waiting<T, R>> = [];
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let runs = 0;

  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (running) return;
    // A long prompt whose caller gave up (deadline, hang-up) must not hold the model for everyone else.
    for (let i = queue.length - 1; i >= 0; i--) {
      const waiting = queue[i]!;
      if (!waiting.signal?.aborted) continue;
      queue.splice(i, 1);
      waiting.reject(waiting.signal.reason ?? new DOMException('aborted', 'AbortError'));
    }
    if (queue.length === 0) return;
    running = true;
    runs += 1;
    const batch = queue.splice(0, options.maxBatch);
    options
      .run(batch.map((w) => w.item))
      .then(
        (results) => batch.forEach((w, i) => w.resolve(results[i]!)),
        (error: unknown) => batch.forEach((w) => w.reject(error)),
      )
      .finally(() => {
        running = false;
        // What queued during the run has waited long enough already.
        if (queue.length > 0) flush();
      });
  };

  return {
    get runs() {
      return runs;
    },
    submit(item, signal) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, signal, resolve, reject });
        if (running) return;
        if (queue.length >= options.maxBatch) flush();
        else timer ??= setTimeout(flush, options.maxWaitMs);
      });
    },
  };
}
