// What the gateway's HTTP server accepts at the socket level: how many connections, and the answer to
// CONNECT (node hands a CONNECT request to a 'connect' listener, and without one drops it silently).
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { PalisadeError, rawErrorResponse } from '@palisade/core';

/** The gateway proxies POST only; any other method is a 405 with `Allow: POST`. */
export const methodNotAllowed = () => new PalisadeError('METHOD_NOT_ALLOWED', { message: 'The gateway proxies POST requests only', headers: { allow: 'POST' } });

export function limitConnections(server: Server, maxConnections: number): void {
  // Past the cap node closes new sockets at once; the header and body timeouts free slow ones.
  server.maxConnections = maxConnections;
  server.on('connect', (_request, socket: Socket) => {
    socket.on('error', () => undefined);
    socket.end(rawErrorResponse(methodNotAllowed(), 'gateway', 'Method Not Allowed'));
  });
}
