// Type declarations for the pure-JS compression libraries the Kafka sink compresses with (and the test
// broker decompresses with); none of them ships its own.
declare module 'snappyjs' {
  export function compress<T extends ArrayBuffer | Uint8Array>(input: T): T;
  export function uncompress<T extends ArrayBuffer | Uint8Array>(input: T, maxLength?: number): T;
}

declare module 'lz4js' {
  /** Compresses to an LZ4 frame. */
  export function compress(input: Uint8Array | number[], maxSize?: number): Uint8Array | number[];
  /** Decompresses an LZ4 frame. */
  export function decompress(input: Uint8Array | number[], maxSize?: number): Uint8Array | number[];
}

declare module 'zstd-codec' {
  export interface ZstdSimple {
    compress(content: Uint8Array, level?: number): Uint8Array | null;
    decompress(compressed: Uint8Array): Uint8Array | null;
  }
  export interface ZstdStreaming {
    compress(content: Uint8Array, level?: number): Uint8Array | null;
    /** Also reads frames that do not record their content size (as zstd-jni's stream writes them). */
    decompress(compressed: Uint8Array, sizeHint?: number): Uint8Array | null;
  }
  export interface ZstdBinding {
    Simple: new () => ZstdSimple;
    Streaming: new () => ZstdStreaming;
  }
  export const ZstdCodec: { run(callback: (zstd: ZstdBinding) => void): void };
}
