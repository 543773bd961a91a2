// What the content-safety guard is asked about: which side of the call, with which categories, and a
// text within the guard's input limit.
import type { ContentSafetyCategory, Profile } from '@palisade/core';
import { CONTENT_SAFETY_LIMITS } from '@palisade/detectors';
import { contentSafetyEnabled } from '../decision/rules.js';

const GAP = '\n…\n';

/**
 * A text longer than the guard accepts keeps its beginning and its end: an instruction hidden at the
 * end of a long prompt (or a harmful conclusion of a long answer) is still judged.
 */
export function clipForGuard(text: string, max: number = CONTENT_SAFETY_LIMITS.maxTextLength): string {
  if (text.length <= max) return text;
  const half = Math.floor((max - GAP.length) / 2);
  return text.slice(0, half) + GAP + text.slice(text.length - half);
}

/** Whether answers are judged by the guard, and the categories that block them (both profile lists). */
export function contentSafetyOnResponses(profile: Profile): { blockedCategories: ContentSafetyCategory[] } | null {
  if (!contentSafetyEnabled(profile, 'response')) return null;
  const categories = new Set([...profile.response_scanning.response_blocked_categories, ...profile.content_safety.response_blocked_categories]);
  return { blockedCategories: [...categories] };
}
