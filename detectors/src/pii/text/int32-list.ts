// Numbers gathered one by one in a scan (word offsets, digit-group bounds): a typed array that doubles
// when full. Pushing hundreds of thousands of items onto a JS array cost several times the scan
// itself, and sizing for the most items a text could hold made a big allocation for every text.
// It starts at 16 items (64 bytes), the most V8 keeps inside its own heap: a bigger typed array gets
// a buffer of its own outside it, and allocating one per list was 1.7 % of the gateway's time on
// short prompts and answers.
export class Int32List {
  private data = new Int32Array(16);
  private size = 0;

  push(value: number): void {
    if (this.size === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.size++] = value;
  }

  /** The items so far, without a copy. */
  view(): Int32Array {
    return this.data.subarray(0, this.size);
  }
}
