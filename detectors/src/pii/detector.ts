// The in-process PII detector: the Detector contract around detectPii. The HTTP service runs the same
// function (service.ts), so both transports answer alike.
import type { PiiType } from '@palisade/core';
import type { Detector, DetectorCallOptions } from '../contract.js';
import { DEFAULT_PII_MIN_SCORE, detectPii, hasUntrustedPii } from './detect.js';
import type { PiiRule } from './rule.js';
import { PII_RULES } from './rules.js';
import { parsePiiDetectRequest, type PiiDetectRequest, type PiiDetectResponse } from './schema.js';

export interface PiiDetectorOptions {
  /** Candidates under this score are not reported (default 0.5). */
  minScore?: number;
  /** The rules to run (default: every type's rule). */
  rules?: readonly PiiRule[];
}

export type PiiDetector = Detector<PiiDetectRequest, PiiDetectResponse>;

/**
 * Validates the request like the HTTP service (a ZodError for a bad shape, PAYLOAD_TOO_LARGE over
 * 1 MiB), honours an aborted signal, and answers {has_pii, entities}.
 */
export function createPiiDetector(options: PiiDetectorOptions = {}): PiiDetector {
  const minScore = options.minScore ?? DEFAULT_PII_MIN_SCORE;
  const rules = options.rules ?? PII_RULES;
  return {
    kind: 'pii',
    async detect(request: PiiDetectRequest, call: DetectorCallOptions = {}): Promise<PiiDetectResponse> {
      call.signal?.throwIfAborted();
      const parsed = parsePiiDetectRequest(request);
      const entities = detectPii(parsed.text, {
        types: (parsed.types ?? undefined) as PiiType[] | undefined,
        direction: parsed.direction ?? 'input',
        language: parsed.language ?? undefined,
        systemPrompt: parsed.system_prompt ?? undefined,
        trusted: parsed.trusted ?? undefined,
        minScore,
        rules,
        signal: call.signal,
      });
      return { has_pii: hasUntrustedPii(entities), entities };
    },
  };
}
