// Speed of the detector: p50/p99 of one call on 4 KB texts of the eval corpus, the cost per KB at
// growing sizes (it should stay flat: linear cost), and the time of 1 MiB adversarial inputs built to
// make a backtracking scanner explode (long digit runs, "a@a." repeated, unterminated PEM headers…).
// speed-main.ts prints the figures; the bench of the issue reads them.
import { detectPii, type PiiDetectOptions } from './detect.js';
import { generatePiiCorpus } from './eval/corpus.js';

export const KB = 1024;
export const MIB = 1024 * 1024;

export interface PiiSpeedTargets {
  /** p99 of a 4 KB text, ms. */
  p99Ms4k: number;
  /** Each 1 MiB adversarial input, ms. */
  adversarialMs: number;
}
export const PII_SPEED_TARGETS: PiiSpeedTargets = { p99Ms4k: 0.3, adversarialMs: 100 };

export interface LatencyFigures {
  iterations: number;
  /** Wall-clock percentiles (what a caller waits, scheduling and GC pauses included). */
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  /** CPU-time p99 of the process (separates the detector's own cost from a busy machine's waits). */
  cpuP99Ms: number;
}

/**
 * A machine yardstick printed with the figures: 10^8 additions in a plain loop (about 40-80 ms on a
 * current desktop core). Speed figures of two machines compare only through it.
 */
export function calibrationMs(): number {
  const start = performance.now();
  let sum = 0;
  for (let i = 0; i < 1e8; i++) sum += i & 7;
  const ms = performance.now() - start;
  return sum < 0 ? -1 : ms;
}

export interface PiiSpeedReport {
  /** calibrationMs() on this machine. */
  calibrationMs: number;
  /** Typical 4 KB prompts (prose with about six entities): the figure the target applies to. */
  latency4k: LatencyFigures;
  /** 4 KB of eval samples back to back (about seventy entities): the worst realistic density. */
  latency4kDense: LatencyFigures;
  /** Cost per KB at each size; a flat column means cost linear in the text length. */
  scaling: Array<{ bytes: number; ms: number; msPerKb: number }>;
  adversarial: Array<{ name: string; bytes: number; ms: number; entities: number }>;
  /** 1 MiB of valid PII back to back: not adversarial, a heavy legitimate load (about 100 000 entities). */
  densePii?: { bytes: number; ms: number; entities: number };
}

/** 1 MiB of labelled numbers back to back ("ИНН 7707083893 тел 9161234567 …"). */
export const densePiiText = (size = MIB) => repeatTo('ИНН 7707083893 тел 9161234567 ', size);

export type PiiDetectFn = (text: string, options: PiiDetectOptions) => unknown;

/** Dense text of about `size` characters: eval corpus samples back to back (an entity every ~60 characters). */
export function denseText(size: number, seed = 1): string {
  const parts: string[] = [];
  let length = 0;
  for (const sample of generatePiiCorpus({ seed, size: Math.max(50, Math.ceil(size / 80)) })) {
    if (length >= size) break;
    parts.push(sample.text);
    length += sample.text.length + 2;
  }
  return parts.join('\n\n').slice(0, size);
}

const PROSE = [
  'Здравствуйте, у меня вопрос по работе личного кабинета, который не решился после прошлого обращения.',
  'Я уже пробовал перезагрузить приложение и очистить кэш, но ошибка повторяется при каждом входе.',
  'Подскажите, пожалуйста, что ещё можно сделать и нужно ли приходить в отделение лично.',
  'Please summarise the conversation below and suggest a reply that keeps a friendly tone.',
  'The customer says the payment went through on their side but the order still shows as pending.',
  'We would like the assistant to explain the refund policy in simple words and avoid legal jargon.',
  'Отчёт должен быть кратким: основные причины обращений, динамика по неделям и рекомендации.',
  'If anything in the request is unclear, ask one clarifying question before answering.',
];

/**
 * A typical 4 KB prompt: prose with a handful of entities (one corpus sample every ~600 characters,
 * so about six per 4 KB, with their decoys).
 */
export function typicalText(size: number, seed = 1): string {
  const samples = generatePiiCorpus({ seed, size: Math.max(20, Math.ceil(size / 400)) });
  let text = '';
  let s = 0;
  let p = seed;
  while (text.length < size) {
    text += PROSE[p++ % PROSE.length] + ' ';
    if (text.length > (s + 1) * 600 && s < samples.length) text += `${samples[s++]!.text}\n`;
  }
  return text.slice(0, size);
}

/** Realistic text for the scaling figures: the typical mix. */
export const realisticText = typicalText;

const repeatTo = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

/** Inputs meant to hit the worst case of each scanner, 1 MiB each. */
export function adversarialInputs(size = MIB): Array<{ name: string; text: string }> {
  return [
    { name: 'one digit run', text: repeatTo('7', size) },
    { name: 'digits and spaces', text: repeatTo('1 ', size) },
    { name: 'digit groups of four', text: repeatTo('4111 ', size) },
    { name: 'phone-like groups', text: repeatTo('+7 916 ', size) },
    { name: 'a@a. repeated', text: repeatTo('a@a.', size) },
    { name: 'long local part', text: `${repeatTo('a', size - 6)}@a.com` },
    { name: 'eyJ repeated', text: repeatTo('eyJ.', size) },
    { name: 'PEM headers, no END', text: repeatTo('-----BEGIN RSA PRIVATE KEY-----\nAAAA', size) },
    { name: 'scheme:// repeated', text: repeatTo('postgres://u:', size) },
    { name: 'password= repeated', text: repeatTo('Server=a;Password=b;', size) },
    { name: 'sk- repeated', text: repeatTo('sk-', size) },
    { name: 'key=value repeated', text: repeatTo('api_key=', size) },
    { name: 'token run', text: repeatTo('Ab1_', size) },
  ];
}

