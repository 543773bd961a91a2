// Host patterns of providers with match_type `host` (DECISIONS.md, "URL and host patterns").
//
// - `api.example.com` matches that host only; `*.example.com` matches any subdomain at any depth
//   (`a.example.com`, `a.b.example.com`) but not `example.com` itself.
// - Case-insensitive; a trailing dot (fully qualified form) is ignored on both sides.
// - A pattern without a port matches the host on any port; a pattern with a port (`h:8443`) needs the
//   Host header to carry that port explicitly (the scheme is unknown behind the front proxy, so no
//   default port is assumed).
// - IPv6 literals are compared in brackets, as Host headers carry them (`[::1]`, `[::1]:8080`); a bare
//   IPv6 pattern (`::1`) is read as an address without a port.
import { RoutePatternError } from './pattern-error.js';

export interface HostPattern {
  readonly source: string;
  readonly wildcard: boolean;
  /** The host of an exact pattern, or the suffix (`.example.com`) of a wildcard, lower case. */
  readonly host: string;
  /** The required port, or -1 for any. */
  readonly port: number;
  /** Characters of the pattern other than the leading `*`. */
  readonly literalLength: number;
  test(request: RequestHost): boolean;
}

/** The request's Host header split once into lower-case host and port (-1 when absent). */
export interface RequestHost {
  host: string;
  port: number;
}

/** Splits `Host` into host and port: `API.example.com:8443` → {host: 'api.example.com', port: 8443}. */
export function parseRequestHost(value: string): RequestHost {
  const { host, port } = splitHostPort(value.trim().toLowerCase());
  return { host, port: port === '' ? -1 : toPort(port) };
}

function splitHostPort(value: string): { host: string; port: string } {
  let host = value;
  let port = '';
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end !== -1) {
      host = value.slice(0, end + 1);
      if (value[end + 1] === ':') port = value.slice(end + 2);
    }
  } else {
    const colon = value.indexOf(':');
    if (colon !== -1 && value.indexOf(':', colon + 1) !== -1) {
      host = `[${value}]`; // bare IPv6 address, no port
    } else if (colon !== -1) {
      host = value.slice(0, colon);
      port = value.slice(colon + 1);
    }
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  return { host, port };
}

/** A decimal port 0-65535, or -2 (never equal to a pattern's port) when malformed. */
function toPort(text: string): number {
  if (text.length === 0 || text.length > 5) return -2;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -2;
    n = n * 10 + d;
  }
  return n <= 65535 ? n : -2;
}

/** Compiles a host match_value (already checked by matchValueIssue). */
export function compileHostPattern(value: string): HostPattern {
  const { host, port: portText } = splitHostPort(value.trim().toLowerCase());
  const port = portText === '' ? -1 : toPort(portText);
  if (port < -1) throw new RoutePatternError(`invalid port in host pattern ${JSON.stringify(value)}`);
  const wildcard = host.startsWith('*.');
  const name = wildcard ? host.slice(1) : host; // `.example.com`
  const literalLength = name.length + (portText === '' ? 0 : portText.length + 1);
  const portOk = (request: RequestHost) => port === -1 || request.port === port;
  return {
    source: value,
    wildcard,
    host: name,
    port,
    literalLength,
    test: wildcard
      ? (request) => request.host.length > name.length && request.host.endsWith(name) && portOk(request)
      : (request) => request.host === name && portOk(request),
  };
}
