// An HTTP answer's body read whole, up to a limit: a peer cannot make a client buffer without end.

/** The body's bytes, or undefined (the stream destroyed) once it passes `limit` bytes. */
export async function readLimited(body: AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => unknown }, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) {
      body.destroy?.();
      return undefined;
    }
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(chunks);
}
