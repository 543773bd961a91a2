// A real HTTP peer on 127.0.0.1 that answers 200 with a body far larger than any client should read:
// for the tests of bounded reads (a bundle store, a detector service, a model server that floods).
import { createServer } from 'node:http';

export interface FloodingPeer {
  url: string;
  /** Bytes handed to the socket for the latest answer. */
  sentBytes(): number;
  /** Whether the latest answer's connection closed before its body ended (the client hung up). */
  cutShort(): boolean;
  close(): Promise<void>;
}

/** Answers every request with up to `totalBytes` of `chunkBytes` chunks, honouring back-pressure. */
export async function startFloodingPeer(options: { totalBytes: number; chunkBytes?: number; contentType?: string }): Promise<FloodingPeer> {
  const chunk = Buffer.alloc(options.chunkBytes ?? 64 * 1024, 0x20);
  let sent = 0;
  let cut = false;
  const server = createServer((_req, res) => {
    sent = 0;
    cut = false;
    res.on('close', () => (cut = !res.writableFinished));
    res.writeHead(200, { 'content-type': options.contentType ?? 'application/octet-stream' });
    const write = () => {
      while (!res.destroyed && sent < options.totalBytes) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', write);
      }
      res.end();
    };
    write();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    sentBytes: () => sent,
    cutShort: () => cut,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
