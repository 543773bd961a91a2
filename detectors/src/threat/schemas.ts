// The threat detector's contract (spec: "Canonical detector request" and "Detector services": input
// trace_context {trace_id, span_id}, tenant_id, canonical {user_prompt, language}; output
// threat_decision, threat_score). Fields beyond those are ours (README.md).
import { z } from 'zod';
import { THREAT_LIMITS } from './limits.js';
import { THREAT_SIGNAL_FAMILIES } from './signals.js';

export const ThreatTraceContextSchema = z.object({
  trace_id: z.string().max(256),
  span_id: z.string().max(256),
});

export const ThreatCanonicalSchema = z.object({
  user_prompt: z.string().max(THREAT_LIMITS.maxPromptChars),
  /** The normalizer's language guess; the model scores English and Russian directly and ignores it. */
  language: z.string().max(64),
});

export const ThreatDetectRequestSchema = z.object({
  trace_context: ThreatTraceContextSchema,
  tenant_id: z.string().max(256),
  canonical: ThreatCanonicalSchema,
  /** Optional: the profile's jailbreak_threshold; threat_decision is `unsafe` when threat_score ≥ it. */
  jailbreak_threshold: z.number().min(0).max(1).optional(),
});

export const THREAT_DECISIONS = ['safe', 'unsafe'] as const;

export const ThreatDetectResponseSchema = z.object({
  threat_decision: z.enum(THREAT_DECISIONS),
  /** Calibrated probability that the prompt is a jailbreak or prompt injection. */
  threat_score: z.number().min(0).max(1),
  /** The threshold the decision used. */
  threshold: z.number().min(0).max(1),
  model_version: z.string(),
  latency_ms: z.number().nonnegative(),
  /** Signal families (rule inputs) found in the prompt, for events and investigation. */
  signals: z.array(z.enum(THREAT_SIGNAL_FAMILIES)),
  /** Windows scored (views × windows per view). */
  windows: z.number().int().positive(),
});

export type ThreatTraceContext = z.infer<typeof ThreatTraceContextSchema>;
export type ThreatDetectRequest = z.input<typeof ThreatDetectRequestSchema>;
export type ThreatDetectResponse = z.infer<typeof ThreatDetectResponseSchema>;
export type ThreatDecision = (typeof THREAT_DECISIONS)[number];
