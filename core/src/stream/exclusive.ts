// One-at-a-time execution for a consumer loop (event writer, exporter workers): the loop's cycles
// and an on-demand drain share held entries, so they must never overlap. A failed run does not stop
// the next one.

/** Runs `fn` after every run handed in before it has settled; resolves or rejects as `fn` does. */
export type Exclusive = <T>(fn: () => Promise<T>) => Promise<T>;

export function createExclusive(): Exclusive {
  let last: Promise<unknown> = Promise.resolve();
  return (fn) => {
    const run = last.then(fn, fn);
    last = run.catch(() => undefined);
    return run;
  };
}
