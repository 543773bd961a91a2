import type { Language } from '../i18n/language.js';
import { ERROR_CATALOGUE, type ErrorCode, type ErrorType } from './catalogue.js';

/** A message people read in the console: English (the API's own language) and Russian. */
export type Texts = Readonly<Record<Language, string>>;

/** A field-level problem, as the admin API lists them under `details`. */
export interface FieldIssue {
  path: string;
  message: string;
}

export interface PalisadeErrorOptions {
  /** English only, or the texts in every language (the error's `message` is the English one). */
  message?: string | Texts;
  cause?: unknown;
  /** Gateway: POLICY_VIOLATION's {jailbreak_score, pii_entities}. Admin: a list of FieldIssue. */
  details?: unknown;
  /** Only for RESPONSE_BLOCKED. */
  reasons?: string[];
  /** Seconds; only for RATE_LIMIT_EXCEEDED. */
  retryAfter?: number;
  /** Overrides the catalogue status where the spec lets configuration choose (block_status_code). */
  status?: number;
  headers?: Record<string, string>;
}

/** Every error the product raises on purpose: a catalogue code, its HTTP status and the cause. */
export class PalisadeError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly type: ErrorType;
  readonly details: unknown;
  readonly reasons: string[] | undefined;
  readonly retryAfter: number | undefined;
  readonly headers: Record<string, string>;
  /** The message in each language it was written in (absent: English only, or the catalogue's). */
  readonly texts: Texts | undefined;

  constructor(code: ErrorCode, options: PalisadeErrorOptions = {}) {
    const entry = ERROR_CATALOGUE[code];
    const texts = typeof options.message === 'object' ? options.message : undefined;
    super(texts?.en ?? (options.message as string | undefined) ?? entry.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.texts = texts;
    this.name = 'PalisadeError';
    this.code = code;
    this.status = options.status ?? entry.status;
    this.type = entry.type;
    this.details = options.details;
    this.reasons = options.reasons;
    this.retryAfter = options.retryAfter;
    this.headers = options.headers ?? {};
  }
}

export function isPalisadeError(error: unknown): error is PalisadeError {
  return error instanceof PalisadeError;
}