function time(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

export interface MeasureOptions {
  iterations?: number;
  /** Only the adversarial inputs (for a quick test). */
  adversarialOnly?: boolean;
  adversarialSize?: number;
  /** Timed runs of each adversarial input, the best kept (default 3, after one warm-up run). */
  adversarialRounds?: number;
  detect?: PiiDetectFn;
}

function latency(run: (text: string) => unknown, texts: readonly string[], iterations: number): LatencyFigures {
  for (let i = 0; i < 500; i++) run(texts[i % texts.length]!);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const before = process.cpuUsage();
    wall.push(time(() => run(texts[i % texts.length]!)));
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return {
    iterations,
    p50Ms: percentile(wall, 50),
    p99Ms: percentile(wall, 99),
    meanMs: wall.reduce((a, b) => a + b, 0) / wall.length,
    cpuP99Ms: percentile(cpu, 99),
  };
}

const NO_LATENCY: LatencyFigures = { iterations: 0, p50Ms: 0, p99Ms: 0, meanMs: 0, cpuP99Ms: 0 };

export function measurePiiSpeed(options: MeasureOptions = {}): PiiSpeedReport {
  const detect = options.detect ?? detectPii;
  const run = (text: string) => detect(text, { direction: 'output', language: 'ru' });
  const report: PiiSpeedReport = { calibrationMs: calibrationMs(), latency4k: NO_LATENCY, latency4kDense: NO_LATENCY, scaling: [], adversarial: [] };

  if (!options.adversarialOnly) {
    const iterations = options.iterations ?? 5000;
    report.latency4k = latency(run, Array.from({ length: 16 }, (_, i) => typicalText(4 * KB, i + 1)), iterations);
    report.latency4kDense = latency(run, Array.from({ length: 16 }, (_, i) => denseText(4 * KB, i + 1)), iterations);
    for (const bytes of [4 * KB, 64 * KB, MIB]) {
      const text = realisticText(bytes, 99);
      const rounds = Math.max(3, Math.round((64 * KB) / bytes) * 4);
      run(text);
      let best = Number.POSITIVE_INFINITY;
      for (let i = 0; i < rounds; i++) best = Math.min(best, time(() => run(text)));
      report.scaling.push({ bytes, ms: best, msPerKb: best / (bytes / KB) });
    }
  }

  for (const { name, text } of adversarialInputs(options.adversarialSize ?? MIB)) {
    let entities = 0;
    const rounds = options.adversarialRounds ?? 3;
    if (rounds > 1) run(text);
    const ms = Math.min(
      ...Array.from({ length: rounds }, () =>
        time(() => {
          const found = run(text);
          entities = Array.isArray(found) ? found.length : 0;
        }),
      ),
    );
    report.adversarial.push({ name, bytes: text.length, ms, entities });
  }
  if (!options.adversarialOnly) {
    const text = densePiiText();
    run(text);
    let entities = 0;
    const ms = time(() => {
      const found = run(text);
      entities = Array.isArray(found) ? found.length : 0;
    });
    report.densePii = { bytes: text.length, ms, entities };
  }
  return report;
}

export function formatPiiSpeedReport(report: PiiSpeedReport): string {
  const lines: string[] = [`machine yardstick: 1e8 loop additions in ${report.calibrationMs.toFixed(0)} ms (a current desktop core: about 40-80 ms)`];
  const line = (name: string, l: LatencyFigures) =>
    `${name}, ${l.iterations} calls: p50 ${l.p50Ms.toFixed(3)} ms, p99 ${l.p99Ms.toFixed(3)} ms, mean ${l.meanMs.toFixed(3)} ms (CPU-time p99 ${l.cpuP99Ms.toFixed(3)} ms)`;
  if (report.latency4k.iterations > 0) {
    lines.push(`${line('4 KB typical prompt', report.latency4k)} (target p99 ≤ ${PII_SPEED_TARGETS.p99Ms4k} ms)`);
    lines.push(line('4 KB dense (eval samples back to back)', report.latency4kDense));
    lines.push('cost per KB by size (flat = linear):');
    for (const s of report.scaling) lines.push(`  ${String(s.bytes).padStart(8)} B  ${s.ms.toFixed(2).padStart(8)} ms  ${(s.msPerKb * 1000).toFixed(1).padStart(7)} µs/KB`);
  }
  lines.push(`1 MiB adversarial inputs (target < ${PII_SPEED_TARGETS.adversarialMs} ms each):`);
  for (const a of report.adversarial) lines.push(`  ${a.name.padEnd(28)} ${a.ms.toFixed(1).padStart(8)} ms  ${String(a.entities).padStart(7)} entities`);
  if (report.densePii) {
    const d = report.densePii;
    lines.push(`1 MiB of valid PII back to back (a heavy load, not adversarial): ${d.ms.toFixed(1)} ms, ${d.entities} entities`);
  }
  return lines.join('\n');
}

/** Whether the measured figures meet the targets. */
export function piiSpeedMeetsTargets(report: PiiSpeedReport): boolean {
  const latencyOk = report.latency4k.iterations === 0 || report.latency4k.p99Ms <= PII_SPEED_TARGETS.p99Ms4k;
  return latencyOk && report.adversarial.every((a) => a.ms < PII_SPEED_TARGETS.adversarialMs);
}
