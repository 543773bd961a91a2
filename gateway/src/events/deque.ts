// A FIFO with O(1) push, shift and unshift (a failed append goes back to the front), so a buffer of
// tens of thousands of events during an outage costs no copying per event.
export class Deque<T> {
  private items: Array<T | undefined> = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  unshift(item: T): void {
    if (this.head > 0) this.items[--this.head] = item;
    else this.items.unshift(item);
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined; // let the event be collected
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      // Reclaim the consumed front once it is at least half of the array.
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Removes everything; returns how many items there were. */
  clear(): number {
    const n = this.length;
    this.items = [];
    this.head = 0;
    return n;
  }
}
