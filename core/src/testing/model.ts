// Test helpers for the models: the issue paths of a failed parse, and a parse that must succeed.
import type { z } from 'zod';

/**
 * The distinct paths of the issues, joined with '.', e.g. ['config.max_retries'] ('' for the root);
 * [] when the parse succeeds. One field may fail several checks: its path is listed once.
 */
export function issuePaths(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  if (result.success) return [];
  return [...new Set(result.error.issues.map((i) => i.path.map(String).join('.')))];
}

/** The issues of a failed parse ([] when it succeeds). */
export function issuesOf(schema: z.ZodType, input: unknown): z.core.$ZodIssue[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues;
}

/** Parses or throws with every issue and its path in the message. */
export function parseOk<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const detail = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`expected a valid value, got issues: ${detail}`);
  }
  return result.data;
}
