/**
 * The one timer of an upstream exchange. When it fires (or the caller aborts) the exchange in flight
 * is aborted through the hook it registered. An AbortSignal is made only when something asks for one
 * (the OAuth token fetch): most calls never need it, and a controller per call is measurable on the
 * hot path.
 */
export class Deadline {
  private controller: AbortController | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly caller: AbortSignal | undefined;
  private onAbortHook: ((reason: Error) => void) | undefined;
  private readonly onCallerAbort = (): void => this.abortByCaller(new Error('the request was aborted by the caller'));
  reason: Error | undefined;
  timedOut = false;
  callerAborted = false;

  constructor(
    readonly ms: number,
    caller?: AbortSignal,
  ) {
    this.timer = setTimeout(() => {
      const reason = new Error(`upstream deadline of ${ms} ms passed`);
      reason.name = 'TimeoutError';
      this.timedOut = true;
      this.abort(reason);
    }, ms);
    this.caller = caller;
    if (caller?.aborted) this.onCallerAbort();
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  /** Aborted together with the deadline. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.reason) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** The exchange now in flight: called at once if the deadline already passed. */
  onAbort(hook: (reason: Error) => void): void {
    this.onAbortHook = hook;
    if (this.reason) hook(this.reason);
  }

  abortByCaller(reason: Error): void {
    if (this.reason) return;
    this.callerAborted = true;
    this.abort(reason);
  }

  private abort(reason: Error): void {
    if (this.reason) return;
    this.reason = reason;
    this.controller?.abort(reason);
    this.onAbortHook?.(reason);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.onAbortHook = undefined;
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}
