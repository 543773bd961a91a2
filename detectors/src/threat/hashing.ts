// 32-bit hashing for the feature hashing trick: FNV-1a over UTF-16 code units, finished with
// murmur3's fmix32 so that the low bits (the bucket) depend on every input bit.

export const THREAT_FNV_OFFSET = 0x811c9dc5;
export const THREAT_FNV_PRIME = 0x01000193;

/** One FNV-1a step: the hash `h` extended by the code unit `code`. */
export function threatFnvStep(h: number, code: number): number {
  return Math.imul(h ^ code, THREAT_FNV_PRIME);
}

/** murmur3's finaliser: an avalanche of the 32 bits. */
export function threatFmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a of a string, seeded, not finalised (feed it to threatFmix32 or combine it further). */
export function threatHashString(text: string, seed: number): number {
  let h = THREAT_FNV_OFFSET ^ seed;
  for (let i = 0; i < text.length; i++) h = threatFnvStep(h, text.charCodeAt(i));
  return h;
}

/** Two hashes combined into one (order matters: "a b" ≠ "b a"). */
export function threatHashPair(a: number, b: number, seed: number): number {
  return Math.imul(threatFmix32(a ^ seed) + 0x9e3779b9, 31) ^ b;
}
