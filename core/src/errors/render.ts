import { ZodError } from 'zod';
import type { Language } from '../i18n/language.js';
import { localizedAdminError } from './localize.js';
import { PalisadeError, isPalisadeError, type FieldIssue } from './palisade-error.js';
import { zodIssues } from './zod-issues.js';

/** The gateway's error body of the spec: `{ error: { code, message, type, trace_id, details?, reasons?, retry_after? } }`. */
export interface GatewayErrorBody {
  error: {
    code: string;
    message: string;
    type: string;
    trace_id?: string;
    details?: unknown;
    reasons?: string[];
    retry_after?: number;
  };
}

/** The admin API's error body of DECISIONS.md: `{ error: { code, message, details: [{path, message}] } }`. */
export interface AdminErrorBody {
  error: { code: string; message: string; details?: FieldIssue[] };
}


/** Any thrown value as a PalisadeError; unknown errors become INTERNAL_ERROR with the original as cause. */
export function toPalisadeError(error: unknown): PalisadeError {
  if (isPalisadeError(error)) return error;
  if (error instanceof ZodError) {
    const details = zodIssues(error);
    const first = details[0];
    const message = first ? `Invalid ${first.path || 'body'}: ${first.message}` : 'The request data is invalid';
    return new PalisadeError('VALIDATION_ERROR', { message, details, cause: error });
  }
  return new PalisadeError('INTERNAL_ERROR', { cause: error });
}

/** Renders the gateway body. trace_id is left out for errors raised before routing (no trace yet). */
export function renderGatewayError(error: PalisadeError, traceId?: string): GatewayErrorBody {
  const body: GatewayErrorBody['error'] = { code: error.code, message: error.message, type: error.type };
  if (traceId) body.trace_id = traceId;
  if (error.details !== undefined) body.details = error.details;
  if (error.reasons !== undefined) body.reasons = error.reasons;
  if (error.retryAfter !== undefined) body.retry_after = error.retryAfter;
  return { error: body };
}

/** The admin body, its message and field details in the reader's language (English by default). */
export function renderAdminError(error: PalisadeError, language: Language = 'en'): AdminErrorBody {
  return { error: { code: error.code, ...localizedAdminError(error, language) } };
}
