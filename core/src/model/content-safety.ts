// Content-safety categories and verdicts of the guard model (shared by profiles and events).
import { z } from 'zod';

export const CONTENT_SAFETY_CATEGORIES = [
  'violence',
  'illegal_acts',
  'sexual',
  'pii',
  'self_harm',
  'unethical',
  'political_sensitive',
  'copyright',
  'jailbreak',
] as const;
export const ContentSafetyCategory = z.enum(CONTENT_SAFETY_CATEGORIES);
export type ContentSafetyCategory = z.infer<typeof ContentSafetyCategory>;

export const CONTENT_SAFETY_VERDICTS = ['Safe', 'Controversial', 'Unsafe'] as const;
export const ContentSafetyVerdict = z.enum(CONTENT_SAFETY_VERDICTS);
export type ContentSafetyVerdict = z.infer<typeof ContentSafetyVerdict>;

/** The score each verdict stands for (spec). */
export const VERDICT_SCORE: Readonly<Record<ContentSafetyVerdict, number>> = {
  Safe: 0.0,
  Controversial: 0.5,
  Unsafe: 0.95,
};

/** A score or threshold, 0.0-1.0. */
export const Score = z.number().min(0).max(1);
