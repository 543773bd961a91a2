import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PalisadeError, renderAdminError, renderGatewayError, toPalisadeError } from '../errors/index.js';
import { languageOf } from '../i18n/language.js';

/** `gateway` answers with the spec's gateway body (with trace_id); `admin` with DECISIONS.md's body. */
export type ErrorFormat = 'gateway' | 'admin';

/** Fastify's own failures (bad JSON, too large, wrong content type) as catalogue errors. */
function fromFastify(error: FastifyError): PalisadeError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new PalisadeError('PAYLOAD_TOO_LARGE', { cause: error });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new PalisadeError('INVALID_REQUEST', { message: `The request body is not valid JSON: ${error.message}`, cause: error });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new PalisadeError('INVALID_REQUEST', { message: 'Unsupported content type; send application/json', cause: error });
    case 'FST_ERR_VALIDATION':
      return new PalisadeError('VALIDATION_ERROR', { message: error.message, cause: error });
    default:
      if (error instanceof SyntaxError || (error.statusCode === 400 && !(error instanceof PalisadeError)))
        return new PalisadeError('INVALID_REQUEST', { message: error.message, cause: error });
      return undefined;
  }
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: PalisadeError, format: ErrorFormat): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
  const traceId = (request as FastifyRequest & { traceId?: string }).traceId;
  return reply.code(error.status).send(format === 'gateway' ? renderGatewayError(error, traceId) : renderAdminError(error, languageOf(request.headers['accept-language'])));
}

export function registerErrorHandling(app: FastifyInstance, format: ErrorFormat, notFound?: (request: FastifyRequest) => PalisadeError): void {
  app.setErrorHandler((raw: FastifyError, request, reply) => {
    const error = fromFastify(raw) ?? toPalisadeError(raw);
    if (error.status >= 500) request.log.error({ err: raw }, error.message);
    else request.log.info({ code: error.code }, error.message);
    return sendError(request, reply, error, format);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, notFound?.(request) ?? new PalisadeError('NOT_FOUND', { message: `No route for ${request.method} ${boundedPath(request.url)}` }), format),
  );
}

/** The path of a URL for an error message: without the query, and never unbounded. */
function boundedPath(url: string): string {
  const path = url.split('?')[0]!;
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}
