// Requests the HTTP server refuses before fastify sees them (node's parser, header size, timeouts)
// and requests fastify's router refuses (a bad URL): answered in the service's error format instead
// of fastify's own body, so that a client of the gateway reads one error shape whatever failed.
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { PalisadeError, renderAdminError, renderGatewayError } from '../errors/index.js';
import type { ErrorFormat } from './errors.js';

/** A request line whose method is an HTTP token: the parser refused the method, not the syntax. */
const TOKEN_METHOD_LINE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,32} [^\s]+ HTTP\/\d\.\d\r?\n/;

export interface ClientErrorOptions {
  format: ErrorFormat;
  /** The Allow header of a 405 (the gateway: POST). */
  allow?: string | undefined;
}

type ParserError = Error & { code?: string; rawPacket?: Buffer };
type HttpSocket = Socket & { _httpMessage?: { headersSent?: boolean } | null };

/** The catalogue error for one of node's client errors; null when there is nothing to answer. */
export function clientErrorOf(error: ParserError, allow?: string): PalisadeError | null {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return null;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new PalisadeError('REQUEST_TIMEOUT', { message: 'The request headers or body were not received in time' });
    case 'HPE_HEADER_OVERFLOW':
      return new PalisadeError('HEADERS_TOO_LARGE', { message: 'The request line and headers exceed the size the server accepts' });
    case 'HPE_INVALID_METHOD': {
      // node's parser knows a fixed list of methods; any other token is a method we do not allow.
      const head = error.rawPacket?.subarray(0, 2048).toString('latin1') ?? '';
      if (TOKEN_METHOD_LINE.test(head)) {
        return new PalisadeError('METHOD_NOT_ALLOWED', { message: 'Method not allowed', ...(allow ? { headers: { allow } } : {}) });
      }
      return new PalisadeError('INVALID_REQUEST', { message: 'Malformed HTTP request' });
    }
    default:
      return new PalisadeError('INVALID_REQUEST', { message: 'Malformed HTTP request' });
  }
}

/** One complete HTTP/1.1 answer with `Connection: close`, written straight to the socket. */
export function rawErrorResponse(error: PalisadeError, format: ErrorFormat, reason: string): string {
  const body = JSON.stringify(format === 'gateway' ? renderGatewayError(error) : renderAdminError(error));
  const headers = Object.entries(error.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return (
    `HTTP/1.1 ${error.status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\n${headers}connection: close\r\n\r\n${body}`
  );
}

/** fastify's `clientErrorHandler`: node's 400/408/431 (and unknown methods) in the catalogue's shape. */
export function createClientErrorHandler(options: ClientErrorOptions) {
  // fastify calls it bound to the instance: `this.log` is the service's logger.
  return function onClientError(this: { log: { debug(o: object, msg: string): void } }, raw: Error, socket: Socket): void {
    const error = clientErrorOf(raw as ParserError, options.allow);
    if (!error || socket.destroyed) return;
    this.log.debug({ err: raw, code: error.code }, 'refused a malformed or slow request');
    // As node does: an answer already started for this socket cannot be replaced, only cut.
    const started = (socket as HttpSocket)._httpMessage?.headersSent === true;
    if (socket.writable && !started) socket.write(rawErrorResponse(error, options.format, reasonOf(error.status)));
    socket.destroy();
  };
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };
const reasonOf = (status: number) => REASONS[status] ?? 'Error';

/** fastify's `frameworkErrors`: a URL the router cannot decode or a path parameter that is too long. */
export function createFrameworkErrorHandler(send: (request: FastifyRequest, reply: FastifyReply, error: PalisadeError) => FastifyReply) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const message = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path segment is too long' : 'The request URL is not valid';
    return send(request, reply, new PalisadeError('INVALID_REQUEST', { message, cause: error }));
  };
}
