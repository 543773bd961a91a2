import { COMPONENT_PORTS } from '@palisade/core';
/** The Translation Service's port (spec, "Components"). */
export const TRANSLATION_SERVICE_PORT = COMPONENT_PORTS.translation;

export const TRANSLATION_LIMITS = Object.freeze({
  /** Characters of one translate call (a prompt the gateway inspects; larger ones are cut by the caller). */
  maxTextLength: 32_768,
  /** Request body bytes (the text in UTF-8 with JSON escapes, and the two codes). */
  bodyLimitBytes: 256 * 1024,
  /** Source tokens per model call; a longer text is translated in sentence chunks of at most this. */
  maxInputTokens: 256,
  /** Generated tokens per chunk, whatever the model's config allows. */
  maxOutputTokens: 512,
});
