// The analyze contract (spec, "Canonical detector request": text, blocked_categories; output `verdict`;
// the rest is ours) and the device-info answer. The per-category list has the shape the gateway's
// decision point reads (gateway/src/decision/types.ts, ContentSafetyResult).
import { z } from 'zod';
import { ContentSafetyCategory, type ContentSafetyVerdict } from '@palisade/core';
import { CONTENT_SAFETY_LIMITS } from './limits.js';

export const CONTENT_SAFETY_ROLES = ['prompt', 'response'] as const;
export type ContentSafetyRole = (typeof CONTENT_SAFETY_ROLES)[number];

const CheckedText = z.string().min(1).max(CONTENT_SAFETY_LIMITS.maxTextLength);

export const AnalyzeRequestSchema = z
  .object({
    /** The prompt (role `prompt`) or the model's answer (role `response`) to judge. */
    text: CheckedText,
    /** Categories that block when the guard finds them Unsafe. */
    blocked_categories: z.array(ContentSafetyCategory).default([]),
    /** `prompt`: moderate a user prompt; `response`: moderate an assistant answer (and detect a refusal). */
    role: z.enum(CONTENT_SAFETY_ROLES).default('prompt'),
    /** The user prompt that `text` answers; only for role `response` (the guard judges the answer in its context). */
    prompt: CheckedText.optional(),
  })
  .refine((r) => r.prompt === undefined || r.role === 'response', { path: ['prompt'], message: 'prompt is only accepted with role "response"' });
/** What a caller sends (blocked_categories and role may be left out). */
export type AnalyzeRequest = z.input<typeof AnalyzeRequestSchema>;
export type ParsedAnalyzeRequest = z.infer<typeof AnalyzeRequestSchema>;

export interface ContentSafetyCategoryVerdict {
  category: ContentSafetyCategory;
  verdict: ContentSafetyVerdict;
  /** VERDICT_SCORE of the verdict: 0.0, 0.5 or 0.95. */
  score: number;
}

export interface AnalyzeResponse {
  /** The guard's overall verdict (spec). */
  verdict: ContentSafetyVerdict;
  /** VERDICT_SCORE of the overall verdict. */
  score: number;
  /** One entry for each of the 9 categories, in the spec's order; categories the guard did not name are Safe. */
  categories: ContentSafetyCategoryVerdict[];
  /** True when one of the request's blocked_categories is Unsafe. */
  blocked: boolean;
  /** The request's blocked_categories that are Unsafe. */
  blocked_categories: ContentSafetyCategory[];
  /** Category names the guard gave that are none of the 9 (kept so a newer model's labels are not lost silently). */
  unmapped_categories: string[];
  role: ContentSafetyRole;
  /** Role `response`: whether the answer is a refusal (the guard's `Refusal:` line); null for prompts or when the guard gave none. */
  refusal: boolean | null;
  /** The guard model that answered. */
  model: string;
  latency_ms: number;
}

/** GET /api/v1/device-info. The model runs on the GPU of the model server, so this reports that server. */
export interface ContentSafetyDeviceInfo {
  status: 'ok';
  backend: 'openai-compatible';
  /** The model asked for (CONTENT_SAFETY_MODEL_NAME). */
  model: string;
  /** CONTENT_SAFETY_MODEL_URL is set. */
  model_url_configured: boolean;
  /** The model server's address without credentials, null without a URL. */
  model_server: string | null;
  /** GET {url}/v1/models answered. */
  model_server_reachable: boolean;
  /** The server lists the configured model. */
  model_available: boolean;
  /** The model ids the server lists. */
  served_models: string[];
  /** Why analyze answers 503 (or may fail), when it does. */
  warning?: string;
}
