import { COMPONENT_PORTS } from '@palisade/core';
/** The Content Safety service's port (spec, "Components"). */
export const CONTENT_SAFETY_SERVICE_PORT = COMPONENT_PORTS['content-safety'];

/** The guard model asked for when CONTENT_SAFETY_MODEL_NAME is unset (spec: a 4B generative guard model). */
export const CONTENT_SAFETY_DEFAULT_MODEL = 'Qwen/Qwen3Guard-Gen-4B';

export const CONTENT_SAFETY_LIMITS = Object.freeze({
  /** Characters of the checked text, and of the prompt given with a response (well inside the model's 32k-token context). */
  maxTextLength: 32_768,
  /** Request body bytes: text and prompt in UTF-8 with JSON escapes, and the categories. */
  bodyLimitBytes: 512 * 1024,
  /**
   * Generated tokens per call. The answer is three short lines (about 15 tokens); the room above that
   * is for servers that put a short <think> block before it.
   */
  maxOutputTokens: 128,
  /**
   * Bytes of a model server's answer read: a completion of at most maxOutputTokens tokens, or the model
   * list, is a few kilobytes; more is a broken server, refused rather than buffered.
   */
  maxAnswerBytes: 1024 * 1024,
  /** The whole model call, when CONTENT_SAFETY_TIMEOUT_MS is unset. */
  defaultTimeoutMs: 10_000,
});
