// The callers of flush(): each waits until the emitter is idle, or until its own timeout.
export interface IdleWaiters {
  /** Resolves true once idle (at once when idle now), false when timeoutMs passes first. */
  wait(timeoutMs: number): Promise<boolean>;
  /** The emitter is idle: every waiter resolves true. */
  wake(): void;
}

export function createIdleWaiters(idle: () => boolean): IdleWaiters {
  const waiters = new Set<() => void>();
  return {
    wait(timeoutMs) {
      if (idle()) return Promise.resolve(true);
      return new Promise((resolve) => {
        const done = (drained: boolean): void => {
          clearTimeout(timer);
          waiters.delete(onIdle);
          resolve(drained);
        };
        const onIdle = (): void => done(true);
        const timer = setTimeout(() => done(false), timeoutMs);
        waiters.add(onIdle);
      });
    },
    wake() {
      for (const wake of [...waiters]) wake();
    },
  };
}
