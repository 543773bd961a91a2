// The thread that sends a process's span batches to the OTLP collector (otlp-exporter.ts): each
// message is one serialized batch, answered with the export's result under the same id.
import { parentPort } from 'node:worker_threads';
import { Agent } from 'undici';
import { postOtlpBatch, type OtlpPost } from './otlp-post.js';

export interface OtlpExportMessage {
  id: number;
  post: OtlpPost;
  data: Uint8Array;
  timeoutMs: number;
}

const port = parentPort;
if (!port) throw new Error('the OTLP export worker runs as a worker thread');
const dispatcher = new Agent({ connections: 4 });
port.on('message', (message: OtlpExportMessage) => {
  void postOtlpBatch(message.post, dispatcher, message.data, message.timeoutMs)
    .catch((error: unknown) => ({ status: 'failure' as const, message: error instanceof Error ? error.message : String(error) }))
    .then((result) => port.postMessage({ id: message.id, result }));
});
