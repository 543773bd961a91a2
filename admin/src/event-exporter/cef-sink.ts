// CEF destination: one CEF record per UDP datagram, or newline-terminated records on a TCP stream.
import type { CefConfig } from '@palisade/core';
import { formatCef } from './cef-format.js';
import type { ExportItem, Sink } from './sink.js';
import { createSocketTransport } from './socket-transport.js';

export function createCefSink(config: CefConfig): Sink {
  const transport = createSocketTransport({ protocol: config.protocol, host: config.host, port: config.port });
  return {
    chunkSize: 100,
    async send(items: readonly ExportItem[]) {
      const lines = items.map((i) => formatCef(i.event, config));
      await transport.send(lines.map((l) => Buffer.from(config.protocol === 'udp' ? l : `${l}\n`, 'utf8')));
    },
    close: () => transport.close(),
  };
}
