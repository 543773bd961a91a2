// The translate contract (spec, "Canonical detector request": text, source_lang, target_lang; output
// `translation`; the rest is ours) and the device-info answer (spec, "Acceptance checks").
import { z } from 'zod';
import { TRANSLATION_LIMITS } from './limits.js';

/** ISO 639-1 (or 639-3 where the language detector has no two-letter code), lower case. */
const Lang = z.string().regex(/^[a-z]{2,3}$/, 'must be a lower-case ISO 639 language code');

export const TranslateRequestSchema = z.object({
  text: z.string().min(1).max(TRANSLATION_LIMITS.maxTextLength),
  source_lang: Lang,
  target_lang: Lang,
});
export type TranslateRequest = z.infer<typeof TranslateRequestSchema>;

export interface TranslateResponse {
  translation: string;
  source_lang: string;
  target_lang: string;
  /** The model directory's name (e.g. opus-mt-ru-en). */
  model: string;
  latency_ms: number;
}

/** GET /api/v1/device-info: the spec's acceptance fields, then ours. */
export interface TranslationDeviceInfo {
  status: 'ok';
  backend: 'onnxruntime-node';
  /** Where the sessions run: `cuda` when the CUDA provider loaded, else `cpu`. */
  device: 'cuda' | 'cpu';
  /** The type of the decoder's logits: float16 for a half-precision export, else float32. */
  compute_type: string;
  /** An NVIDIA GPU is visible to this process (the driver lists one). */
  cuda_available: boolean;
  cuda_device_count: number;
  cuda_device_name: string;
  /** Whether the model(s) of TRANSLATION_MODEL_DIR are loaded; false without a directory. */
  model_loaded: boolean;
  /** The language pairs served, e.g. ["ru-en"]; `mul` stands for any source language. */
  language_pairs: string[];
  /** Why the requested device is not the one used, or why no model is loaded. */
  warning?: string;
}
