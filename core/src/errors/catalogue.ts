/**
 * The one error catalogue: every coded error the product can answer with. Gateway codes come from the
 * spec's "Errors" table; admin codes from DECISIONS.md. Each entry fixes the HTTP status and the spec's
 * `type`, so no handler chooses a status by itself.
 */
export const ERROR_TYPES = [
  'invalid_request_error',
  'policy_violation',
  'configuration_error',
  'rate_limit_error',
  'authentication_error',
  'content_policy_violation',
  'llm_error',
  'internal_error',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export interface CatalogueEntry {
  readonly status: number;
  readonly type: ErrorType;
  readonly message: string;
}

const entry = (status: number, type: ErrorType, message: string): CatalogueEntry => ({ status, type, message });

export const ERROR_CATALOGUE = {
  // Gateway, in the spec's order.
  NO_BACKEND_CONFIGURED: entry(502, 'configuration_error', 'No backend configured for this request'),
  NO_BACKEND_PATH_CONFIGURED: entry(502, 'configuration_error', 'X-Real-Backend is set but X-Real-Backend-Path is missing'),
  PROVIDER_MISSING_TARGET: entry(500, 'configuration_error', 'The matched provider has no target_base_url'),
  MISSING_FIELD_MAPPING: entry(500, 'internal_error', 'The matched provider has neither mapping_preset nor mapping_custom'),
  POLICY_VIOLATION: entry(403, 'policy_violation', 'The request was blocked by the security policy'),
  CUSTOM_POLICY_BLOCK: entry(403, 'policy_violation', 'The request was blocked by a content policy'),
  RESPONSE_BLOCKED: entry(451, 'content_policy_violation', 'The response was blocked by the security policy'),
  AUTHENTICATION_FAILED: entry(401, 'authentication_error', 'Missing or invalid Authorization header'),
  RATE_LIMIT_EXCEEDED: entry(429, 'rate_limit_error', 'Rate limit exceeded'),
  LLM_REQUEST_FAILED: entry(502, 'llm_error', 'The LLM backend could not be reached'),
  // Gateway codes the spec leaves "not shown" after LLM_REQUEST_FAILED; ours.
  LLM_TIMEOUT: entry(504, 'llm_error', 'The LLM backend did not answer within request_timeout_ms'),
  INVALID_REQUEST: entry(400, 'invalid_request_error', 'The request body is not valid JSON'),
  PAYLOAD_TOO_LARGE: entry(413, 'invalid_request_error', 'The request body is too large'),
  METHOD_NOT_ALLOWED: entry(405, 'invalid_request_error', 'Method not allowed'),
  // Refused by the HTTP server before any route runs (node's parser and timeouts).
  REQUEST_TIMEOUT: entry(408, 'invalid_request_error', 'The request was not received in time'),
  HEADERS_TOO_LARGE: entry(431, 'invalid_request_error', 'The request headers are too large'),
  SERVICE_UNAVAILABLE: entry(503, 'internal_error', 'A required service is unavailable'),
  NOT_IMPLEMENTED: entry(501, 'internal_error', 'Not implemented'),
  INTERNAL_ERROR: entry(500, 'internal_error', 'Internal error'),
  // Admin API and internal services (DECISIONS.md "Admin API" error body).
  VALIDATION_ERROR: entry(400, 'invalid_request_error', 'The request data is invalid'),
  UNAUTHENTICATED: entry(401, 'authentication_error', 'Authentication required'),
  FORBIDDEN: entry(403, 'authentication_error', 'Access denied'),
  NOT_FOUND: entry(404, 'invalid_request_error', 'Resource not found'),
  CONFLICT: entry(409, 'invalid_request_error', 'The request conflicts with the current state'),
  USERS_MANAGED_EXTERNALLY: entry(409, 'invalid_request_error', 'Users are managed in the external identity provider (IDENTITY_PROVIDER=external)'),
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOGUE, value);
}
