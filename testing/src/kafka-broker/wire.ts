// Kafka wire primitives (big-endian fixed ints, int16-prefixed strings, int32-prefixed bytes and arrays,
// zig-zag varints). Hand-written: no Node package implements the server side of the Kafka protocol.

/** Thrown when a request cannot be parsed; the connection that sent it is closed. */
export class MalformedRequestError extends Error {
  override readonly name = 'MalformedRequestError';
}

export class WireReader {
  private offset = 0;

  constructor(private readonly buffer: Buffer) {}

  get remaining(): number {
    return this.buffer.length - this.offset;
  }

  private take(length: number): number {
    if (length < 0 || this.offset + length > this.buffer.length) {
      throw new MalformedRequestError(`truncated: wanted ${length} bytes at offset ${this.offset} of ${this.buffer.length}`);
    }
    const start = this.offset;
    this.offset += length;
    return start;
  }

  int8(): number {
    return this.buffer.readInt8(this.take(1));
  }

  int16(): number {
    return this.buffer.readInt16BE(this.take(2));
  }

  int32(): number {
    return this.buffer.readInt32BE(this.take(4));
  }

  uint32(): number {
    return this.buffer.readUInt32BE(this.take(4));
  }

  int64(): bigint {
    return this.buffer.readBigInt64BE(this.take(8));
  }

  boolean(): boolean {
    return this.int8() !== 0;
  }

  raw(length: number): Buffer {
    const start = this.take(length);
    return this.buffer.subarray(start, start + length);
  }

  rest(): Buffer {
    return this.raw(this.remaining);
  }

  nullableString(): string | null {
    const length = this.int16();
    if (length === -1) return null;
    if (length < 0) throw new MalformedRequestError(`negative string length ${length}`);
    return this.raw(length).toString('utf8');
  }

  string(): string {
    const value = this.nullableString();
    if (value === null) throw new MalformedRequestError('null where a string is required');
    return value;
  }

  nullableBytes(): Buffer | null {
    const length = this.int32();
    if (length === -1) return null;
    if (length < 0) throw new MalformedRequestError(`negative bytes length ${length}`);
    return this.raw(length);
  }

  bytes(): Buffer {
    return this.nullableBytes() ?? Buffer.alloc(0);
  }

  nullableArray<T>(readItem: (reader: WireReader) => T): T[] | null {
    const count = this.int32();
    if (count === -1) return null;
    // Each item takes at least one byte, so a count beyond the remaining bytes is a lie.
    if (count < 0 || count > this.remaining) throw new MalformedRequestError(`bad array length ${count}`);
    const items: T[] = [];
    for (let index = 0; index < count; index += 1) items.push(readItem(this));
    return items;
  }

  array<T>(readItem: (reader: WireReader) => T): T[] {
    return this.nullableArray(readItem) ?? [];
  }

  /** Zig-zag varint as used inside RecordBatch v2 (at most 32 bits). */
  varint(): number {
    const value = this.varlong();
    if (value > 0x7fffffffn || value < -0x80000000n) throw new MalformedRequestError('varint out of 32-bit range');
    return Number(value);
  }

  /** Zig-zag varlong (at most 64 bits). */
  varlong(): bigint {
    let unsigned = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      const byte = this.buffer.readUInt8(this.take(1));
      unsigned |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return (unsigned >> 1n) ^ -(unsigned & 1n);
    }
    throw new MalformedRequestError('varint longer than 10 bytes');
  }

  varintBytes(): Buffer | null {
    const length = this.varint();
    if (length === -1) return null;
    if (length < 0) throw new MalformedRequestError(`negative varint length ${length}`);
    return Buffer.from(this.raw(length));
  }
}

export class WireWriter {
  private readonly chunks: Buffer[] = [];

  private push(size: number, write: (buffer: Buffer) => void): this {
    const buffer = Buffer.alloc(size);
    write(buffer);
    this.chunks.push(buffer);
    return this;
  }

  int8(value: number): this {
    return this.push(1, (b) => b.writeInt8(value));
  }

  int16(value: number): this {
    return this.push(2, (b) => b.writeInt16BE(value));
  }

  int32(value: number): this {
    return this.push(4, (b) => b.writeInt32BE(value));
  }

  int64(value: bigint | number): this {
    return this.push(8, (b) => b.writeBigInt64BE(BigInt(value)));
  }

  boolean(value: boolean): this {
    return this.int8(value ? 1 : 0);
  }

  raw(buffer: Buffer): this {
    this.chunks.push(buffer);
    return this;
  }

  nullableString(value: string | null): this {
    if (value === null) return this.int16(-1);
    const encoded = Buffer.from(value, 'utf8');
    return this.int16(encoded.length).raw(encoded);
  }

  nullableBytes(value: Buffer | null): this {
    if (value === null) return this.int32(-1);
    return this.int32(value.length).raw(value);
  }

  array<T>(items: readonly T[], writeItem: (writer: this, item: T) => void): this {
    this.int32(items.length);
    for (const item of items) writeItem(this, item);
    return this;
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}
