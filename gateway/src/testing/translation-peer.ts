// A translation service peer on 127.0.0.1 port 0 for the client and normalizer tests: it answers by
// the text it gets, the way the real service answers (its routes, bodies and status codes), so the
// client's handling of each answer is exercised over real HTTP.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TranslationPeer {
  url: string;
  requests: Array<{ headers: IncomingMessage['headers']; body: { text: string; source_lang: string; target_lang: string } }>;
  close(): Promise<void>;
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

/**
 * Text containing: "[503]" → 503 no model; "[400]" → 400 unserved pair; "[500]" → 500; "[hang]" → no answer; "[reset]" → socket destroyed. Else: the text reversed word by word, marked "EN:".
 * `holdUntil`: each request is answered only once it settles (a test's way to see what a caller does meanwhile).
 */
export async function startTranslationPeer(options: { holdUntil?: Promise<unknown> } = {}): Promise<TranslationPeer> {
  const hold = options.holdUntil ?? Promise.resolve();
  const requests: TranslationPeer['requests'] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => void hold.then(() => {
      if (req.method !== 'POST' || req.url !== '/api/v1/translate') return send(res, 404, { error: { code: 'NOT_FOUND', message: 'no route' } });
      const body = JSON.parse(raw) as TranslationPeer['requests'][number]['body'];
      requests.push({ headers: req.headers, body });
      if (body.text.includes('[503]')) return send(res, 503, { error: { code: 'SERVICE_UNAVAILABLE', message: 'No translation model: TRANSLATION_MODEL_DIR is not set' } });
      if (body.text.includes('[400]')) return send(res, 400, { error: { code: 'VALIDATION_ERROR', message: 'No translation model for xx-en', details: [{ path: 'source_lang', message: 'not served' }] } });
      if (body.text.includes('[500]')) return send(res, 500, { error: { code: 'INTERNAL_ERROR', message: 'Internal error' } });
      if (body.text.includes('[hang]')) return;
      if (body.text.includes('[reset]')) return req.socket.destroy();
      send(res, 200, { translation: `EN: ${body.text.split(' ').reverse().join(' ')}`, source_lang: body.source_lang, target_lang: body.target_lang, model: 'peer', latency_ms: 1 });
    }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
