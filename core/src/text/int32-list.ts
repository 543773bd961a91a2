// Numbers gathered one by one in a scan (PII word offsets and digit-group bounds, the threat
// de-obfuscation's address `@` signs): a typed array that doubles when full. Pushing hundreds of
// thousands of items onto a JS array cost several times the scan itself (a 1 MiB text of `@://` spent
// half its threat views pushing the `@` positions), and sizing for the most items a text could hold
// made a big allocation for every text.
// It starts at 16 items (64 bytes), the most V8 keeps inside its own heap: a bigger typed array gets
// a buffer of its own outside it, and allocating one per list was 1.7 % of the gateway's time on
// short prompts and answers.
//
// A plain object and functions rather than a class: the scans that built instances of a class were
// deoptimised at every full collection ("weak objects") and ran unoptimised on their next text until
// recompiled; with an object literal their code survives collections. The leak rule's word reader on
// a 1 MiB answer took 23 ms between collections and 35 to 80 ms after each one.

export interface Int32List {
  data: Int32Array;
  size: number;
}

export const newInt32List = (): Int32List => ({ data: new Int32Array(16), size: 0 });

export function pushInt32(list: Int32List, value: number): void {
  if (list.size === list.data.length) {
    const grown = new Int32Array(list.data.length * 2);
    grown.set(list.data);
    list.data = grown;
  }
  list.data[list.size++] = value;
}

/** The items so far, without a copy. */
export const int32View = (list: Int32List): Int32Array => list.data.subarray(0, list.size);
