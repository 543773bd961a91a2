import type { ZodError } from 'zod';
import type { FieldIssue } from './palisade-error.js';

/** Turns a zod failure into field issues whose path names the field, e.g. `config.max_retries`. */
export function zodIssues(error: ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}
