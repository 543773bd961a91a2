// The content policy detector in-process: the Detector contract (detectors/src/contract.ts) over
// validation, the compiled-set cache and evaluate.ts. The HTTP service routes to the same object.
import { PalisadeError, toPalisadeError, zodIssues } from '@palisade/core';
import type { Detector, DetectorCallOptions } from '../contract.js';
import { compilePolicySet, type CompiledPolicySet, type CompilePolicySetOptions } from './compile.js';
import { emptyEvaluateResponse, evaluatePolicySet } from './evaluate.js';
import { createContentLanguageDetector, type ContentLanguageDetector } from './language.js';
import { DEFAULT_COMPILED_POLICY_CACHE_SIZE } from './limits.js';
import { createLruCache, policySetKey } from './policy-set-cache.js';
import { EvaluateEnvelopeSchema, EvaluatePolicyListSchema, type EvaluateRequest, type EvaluateResponse } from './schemas.js';

export interface ContentPolicyEvaluatorOptions {
  /** Compiled policy sets kept; default 64. */
  cacheSize?: number;
  /** Default: createContentLanguageDetector() with its defaults. */
  detectLanguage?: ContentLanguageDetector;
  compile?: CompilePolicySetOptions;
}

export interface ContentPolicyCacheStats {
  size: number;
  hits: number;
  misses: number;
}

export interface ContentPolicyEvaluator extends Detector<EvaluateRequest, EvaluateResponse> {
  readonly kind: 'content-policy';
  cacheStats(): ContentPolicyCacheStats;
}

/** A failed compile is cached too, so that a bad list sent again costs no second compile. */
type Outcome = { set: CompiledPolicySet } | { error: PalisadeError };

function compileList(policies: readonly unknown[], options: CompilePolicySetOptions | undefined): Outcome {
  const parsed = EvaluatePolicyListSchema.safeParse(policies);
  if (!parsed.success) {
    const details = zodIssues(parsed.error).map((i) => ({ path: i.path ? `policies.${i.path}` : 'policies', message: i.message }));
    const first = details[0]!;
    return { error: new PalisadeError('VALIDATION_ERROR', { message: `Invalid ${first.path}: ${first.message}`, details, cause: parsed.error }) };
  }
  try {
    return { set: compilePolicySet(parsed.data, options) };
  } catch (error) {
    return { error: toPalisadeError(error) };
  }
}

/**
 * Validates the request (400 VALIDATION_ERROR with field details), finds or compiles the policy set
 * (validated at compile, once per revision), and evaluates. Throws the signal's reason when aborted.
 */
export function createContentPolicyEvaluator(options: ContentPolicyEvaluatorOptions = {}): ContentPolicyEvaluator {
  const cache = createLruCache<string, Outcome>(options.cacheSize ?? DEFAULT_COMPILED_POLICY_CACHE_SIZE);
  const detectLanguage = options.detectLanguage ?? createContentLanguageDetector();
  let hits = 0;
  let misses = 0;

  const compiledFor = (policies: readonly unknown[], revision: string | undefined): CompiledPolicySet => {
    const key = policySetKey(policies, revision);
    let outcome = cache.get(key);
    if (outcome) hits++;
    else {
      misses++;
      outcome = compileList(policies, options.compile);
      cache.set(key, outcome);
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.set;
  };

  return {
    kind: 'content-policy',
    async detect(request: EvaluateRequest, call: DetectorCallOptions = {}): Promise<EvaluateResponse> {
      call.signal?.throwIfAborted();
      const envelope = EvaluateEnvelopeSchema.safeParse(request);
      if (!envelope.success) throw toPalisadeError(envelope.error);
      const { text, scope, language, revision, policies } = envelope.data;
      if (policies.length === 0) return emptyEvaluateResponse();
      const set = compiledFor(policies, revision);
      call.signal?.throwIfAborted();
      return evaluatePolicySet(set, { text, scope, language }, { detectLanguage });
    },
    cacheStats: () => ({ size: cache.size, hits, misses }),
  };
}
