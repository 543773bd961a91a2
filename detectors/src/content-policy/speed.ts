// The speed figure of the issue: 1,000 rules (half keywords, half regexes) on a 4 KB text, p50/p99 of
// one in-process evaluation. speed-main.ts prints it; the test only checks that it runs.
import { createContentPolicyEvaluator, type ContentPolicyEvaluator } from './evaluator.js';
import type { EvaluatePolicyInput, EvaluateRequest } from './schemas.js';

export interface ContentPolicySpeedOptions {
  /** Rules in all, half keywords and half regexes; default 1000. */
  rules?: number;
  /** Text length in characters (ASCII, so also bytes); default 4096. */
  textLength?: number;
  /** Timed evaluations per variant; default 5000. */
  iterations?: number;
  /** Untimed evaluations first (JIT, DFA caches); default 500. */
  warmup?: number;
  evaluator?: ContentPolicyEvaluator;
}

export interface ContentPolicyLatency {
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
}

export interface ContentPolicySpeedReport {
  rules: number;
  keywordRules: number;
  regexRules: number;
  policies: number;
  textLength: number;
  iterations: number;
  /** First evaluation: validation and compilation of the set. */
  compileMs: number;
  /** The set found by `revision` (how the gateway calls). */
  withRevision: ContentPolicyLatency;
  /** No revision: the policies are hashed on every call to find the set. */
  withFingerprint: ContentPolicyLatency;
  firedPolicies: number;
  matches: number;
}

const RULES_PER_POLICY = 100;
const ACTIONS = ['block', 'flag', 'trust_pii'] as const;
const WORDS = (
  'the a of to and in is that for it as with was on be by this are from at or an have not but had which ' +
  'model request answer customer account service data report quarter project meeting review budget team ' +
  'please summary policy update release invoice payment contract delivery schedule support ticket'
).split(' ');

/** Regex shapes of real policies: identifiers, case-insensitive phrases, word-bounded codes. */
function regexRule(i: number): string {
  switch (i % 5) {
    case 0: return `\\bPRJ-${i}-\\d{3,6}\\b`;
    case 1: return `(?i)secret[ _-]?key[ _-]?${i}\\b`;
    case 2: return `\\b[a-f0-9]{6}${i}[a-f0-9]{2}\\b`;
    case 3: return `(?i)\\bcodename\\s+(alpha|bravo|delta)${i}\\b`;
    default: return `[A-Z]{2}\\d{2}${i}[A-Z0-9]{4,10}`;
  }
}

/** The policies (blocklists of 100 rules each, mixed actions) and a text with a few hits. */
export function contentPolicySpeedFixture(rules = 1000, textLength = 4096): { policies: EvaluatePolicyInput[]; text: string } {
  const policies: EvaluatePolicyInput[] = [];
  for (let p = 0; p * RULES_PER_POLICY < rules; p++) {
    const count = Math.min(RULES_PER_POLICY, rules - p * RULES_PER_POLICY);
    policies.push({
      id: `speed-${p}`,
      type: 'blocklist',
      scope: 'both',
      priority: 100 + p,
      action: ACTIONS[p % ACTIONS.length]!,
      status: 'ACTIVE',
      rules: Array.from({ length: count }, (_, k) => {
        const i = p * RULES_PER_POLICY + k;
        return i % 2 === 0 ? { kind: 'keyword' as const, pattern: `internal codename ${i}` } : { kind: 'regex' as const, pattern: regexRule(i) };
      }),
    });
  }
  const hits = ['Internal Codename 10 ', 'see PRJ-5-12345 ', 'secret_key_1 '];
  let text = '';
  for (let i = 0; text.length < textLength; i++) {
    text += i % 97 === 50 ? hits[(i / 97) % hits.length | 0] : `${WORDS[(i * 7919) % WORDS.length]} `;
  }
  return { policies, text: text.slice(0, textLength) };
}

function summarise(samples: number[]): ContentPolicyLatency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { p50Ms: at(0.5), p99Ms: at(0.99), meanMs: sorted.reduce((a, b) => a + b, 0) / sorted.length, maxMs: sorted[sorted.length - 1]! };
}

async function time(evaluate: () => Promise<unknown>, warmup: number, iterations: number): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await evaluate();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    await evaluate();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples;
}

export async function measureContentPolicySpeed(options: ContentPolicySpeedOptions = {}): Promise<ContentPolicySpeedReport> {
  const rules = options.rules ?? 1000;
  const textLength = options.textLength ?? 4096;
  const iterations = options.iterations ?? 5000;
  const warmup = options.warmup ?? 500;
  const evaluator = options.evaluator ?? createContentPolicyEvaluator();
  const { policies, text } = contentPolicySpeedFixture(rules, textLength);
  const withRevision: EvaluateRequest = { text, scope: 'input', revision: 'speed-revision', policies };
  const withoutRevision: EvaluateRequest = { text, scope: 'input', policies };

  const compileStart = process.hrtime.bigint();
  const first = await evaluator.detect(withRevision);
  const compileMs = Number(process.hrtime.bigint() - compileStart) / 1e6;
  await evaluator.detect(withoutRevision);

  const revisionSamples = await time(() => evaluator.detect(withRevision), warmup, iterations);
  const fingerprintSamples = await time(() => evaluator.detect(withoutRevision), warmup, iterations);
  const keywordRules = policies.reduce((n, p) => n + p.rules!.filter((r) => r.kind === 'keyword').length, 0);
  return {
    rules,
    keywordRules,
    regexRules: rules - keywordRules,
    policies: policies.length,
    textLength: text.length,
    iterations,
    compileMs,
    withRevision: summarise(revisionSamples),
    withFingerprint: summarise(fingerprintSamples),
    firedPolicies: first.fired_policies.length,
    matches: first.matches.length + first.trusted_spans.length,
  };
}

const ms = (v: number) => `${v.toFixed(3)} ms`;

export function formatContentPolicySpeed(r: ContentPolicySpeedReport): string {
  return [
    `content policy evaluation: ${r.rules} rules (${r.keywordRules} keywords, ${r.regexRules} regexes) in ${r.policies} policies, ${r.textLength}-character text, ${r.iterations} runs`,
    `  compile (first call):         ${ms(r.compileMs)}`,
    `  cached by revision:           p50 ${ms(r.withRevision.p50Ms)}  p99 ${ms(r.withRevision.p99Ms)}  mean ${ms(r.withRevision.meanMs)}  max ${ms(r.withRevision.maxMs)}`,
    `  cached by fingerprint (hash): p50 ${ms(r.withFingerprint.p50Ms)}  p99 ${ms(r.withFingerprint.p99Ms)}  mean ${ms(r.withFingerprint.meanMs)}  max ${ms(r.withFingerprint.maxMs)}`,
    `  fired policies ${r.firedPolicies}, occurrences ${r.matches}`,
  ].join('\n');
}
