/** The open/closed state of one bundle, shared by its facets (never module-level). */
import { StreamsError } from './types.js';

export class Lifecycle {
  private isClosed = false;
  private readonly onClose = new Set<() => void>();

  constructor(private readonly label: string) {}

  get closed(): boolean {
    return this.isClosed;
  }

  assertOpen(): void {
    if (this.isClosed) throw new StreamsError('CLOSED', `${this.label} streams bundle is closed`);
  }

  /** Runs fn on close (wakes blocked readers); returns a function that removes it. */
  whenClosed(fn: () => void): () => void {
    this.onClose.add(fn);
    return () => this.onClose.delete(fn);
  }

  /** Marks closed; false when it already was (close is idempotent). */
  markClosed(): boolean {
    if (this.isClosed) return false;
    this.isClosed = true;
    for (const fn of [...this.onClose]) fn();
    this.onClose.clear();
    return true;
  }
}
