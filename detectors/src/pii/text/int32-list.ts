// Numbers gathered one by one in a scan (word offsets, digit-group bounds): a typed array that doubles
// when full. Pushing hundreds of thousands of items onto a JS array cost several times the scan
// itself, and sizing for the most items a text could hold made a big allocation for every text.
export class Int32List {
  private data = new Int32Array(256);
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
