import t from 'tap';
import { isPalisadeError, PiiType } from '@palisade/core';
import { createPiiDetector } from './detector.js';
import { generatePiiCorpus } from './eval/corpus.js';
import type { PiiDetectRequest } from './schema.js';
import { createPiiWorkerDetector, PII_INLINE_MAX_CHARS } from './worker-pool.js';

const corpus = generatePiiCorpus({ seed: 18, size: 3000 });
const plain = corpus.filter((s) => !s.systemPrompt);
const leaks = corpus.filter((s) => s.systemPrompt && s.entities.some((e) => e.type === 'SYSTEM_PROMPT_LEAK'));

/** Sample texts one after the other, in paragraphs, up to about `size` UTF-8 bytes. */
function longText(samples: typeof corpus, size: number, from = 0): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = from; length < size; i++) {
    const text = samples[i % samples.length]!.text;
    parts.push(text);
    length += Buffer.byteLength(text) + 2;
  }
  return parts.join('\n\n');
}

/** Large requests that hold every PII type between them (a leak needs its system prompt). */
function largeRequests(): PiiDetectRequest[] {
  const leak = leaks[0]!;
  return [
    { text: longText(plain, 200_000), direction: 'input' },
    { text: longText(plain, 300_000, 700), direction: 'output', language: 'ru' },
    { text: `${longText(plain, 100_000, 1500)}\n\n${leak.text}\n\n${longText(plain, 60_000, 40)}`, direction: 'output', system_prompt: leak.systemPrompt! },
    { text: longText(plain, 1_040_000, 300), direction: 'input' },
  ];
}

let workers: ReturnType<typeof createPiiWorkerDetector>;
t.before(() => {
  workers = createPiiWorkerDetector({ workers: 1 });
});
t.teardown(() => workers.close());

t.test('a short text stays inline: no worker starts for it', async (t) => {
  const answer = await workers.detect({ text: 'Write to ivan.petrov@example.com' });
  t.equal(answer.entities[0]?.type, 'EMAIL');
  t.equal(workers.stats().workers, 0);
  t.ok(PII_INLINE_MAX_CHARS >= 16 * 1024 && PII_INLINE_MAX_CHARS <= 64 * 1024);
});

t.test('large texts with every PII type: the same findings inline and in a worker', async (t) => {
  const inline = createPiiDetector();
  const found = new Set<string>();
  for (const request of largeRequests()) {
    t.ok(request.text.length > PII_INLINE_MAX_CHARS);
    const expected = await inline.detect(request);
    const actual = await workers.detect(request);
    t.same(actual, expected, `${request.text.length} characters, ${request.direction}`);
    for (const entity of actual.entities) found.add(entity.type);
  }
  t.equal(workers.stats().workers, 1, 'the long texts went to the worker');
  t.same([...found].sort(), [...PiiType.options].sort(), 'every type was among the findings');
});

t.test('the event loop turns while a worker scans a 1 MiB text', async (t) => {
  const text = longText(plain, 1_040_000, 11);
  const order: string[] = [];
  // Set before the call: an inline scan would finish (and its answer come back) before any timer.
  const timer = new Promise<void>((resolve) => setTimeout(() => resolve(void order.push('timer')), 0));
  const detected = workers.detect({ text }).then(() => order.push('detected'));
  await Promise.all([timer, detected]);
  t.same(order, ['timer', 'detected']);
});

t.test('aborts: a queued text is never scanned, a running one answers at once and the pool goes on', async (t) => {
  const text = longText(plain, 900_000, 5);
  const running = new AbortController();
  const queued = new AbortController();
  const first = workers.detect({ text }, { signal: running.signal });
  const second = workers.detect({ text }, { signal: queued.signal });
  // The pool starts the long text's work on a later turn (validation, then the queue).
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(workers.stats().inFlight, 2);
  queued.abort(new Error('deadline'));
  await t.rejects(second, { message: 'deadline' });
  t.equal(workers.stats().inFlight, 1, 'out of the queue before the worker took it');
  running.abort(new Error('detector timeout'));
  await t.rejects(first, { message: 'detector timeout' });
  t.equal(workers.stats().inFlight, 0, 'the caller stopped waiting; the late result will be dropped');
  const already = new AbortController();
  already.abort();
  await t.rejects(workers.detect({ text }, { signal: already.signal }), { name: 'AbortError' });
  const again = await workers.detect({ text: `${'x'.repeat(PII_INLINE_MAX_CHARS)} ivan.petrov@example.com` });
  t.equal(again.entities[0]?.type, 'EMAIL', 'the worker still answers');
});

t.test('bad or too large requests are refused by the calling thread, as inline', async (t) => {
  const tooLarge = await workers.detect({ text: 'я'.repeat(600_000) }).catch((e: unknown) => e);
  t.ok(isPalisadeError(tooLarge) && tooLarge.code === 'PAYLOAD_TOO_LARGE');
  const bad = await workers.detect({ text: 'x'.repeat(PII_INLINE_MAX_CHARS + 1), direction: 'sideways' } as never).catch((e: unknown) => e);
  t.ok(isPalisadeError(bad) && bad.status === 400);
});

t.test('closed: 503 for a long text', async (t) => {
  const closing = createPiiWorkerDetector({ workers: 1 });
  await closing.close();
  const error = await closing.detect({ text: 'x'.repeat(PII_INLINE_MAX_CHARS + 1) }).catch((e: unknown) => e);
  t.ok(isPalisadeError(error) && error.code === 'SERVICE_UNAVAILABLE');
});
