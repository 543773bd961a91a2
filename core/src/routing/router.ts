// The provider matcher (spec "Gateway", routing rules 1-4 and 8; DECISIONS.md "URL and host patterns").
//
// compileRouter compiles every pattern once and groups the ACTIVE providers by tenant, sorted by
// precedence, so that match() is a scan of one tenant's list that stops at the first hit. It does no
// I/O; per request it allocates at most the path, one split of it and the parsed Host.
import { matchValueIssue, type MatchType } from '../model/provider.js';
import { compileHostPattern, parseRequestHost, type HostPattern, type RequestHost } from './host-pattern.js';
import { RoutePatternError } from './pattern-error.js';
import { UrlInput, compileUrlPattern, type UrlPattern } from './url-pattern.js';

/** The header a provider with match_type `header` reads when it names none. */
export const DEFAULT_PROVIDER_HEADER = 'X-LLM-Provider';

/** The provider fields routing reads; the bundle's and the store's provider records both fit. */
export interface RoutableProvider {
  id: string;
  tenant_id: string;
  status: string;
  match_type: MatchType;
  match_value: string;
  header_name?: string | undefined;
  priority?: number | undefined;
  created_at: string;
}

/** Request headers by lower-case name (fastify's `request.headers`), or a lookup by lower-case name. */
export type HeaderSource =
  | Readonly<Record<string, string | string[] | undefined>>
  | ((lowerCaseName: string) => string | string[] | undefined);

export interface MatchRequest {
  /** X-Tenant-ID (the gateway passes `default` when the header is absent). */
  tenant_id: string;
  /** X-Original-URI with its query; url providers do not match without it. */
  original_uri?: string | undefined;
  /** The Host header, with its port if any; host providers do not match without it. */
  host?: string | undefined;
  /** Each header provider reads its own header_name here (lower-cased). */
  headers?: HeaderSource | undefined;
  /**
   * The value used for a header provider whose header is not in `headers`: the registry's match API
   * receives one header value rather than a set of headers.
   */
  header_value?: string | undefined;
}

/** A compiled pattern of one match type. */
export type CompiledPattern =
  | { match_type: 'url'; url: UrlPattern; literalLength: number }
  | { match_type: 'host'; host: HostPattern; literalLength: number }
  | { match_type: 'header'; header: string; value: string; literalLength: number };

/**
 * Checks a match_value against its match_type (matchValueIssue) and compiles it; throws
 * RoutePatternError with a message fit for a 400 (e.g. a regex that RE2 rejects). The registry calls
 * this on create and update.
 */
export function compileMatchPattern(matchType: MatchType, value: string, headerName?: string): CompiledPattern {
  const issue = matchValueIssue(matchType, value);
  if (issue) throw new RoutePatternError(issue);
  switch (matchType) {
    case 'url': {
      const url = compileUrlPattern(value);
      return { match_type: 'url', url, literalLength: url.literalLength };
    }
    case 'host': {
      const host = compileHostPattern(value);
      return { match_type: 'host', host, literalLength: host.literalLength };
    }
    case 'header':
      return {
        match_type: 'header',
        header: (headerName || DEFAULT_PROVIDER_HEADER).toLowerCase(),
        value,
        literalLength: value.length,
      };
  }
}

export interface InvalidProvider<P> {
  provider: P;
  message: string;
}

export interface Router<P extends RoutableProvider = RoutableProvider> {
  /** The winning provider: highest priority, then longest literal pattern, then oldest; or null. */
  match(request: MatchRequest): P | null;
  /** Every matching provider in precedence order (the registry's routing test shows conflicts). */
  matchAll(request: MatchRequest): P[];
  /**
   * A key such that requests with equal keys get the same result: the tenant plus only the inputs its
   * providers read (the path alone, not the query, when none of its url patterns is a regex).
   */
  cacheKey(request: MatchRequest): string;
  /** ACTIVE providers with a valid pattern, over all tenants. */
  readonly size: number;
  /** ACTIVE providers left out because their pattern does not compile (logged by the caller). */
  readonly invalid: ReadonlyArray<InvalidProvider<P>>;
}

interface Entry<P> {
  provider: P;
  pattern: CompiledPattern;
  priority: number;
  createdAt: number;
}

/** What one tenant's providers read from a request, for cacheKey. */
interface TenantRoutes<P> {
  entries: Entry<P>[];
  usesPath: boolean;
  usesUri: boolean;
  usesHost: boolean;
  headerNames: string[];
}

/** Per-request inputs, each computed at most once and only when a pattern needs it. */
class RequestView {
  private url: UrlInput | null | undefined;
  private requestHost: RequestHost | null | undefined;

  constructor(private readonly request: MatchRequest) {}

  urlInput(): UrlInput | null {
    if (this.url === undefined) {
      const uri = this.request.original_uri;
      this.url = uri ? new UrlInput(uri) : null;
    }
    return this.url;
  }

