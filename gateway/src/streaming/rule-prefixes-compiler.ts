// Builds the prefix automaton of a profile's blocklist rules off the event loop, once per set of
// rules. Until it is built (and if building fails or runs too long) every rule keeps its fixed
// hold-back, which is safe, only slower to release.
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { ContentPolicy } from '@palisade/core';
import { fixedRulePrefixes, prefixRulesOf, rulePrefixesOf, type CompiledPrefixes, type RulePrefixes } from './rule-prefixes.js';

const WORKER = new URL('./rule-prefixes-worker.js', import.meta.url);

export interface OffThreadOptions {
  /** Past this the worker is stopped and the fixed lengths stay. */
  timeoutMs?: number;
  /** The worker's heap limit. */
  maxHeapMb?: number;
}

export function compileRulePrefixesOffThread(policies: readonly ContentPolicy[], options: OffThreadOptions = {}): Promise<RulePrefixes> {
  const rules = prefixRulesOf(policies);
  if (rules.length === 0) return Promise.resolve(rulePrefixesOf({ tables: [], fixed: 0, covered: 0 }));
  return new Promise((resolve) => {
    const worker = new Worker(WORKER, { workerData: rules, resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 256 } });
    worker.unref();
    let settled = false;
    const settle = (result: RulePrefixes) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(result);
    };
    const timer = setTimeout(() => settle(fixedRulePrefixes(policies)), options.timeoutMs ?? 10_000);
    timer.unref();
    worker.once('message', (compiled: CompiledPrefixes) => settle(rulePrefixesOf(compiled)));
    worker.once('error', () => settle(fixedRulePrefixes(policies)));
    worker.once('exit', () => settle(fixedRulePrefixes(policies)));
  });
}

/** The sets of rules whose automata are kept (least recently used first out). */
export const RULE_PREFIX_SETS = 512;

export type RulePrefixCompiler = (policies: readonly ContentPolicy[]) => Promise<RulePrefixes>;

/** One set of rules' prefixes: the fixed lengths until its build settles, the automaton after. */
export interface RulePrefixEntry {
  rules: RulePrefixes;
  /** Resolves when the build has settled (built, or failed and the fixed lengths stay). */
  ready: Promise<void>;
  isBuilt(): boolean;
}

/**
 * The rule prefixes of each set of response policies, kept by content: a bundle change elsewhere
 * brings new policy objects with the same rules, and must not make every profile's next stream wait
 * for a rebuild (or hold back the fixed lengths meanwhile). Profiles with the same policies share
 * one automaton. The returned view switches to the automaton as soon as it is built, even during a
 * stream: the release point never moves back. At most `maxEntries` sets are kept (least recently
 * used first out).
 */
export function createRulePrefixCache(compile: RulePrefixCompiler = (policies) => compileRulePrefixesOffThread(policies), maxEntries = RULE_PREFIX_SETS) {
  // One build at a time: after a change every streaming profile may ask at once, and a worker each
  // would take every core (and its heap) from the gateway.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = (policies: readonly ContentPolicy[]): Promise<RulePrefixes> => {
    const next = queue.then(() => compile(policies));
    queue = next.catch(() => {});
    return next;
  };
  const contentKeys = new WeakMap<ContentPolicy, string>();
  const contentKey = (policy: ContentPolicy): string => {
    let key = contentKeys.get(policy);
    if (key === undefined) {
      key = createHash('sha256').update(JSON.stringify([policy.type, policy.case_sensitive, policy.rules])).digest('base64url');
      contentKeys.set(policy, key);
    }
    return key;
  };
  const entries = new Map<string, RulePrefixEntry>();

  return function rulePrefixesFor(policies: readonly ContentPolicy[]): RulePrefixEntry {
    const key = policies.map(contentKey).join(',');
    const cached = entries.get(key);
    if (cached) {
      entries.delete(key);
      entries.set(key, cached);
      return cached;
    }
    let current = fixedRulePrefixes(policies);
    const rules: RulePrefixes = {
      inProgress: (text, cap) => current.inProgress(text, cap),
      get fixed() {
        return current.fixed;
      },
      get covered() {
        return current.covered;
      },
    };
    let settled = false;
    const ready = serially(policies).then(
      (built) => {
        current = built;
      },
      () => {},
    ).finally(() => {
      settled = true;
    });
    const entry: RulePrefixEntry = { rules, ready, isBuilt: () => settled };
    entries.set(key, entry);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    return entry;
  };
}
