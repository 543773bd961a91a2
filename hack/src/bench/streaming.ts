// The streaming scenario: the mock streams a 500-token answer at a steady pace, and streams are
// requested one at a time, alternately through the bare proxy and through the gateway (incremental
// response scanning). Measured: time to the first answer token and to the end marker, and a leak
// counter: personal data of the answer that reached the client unmasked through the gateway (must be 0).
import { performance } from 'node:perf_hooks';
import { request } from 'undici';

/** Values the answer carries: the gateway's response scanning masks them all. */
export const STREAM_SECRETS = ['anna.schmidt@example.com', '+7 916 123-45-67', '4111 1111 1111 1111'];

/** Prose to fill the answer with (words ending in digits would read as possible numbers, which prose rarely has). */
const FILLER = 'the quarterly report covers revenue churn and support volume across all regions and the team expects a fix soon'.split(' ');

/** A `tokens`-word answer with a secret every `every` words. */
export function streamedAnswer(tokens: number, every = 100): string {
  const words: string[] = [];
  for (let i = 0; i < tokens; i++) {
    words.push(i > 0 && i % every === 0 ? STREAM_SECRETS[(i / every - 1) % STREAM_SECRETS.length]! : FILLER[i % FILLER.length]!);
  }
  return words.join(' ');
}

export interface StreamTiming {
  /** From the request to the first non-empty answer delta, ms. */
  ttftMs: number;
  /** From the request to the end of the body, ms. */
  totalMs: number;
  /** Secrets present unmasked in what the client received. */
  leaks: number;
  /** The answer text as the client reassembled it. */
  text: string;
  /** The gateway's X-Service-Processing-Ms: its request inspection, before the upstream call. */
  inspectionMs: number | undefined;
}

/** One streamed chat completion: times and what it carried. */
export async function timeStream(url: string, body: string, headers: Record<string, string>): Promise<StreamTiming> {
  const started = performance.now();
  const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${(await res.body.text()).slice(0, 300)}`);
  const processing = Number(res.headers['x-service-processing-ms']);
  let raw = '';
  let text = '';
  let ttftMs = -1;
  let pending = '';
  for await (const chunk of res.body) {
    raw += chunk.toString();
    pending += chunk.toString();
    let cut = pending.indexOf('\n\n');
    while (cut >= 0) {
      const event = pending.slice(0, cut);
      pending = pending.slice(cut + 2);
      cut = pending.indexOf('\n\n');
      const data = event.split('\n').find((l) => l.startsWith('data: {'));
      if (!data) continue;
      const delta = (JSON.parse(data.slice(6)) as { choices?: Array<{ delta?: { content?: string } }> }).choices?.[0]?.delta?.content ?? '';
      if (delta !== '' && ttftMs < 0) ttftMs = performance.now() - started;
      text += delta;
    }
  }
  const totalMs = performance.now() - started;
  // In the reassembled text (a value split over several deltas) and in the raw bytes.
  const leaks = STREAM_SECRETS.reduce((n, secret) => n + Math.max(text.split(secret).length, raw.split(secret).length) - 1, 0);
  return { ttftMs, totalMs, leaks, text, inspectionMs: Number.isFinite(processing) ? processing : undefined };
}

export interface StreamingResult {
  runs: number;
  tokens: number;
  tokenDelayMs: number;
  bare: { ttftP50: number; totalP50: number };
  gateway: { ttftP50: number; totalP50: number; requestInspectionP50: number };
  /** Gateway TTFT p50 minus bare's, ms (goal ≤ 5). */
  ttftOverBareMs: number;
  /** Gateway total p50 over bare's, percent (goal ≤ 5). */
  totalOverBarePct: number;
  /** Secrets that reached the client through the gateway unmasked (must be 0). */
  leaks: number;
  /** Secrets the bare proxy passed (the answer really carried them). */
  bareSecrets: number;
}

const p50 = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};
const round = (n: number) => Math.round(n * 100) / 100;

export async function runStreamingScenario(options: {
  bareUrl: string;
  gatewayUrl: string;
  body: string;
  headers: Record<string, string>;
  runs: number;
  tokens: number;
  tokenDelayMs: number;
}): Promise<StreamingResult> {
  const answer = streamedAnswer(options.tokens);
  const headers = { ...options.headers, 'x-mock-reply': answer, 'x-mock-chunk-delay-ms': String(options.tokenDelayMs) };
  const bare: StreamTiming[] = [];
  const gateway: StreamTiming[] = [];
  // One warm-up stream each, then alternating, so both see the same machine state.
  await timeStream(options.bareUrl, options.body, headers);
  await timeStream(options.gatewayUrl, options.body, headers);
  for (let i = 0; i < options.runs; i++) {
    bare.push(await timeStream(options.bareUrl, options.body, headers));
    gateway.push(await timeStream(options.gatewayUrl, options.body, headers));
  }
  const b = { ttftP50: round(p50(bare.map((r) => r.ttftMs))), totalP50: round(p50(bare.map((r) => r.totalMs))) };
  const g = { ttftP50: round(p50(gateway.map((r) => r.ttftMs))), totalP50: round(p50(gateway.map((r) => r.totalMs))), requestInspectionP50: round(p50(gateway.map((r) => r.inspectionMs ?? Number.NaN))) };
  return {
    runs: options.runs,
    tokens: options.tokens,
    tokenDelayMs: options.tokenDelayMs,
    bare: b,
    gateway: g,
    ttftOverBareMs: round(g.ttftP50 - b.ttftP50),
    totalOverBarePct: round(((g.totalP50 - b.totalP50) / b.totalP50) * 100),
    leaks: gateway.reduce((n, r) => n + r.leaks, 0),
    bareSecrets: bare.reduce((n, r) => n + r.leaks, 0),
  };
}

export function renderStreaming(r: StreamingResult): string {
  return [
    `streaming (${r.runs} streams each, ${r.tokens} tokens, one every ${r.tokenDelayMs} ms):`,
    `  bare proxy     TTFT p50 ${r.bare.ttftP50} ms, total p50 ${r.bare.totalP50} ms`,
    `  gateway        TTFT p50 ${r.gateway.ttftP50} ms, total p50 ${r.gateway.totalP50} ms (incremental scanning; its request inspection p50 ${r.gateway.requestInspectionP50} ms)`,
    `  TTFT over bare ${r.ttftOverBareMs} ms (goal <= 5), total over bare ${r.totalOverBarePct} % (goal <= 5)`,
    `  leaks ${r.leaks} (must be 0; the bare proxy passed ${r.bareSecrets} secrets)`,
  ].join('\n');
}