  host(): RequestHost | null {
    if (this.requestHost === undefined) {
      const host = this.request.host;
      this.requestHost = host ? parseRequestHost(host) : null;
    }
    return this.requestHost;
  }

  header(name: string): string | string[] | undefined {
    const headers = this.request.headers;
    const value = typeof headers === 'function' ? headers(name) : headers?.[name];
    return value ?? this.request.header_value;
  }
}

function matches(pattern: CompiledPattern, view: RequestView): boolean {
  switch (pattern.match_type) {
    case 'url': {
      const input = view.urlInput();
      return input !== null && pattern.url.test(input);
    }
    case 'host': {
      const host = view.host();
      return host !== null && pattern.host.test(host);
    }
    case 'header': {
      // exact and case-sensitive; a repeated header matches when one of its values does
      const value = view.header(pattern.header);
      return Array.isArray(value) ? value.includes(pattern.value) : value === pattern.value;
    }
  }
}

function precedence<P extends RoutableProvider>(a: Entry<P>, b: Entry<P>): number {
  return (
    b.priority - a.priority ||
    b.pattern.literalLength - a.pattern.literalLength ||
    a.createdAt - b.createdAt ||
    (a.provider.id < b.provider.id ? -1 : a.provider.id > b.provider.id ? 1 : 0)
  );
}

/** `<length>:<text>` so that no value can be mistaken for a separator. */
function keyPart(value: string | undefined): string {
  return value === undefined ? '-' : `${value.length}:${value}`;
}

/**
 * Compiles the routing table. Only ACTIVE providers are kept (DRAFT and ARCHIVED are never routed);
 * an ACTIVE provider whose pattern does not compile is listed in `invalid` instead of failing the
 * whole table. A provider id seen twice keeps its first record.
 */
export function compileRouter<P extends RoutableProvider>(providers: readonly P[]): Router<P> {
  const tenants = new Map<string, TenantRoutes<P>>();
  const invalid: InvalidProvider<P>[] = [];
  const seen = new Set<string>();
  let size = 0;

  for (const provider of providers) {
    if (provider.status !== 'ACTIVE' || seen.has(provider.id)) continue;
    seen.add(provider.id);
    let pattern: CompiledPattern;
    try {
      pattern = compileMatchPattern(provider.match_type, provider.match_value, provider.header_name);
    } catch (error) {
      invalid.push({ provider, message: error instanceof Error ? error.message : String(error) });
      continue;
    }
    const createdAt = Date.parse(provider.created_at);
    let routes = tenants.get(provider.tenant_id);
    if (!routes) {
      routes = { entries: [], usesPath: false, usesUri: false, usesHost: false, headerNames: [] };
      tenants.set(provider.tenant_id, routes);
    }
    routes.entries.push({
      provider,
      pattern,
      priority: provider.priority ?? 100,
      createdAt: Number.isNaN(createdAt) ? Number.MAX_SAFE_INTEGER : createdAt,
    });
    if (pattern.match_type === 'url') {
      if (pattern.url.usesQuery) routes.usesUri = true;
      else routes.usesPath = true;
    } else if (pattern.match_type === 'host') {
      routes.usesHost = true;
    } else if (!routes.headerNames.includes(pattern.header)) {
      routes.headerNames.push(pattern.header);
    }
    size++;
  }
  for (const routes of tenants.values()) {
    routes.entries.sort(precedence);
    routes.headerNames.sort();
  }

  return {
    size,
    invalid,
    match(request) {
      const routes = tenants.get(request.tenant_id);
      if (!routes) return null;
      const view = new RequestView(request);
      for (const entry of routes.entries) if (matches(entry.pattern, view)) return entry.provider;
      return null;
    },
    matchAll(request) {
      const routes = tenants.get(request.tenant_id);
      if (!routes) return [];
      const view = new RequestView(request);
      return routes.entries.filter((entry) => matches(entry.pattern, view)).map((entry) => entry.provider);
    },
    cacheKey(request) {
      let key = keyPart(request.tenant_id);
      const routes = tenants.get(request.tenant_id);
      if (!routes) return key;
      if (routes.usesUri) key += `|u${keyPart(request.original_uri)}`;
      else if (routes.usesPath) key += `|p${keyPart(request.original_uri ? new UrlInput(request.original_uri).path : undefined)}`;
      if (routes.usesHost) key += `|h${keyPart(request.host?.toLowerCase())}`;
      if (routes.headerNames.length > 0) {
        const view = new RequestView(request);
        for (const name of routes.headerNames) {
          const value = view.header(name);
          key += `|${keyPart(name)}=${Array.isArray(value) ? `[${value.map(keyPart).join(',')}]` : keyPart(value)}`;
        }
      }
      return key;
    },
  };
}
