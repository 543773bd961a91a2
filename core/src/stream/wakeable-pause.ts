// The back-off pause of a consumer loop (event writer, exporter workers): a timer that stop() can cut
// short, so stopping never waits out a retry delay.
export interface WakeablePause {
  /** Resolves after `ms`, or at once when wake() is called meanwhile. */
  pause(ms: number): Promise<void>;
  /** Ends the pause in progress, if any. */
  wake(): void;
}

export function createWakeablePause(): WakeablePause {
  let wakeUp: (() => void) | undefined;
  return {
    pause(ms) {
      return new Promise((resolve) => {
        const timer = setTimeout(done, ms);
        function done(): void {
          clearTimeout(timer);
          wakeUp = undefined;
          resolve();
        }
        wakeUp = done;
      });
    },
    wake() {
      wakeUp?.();
    },
  };
}
