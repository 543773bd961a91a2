// The local OTLP/HTTP receiver of the bench's traced scenarios, in a process of its own: it accepts
// every export (POST /v1/traces, protobuf) whole and answers an empty ExportTraceServiceResponse, as a
// collector does, so the gateway pays its exporter's real cost. GET /stats: exports and bytes received.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' } } });
let exports = 0;
let bytes = 0;
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ exports, bytes }));
    return;
  }
  if (req.method !== 'POST' || req.url !== '/v1/traces') {
    res.writeHead(404).end();
    return;
  }
  req.on('data', (chunk: Buffer) => (bytes += chunk.length));
  req.on('end', () => {
    exports++;
    res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  });
});
server.listen(Number(values.port ?? 4318), values.host, () => process.stdout.write(`otlp sink listening on ${values.host}:${values.port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
