// CRC-32C (Castagnoli), the checksum of Kafka RecordBatch v2. Hand-written because node:zlib only offers
// CRC-32 (IEEE) and no CRC-32C package is installed; a table-driven loop is all it takes.

const CASTAGNOLI_REVERSED = 0x82f63b78;

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let index = 0; index < 256; index += 1) {
    let value = index;
    for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? (value >>> 1) ^ CASTAGNOLI_REVERSED : value >>> 1;
    table[index] = value >>> 0;
  }
  return table;
})();

export function crc32c(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
