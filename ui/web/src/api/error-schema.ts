import type { ErrorSchema } from '@rjsf/utils';
import { ApiError } from './client';

/** The API's `details` as rjsf's nested error schema: "config.max_retries" → config.max_retries.__errors. */
export function errorSchemaOf(error: unknown): ErrorSchema | undefined {
  if (!(error instanceof ApiError) || error.details.length === 0) return undefined;
  const root: Record<string, unknown> = {};
  for (const { path, message } of error.details) {
    let node = root;
    for (const part of path.split('.').filter(Boolean)) node = (node[part] ??= {}) as Record<string, unknown>;
    ((node.__errors ??= []) as string[]).push(message);
  }
  return root as ErrorSchema;
}
