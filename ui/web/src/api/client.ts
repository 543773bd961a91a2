// The one client of the Admin API: openapi-fetch over the generated paths, always on this origin (the
// UI server forwards /api/* to the Admin API). Failures become ApiError with the API's own body, so a
// form can put each `details` entry beside the field it names.
import createClient from 'openapi-fetch';
import type { paths } from './schema';

export const api = createClient<paths>({ baseUrl: '' });

/** The console's language (i18n keeps it on <html lang>): the API answers its error messages in it. */
function consoleLanguage(): string {
  return (typeof document === 'undefined' ? '' : document.documentElement.lang) || 'en';
}

api.use({
  onRequest({ request }) {
    request.headers.set('accept-language', consoleLanguage());
    return request;
  },
});

export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[],
  ) {
    super(message);
  }
}

/** What to tell a person about a failed call: the role refusal in the console's words, else the API's message. */
export function errorText(error: Error, forbidden: string): string {
  return error instanceof ApiError && error.status === 403 ? forbidden : error.message;
}

/** The data of an openapi-fetch answer, or its error as an ApiError. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok) return result.data as T;
  const body = (result.error ?? {}) as { error?: { code?: string; message?: string; details?: unknown } };
  const details = Array.isArray(body.error?.details)
    ? (body.error.details as Array<Partial<ErrorDetail>>).filter((d) => typeof d?.message === 'string').map((d) => ({ path: String(d.path ?? ''), message: String(d.message) }))
    : [];
  throw new ApiError(result.response.status, body.error?.code ?? `HTTP_${result.response.status}`, body.error?.message ?? result.response.statusText, details);
}

/**
 * The texts of an answer's `Warning: 299 - "…"` headers: settings the API accepted whose effect is
 * easy to miss (fetch joins several headers with ", "; each text is a JSON-style quoted string).
 */
export function warningsOf(response: Pick<Response, 'headers'>): string[] {
  const header = response.headers.get('warning');
  if (!header) return [];
  return [...header.matchAll(/299 - ("(?:[^"\\]|\\.)*")/g)].map((m) => JSON.parse(m[1]!) as string);
}

/** A call with its answer's warnings (see warningsOf). */
export async function rawExchange<T>(method: string, path: string, body?: unknown): Promise<{ data: T; warnings: string[] }> {
  const response = await fetch(path, {
    method,
    headers: { 'accept-language': consoleLanguage(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as unknown) : undefined;
  return { data: unwrap<T>({ data: parsed as T, error: parsed, response }), warnings: warningsOf(response) };
}

/** A call the generated paths do not describe (reports, until their service documents them). */
export async function rawCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await rawExchange<T>(method, path, body)).data;
}
