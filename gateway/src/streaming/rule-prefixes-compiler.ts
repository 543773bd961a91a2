// Builds the prefix automaton of a profile's blocklist rules off the event loop, once per profile of
// a bundle. Until it is built (and if building fails or runs too long) every rule keeps its fixed
// hold-back, which is safe, only slower to release.
import { Worker } from 'node:worker_threads';
import type { ContentPolicy, Profile } from '@palisade/core';
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

export type RulePrefixCompiler = (policies: readonly ContentPolicy[]) => Promise<RulePrefixes>;

/**
 * The rule prefixes of each profile, kept per profile object (a new bundle brings new profile and
 * policy objects, so an entry goes with its bundle). The returned view switches to the automaton
 * as soon as it is built, even during a stream: the release point never moves back.
 */
export function createRulePrefixCache(compile: RulePrefixCompiler = (policies) => compileRulePrefixesOffThread(policies)) {
  // One build at a time: after a bundle change every streaming profile asks at once, and a worker
  // each would take every core (and its heap) from the gateway.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = (policies: readonly ContentPolicy[]): Promise<RulePrefixes> => {
    const next = queue.then(() => compile(policies));
    queue = next.catch(() => {});
    return next;
  };
  const entries = new WeakMap<Profile, { policies: readonly ContentPolicy[]; current: RulePrefixes; view: RulePrefixes; ready: Promise<void> }>();
  return function rulePrefixesFor(profile: Profile, policies: readonly ContentPolicy[]): { rules: RulePrefixes; ready: Promise<void> } {
    const cached = entries.get(profile);
    if (cached && cached.policies.length === policies.length && cached.policies.every((p, i) => p === policies[i])) return { rules: cached.view, ready: cached.ready };
    const entry = {
      policies,
      current: fixedRulePrefixes(policies),
      view: {
        inProgress: (text: string, cap: number) => entry.current.inProgress(text, cap),
        get fixed() {
          return entry.current.fixed;
        },
        get covered() {
          return entry.current.covered;
        },
      },
      ready: Promise.resolve(),
    };
    entry.ready = serially(policies).then(
      (rules) => {
        entry.current = rules;
      },
      () => {},
    );
    entries.set(profile, entry);
    return { rules: entry.view, ready: entry.ready };
  };
}
