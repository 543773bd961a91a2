// Syslog destination: RFC 5424 or RFC 3164 lines over UDP (one datagram each) or TCP / TLS
// (octet-counting framing, RFC 6587).
import { hostname } from 'node:os';
import type { SyslogConfig } from '@palisade/core';
import type { ExportItem, Sink } from './sink.js';
import { createSocketTransport, splitHostPort } from './socket-transport.js';
import { formatSyslog, octetCounted, type SyslogOrigin } from './syslog-format.js';

export function createSyslogSink(config: SyslogConfig, origin: SyslogOrigin = { hostname: hostname(), procId: String(process.pid) }): Sink {
  const { host, port } = splitHostPort(config.address);
  const protocol = config.transport === 'udp' ? 'udp' : config.transport === 'tcp' ? 'tcp' : 'tls';
  const transport = createSocketTransport({ protocol, host, port, insecure: config.tls_insecure });
  return {
    chunkSize: 100,
    async send(items: readonly ExportItem[]) {
      const lines = items.map((i) => formatSyslog(i.event, i.mapped, config, origin));
      await transport.send(protocol === 'udp' ? lines.map((l) => Buffer.from(l, 'utf8')) : lines.map(octetCounted));
    },
    close: () => transport.close(),
  };
}
