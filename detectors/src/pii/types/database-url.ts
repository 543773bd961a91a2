// DATABASE_URL: connection strings that carry credentials.
//  - URLs of database, cache and queue schemes with a password in the user info
//    ("postgresql://app:s3cret@db:5432/app", "redis://:s3cret@cache:6379/0", "mongodb+srv://…",
//    SQLAlchemy's "postgresql+psycopg2://…", "jdbc:mysql://…") or in the parameters
//    ("jdbc:postgresql://db/app?user=app&password=s3cret", "jdbc:sqlserver://db;user=sa;password=…");
//  - ADO.NET / ODBC strings: "Server=db;Database=app;User Id=sa;Password=s3cret;".
// A URL without a password, or with a template in its place ("${DB_PASSWORD}", "{{ pass }}", "%s",
// "$PGPASSWORD", "***"), is not a leak. HTTP URLs with credentials are not database URLs.
// Mask (spec: "connection-string credentials masked"): user and password replaced by "***", the rest
// kept ("postgresql://***:***@db:5432/app", "Server=db;Database=app;User Id=***;Password=***;").
import type { PiiCandidate, PiiRule } from '../rule.js';
import { isAsciiAlnum, toAsciiLower } from '../text/chars.js';

export const DATABASE_SCHEMES = new Set([
  'postgres', 'postgresql', 'pgsql', 'mysql', 'mysqlx', 'mariadb', 'mssql', 'sqlserver', 'oracle', 'mongodb', 'mongodb+srv',
  'redis', 'rediss', 'valkey', 'amqp', 'amqps', 'clickhouse', 'cockroachdb', 'cockroach', 'cassandra', 'couchdb', 'couchbase',
  'couchbases', 'neo4j', 'neo4j+s', 'neo4j+ssc', 'bolt', 'bolt+s', 'memcached', 'db2', 'snowflake', 'influxdb', 'nats',
  'firebird', 'presto', 'trino', 'hive', 'hive2', 'vertica', 'tarantool', 'redshift', 'timescaledb', 'greenplum', 'sybase',
  'informix', 'kafka', 'scylladb', 'arangodb', 'questdb', 'ydb', 'ydbs', 'edgedb', 'surrealdb', 'rethinkdb', 'dynamodb',
]);

const MAX_SCHEME = 40;

// A "://" that follows no database scheme is rejected by the length and the first and last letters
// of the scheme's part before any "+" (every "+" scheme's base is a scheme of its own), read in
// place: copying and lower-casing each candidate was a fifth of the PII scan of a text of "eyJ://".
/** Scheme characters are ASCII, so a length, a first and a last one fit in one number. */
const schemeSignature = (length: number, first: number, last: number) => length * 65536 + toAsciiLower(first) * 256 + toAsciiLower(last);
const SCHEME_SIGNATURES = new Set([...DATABASE_SCHEMES].map((s) => schemeSignature(s.length, s.charCodeAt(0), s.charCodeAt(s.length - 1))));

/** Whether text[start, sep) may be a database scheme: its base (up to a "+") has a known length and first and last letter. */
function mayBeSchemeAt(text: string, start: number, sep: number): boolean {
  let baseEnd = start;
  while (baseEnd < sep && text.charCodeAt(baseEnd) !== 43) baseEnd++;
  return baseEnd > start && SCHEME_SIGNATURES.has(schemeSignature(baseEnd - start, text.charCodeAt(start), text.charCodeAt(baseEnd - 1)));
}
const MAX_URL = 2048;
/** Credentials that are a template or already hidden. Tested on short strings only. */
const PLACEHOLDER = /^(?:\$\{[^}]*\}|\{\{[^}]*\}\}|<[^>]*>|\$[A-Za-z_][A-Za-z0-9_]*|%s|%\([A-Za-z_]+\)s|\*+|x{3,}|\.\.\.)$/i;

const isSchemeChar = (c: number) => isAsciiAlnum(c) || c === 43 || c === 46 || c === 45;
/** Characters that end a URL in prose, JSON, YAML and shell. */
const endsUrl = (c: number) => c <= 32 || c === 34 || c === 39 || c === 96 || c === 60 || c === 62 || c === 92 || c === 0x7f;
/** Punctuation after a URL in prose; "!" is not among them, passwords end with it too often. */
const TRAILING = '.,;:?';
const CLOSERS: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{' };

/** The end of a URL without the sentence punctuation and unbalanced closing brackets after it. */
function trimUrlEnd(text: string, from: number, end: number): number {
  for (;;) {
    const last = text[end - 1]!;
    if (end > from && TRAILING.includes(last)) end--;
    else if (end > from && CLOSERS[last] !== undefined) {
      const url = text.slice(from, end);
      if (url.split(last).length > url.split(CLOSERS[last]!).length) end--;
      else return end;
    } else return end;
  }
}

function schemeKnown(scheme: string): boolean {
  const lower = scheme.toLowerCase();
  return DATABASE_SCHEMES.has(lower) || DATABASE_SCHEMES.has(lower.split('+')[0]!);
}

const realSecret = (value: string) => value.length > 0 && value.length <= 512 && !PLACEHOLDER.test(value);

/** "password=…" in the parameters (after "?", "&" or ";"), as JDBC drivers take it. */
function parameterPassword(rest: string): boolean {
  const lower = rest.toLowerCase();
  for (let at = lower.indexOf('password='); at !== -1; at = lower.indexOf('password=', at + 1)) {
    const before = lower.charCodeAt(at - 1);
    if (before !== 63 && before !== 38 && before !== 59) continue; // ? & ;
    let end = at + 9;
    while (end < rest.length && rest[end] !== '&' && rest[end] !== ';') end++;
    if (realSecret(rest.slice(at + 9, end))) return true;
  }
  return false;
}

/** The URL around "://" at `sep` when it has credentials; `next` is where the search goes on. */
function urlAt(text: string, sep: number): { candidate?: PiiCandidate; next: number } {
  let start = sep;
  while (start > 0 && isSchemeChar(text.charCodeAt(start - 1)) && sep - start < MAX_SCHEME) start--;
  // Leading dots or pluses are punctuation, not scheme ("…see.postgres://").
  while (start < sep && !isAsciiAlnum(text.charCodeAt(start))) start++;
  if (!mayBeSchemeAt(text, start, sep) || !schemeKnown(text.slice(start, sep))) return { next: sep + 3 };
  if (start >= 5 && text.slice(start - 5, start).toLowerCase() === 'jdbc:') start -= 5;
  let end = sep + 3;
  while (end < text.length && !endsUrl(text.charCodeAt(end)) && end - sep < MAX_URL) end++;
  end = trimUrlEnd(text, sep + 3, end);
  const rest = text.slice(sep + 3, end);
  let authorityEnd = rest.length;
  for (const stop of ['/', '?', '#']) {
    const at = rest.indexOf(stop);
    if (at !== -1 && at < authorityEnd) authorityEnd = at;
  }
  const authority = rest.slice(0, authorityEnd);
  const at = authority.lastIndexOf('@');
  if (at > 0 && at < authority.length - 1) {
    const userinfo = authority.slice(0, at);
    const colon = userinfo.indexOf(':');
    if (colon !== -1 && realSecret(userinfo.slice(colon + 1))) return { candidate: { start, end, score: 0.95 }, next: end };
  }
  // Either way the search resumes after this URL, so each character is read by one forward scan.
  return parameterPassword(rest) ? { candidate: { start, end, score: 0.95 }, next: end } : { next: Math.max(end, sep + 3) };
}

// ---- ADO.NET / ODBC key=value strings ----

/** Literal words and a run of blanks before "=": no nested repetition, so no backtracking blow-up. */
const PASSWORD_KEY = '(?:password|pwd)[ \\t]*=';
/** Segments read on either side of the password; more are not one connection string. */
const MAX_SEGMENTS = 32;
const HOST_KEYS = new Set(['server', 'data source', 'host', 'hostname', 'address', 'addr', 'network address', 'datasource']);
const KNOWN_KEYS = new Set([
  ...HOST_KEYS, 'database', 'initial catalog', 'user id', 'userid', 'uid', 'user', 'username', 'password', 'pwd', 'port', 'dsn',
  'driver', 'provider', 'trusted_connection', 'encrypt', 'integrated security', 'sslmode', 'timeout', 'connect timeout',
  'trustservercertificate', 'persist security info', 'multipleactiveresultsets', 'application name', 'pooling', 'schema',
]);
const MAX_SEGMENT = 256;
const endsSegment = (c: number) => c === 59 || c === 34 || c === 39 || c === 96 || c === 10 || c === 13;

/**
 * The connection-string key of a "Key=value" segment, lower-cased: the known key that ends the text
 * before "=". `whole` says whether that key is all of it (a middle segment) or only its last words
 * ("Use Server=db", "DATABASE_URL=Server=db": the start of the string).
 */
function segmentKey(segment: string): { key: string; offset: number; whole: boolean } | undefined {
  const first = segment.indexOf('=');
  const last = segment.lastIndexOf('=');
  // The common case first: the whole text before "=" is a known key ("Server", " User Id ").
  if (first > 0) {
    const direct = segment.slice(0, first).trim().toLowerCase();
    if (KNOWN_KEYS.has(direct)) return { key: direct, offset: segment.length - segment.trimStart().length, whole: true };
  }
  for (const eq of first === last ? [first] : [first, last]) {
    if (eq <= 0) continue;
    // The letters, spaces and underscores just before "=" (at most 40), read backwards: linear.
    let e = eq;
    while (e > 0 && segment.charCodeAt(e - 1) === 32) e--;
    let b = e;
    while (b > 0 && e - b <= 40) {
      const c = segment.charCodeAt(b - 1);
      if (!isAsciiAlnum(c) && c !== 32 && c !== 95) break;
      b--;
    }
    while (b < e && (segment.charCodeAt(b) === 32 || segment.charCodeAt(b) === 95 || !isAsciiAlnum(segment.charCodeAt(b)) || isDigitCode(segment.charCodeAt(b)))) b++;
    if (b === e) continue;
    const words = segment.slice(b, e).toLowerCase().split(' ').filter((w) => w !== '');
    for (let i = 0; i < words.length; i++) {
      const key = words.slice(i).join(' ');
      if (!KNOWN_KEYS.has(key)) continue;
      const offset = segment.toLowerCase().lastIndexOf(key, eq);
      return { key, offset, whole: segment.slice(0, offset).trim() === '' };
    }
  }
  return undefined;
}

const isDigitCode = (c: number) => c >= 48 && c <= 57;

/** The connection string around a password key; `floor`: where the previous one ended. */
function adoAt(text: string, keyStart: number, valueStart: number, floor: number): PiiCandidate | undefined {
  if (keyStart > 0 && /[A-Za-z0-9_]/.test(text[keyStart - 1]!)) return undefined;
  // The password's value: to ";" or the end of the string; unterminated, to the first blank.
  let valueEnd = valueStart;
  while (valueEnd < text.length && !endsSegment(text.charCodeAt(valueEnd)) && valueEnd - valueStart < MAX_SEGMENT) valueEnd++;
  if (valueEnd >= text.length || text.charCodeAt(valueEnd) !== 59) {
    const blank = text.slice(valueStart, valueEnd).search(/\s/);
    if (blank !== -1) valueEnd = valueStart + blank;
  }
  if (!realSecret(text.slice(valueStart, valueEnd).trim())) return undefined;
  const keys = new Set<string>(['password']);
  // Segments before the password, back to the start of the string.
  let start = keyStart;
  for (let count = 0; count < MAX_SEGMENTS; count++) {
    let q = start - 1;
    while (q >= floor && text.charCodeAt(q) === 32) q--;
    if (q < floor || text.charCodeAt(q) !== 59) break;
    let s = q;
    while (s > floor && !endsSegment(text.charCodeAt(s - 1)) && q - s < MAX_SEGMENT) s--;
    const found = segmentKey(text.slice(s, q));
    if (!found) break;
    keys.add(found.key);
    start = s + found.offset;
    if (!found.whole) break;
  }
  // Segments after the password; a final ";" belongs to the string.
  let end = valueEnd;
  for (let count = 0; count < MAX_SEGMENTS && end < text.length && text.charCodeAt(end) === 59; count++) {
    let s = end + 1;
    while (s < text.length && text.charCodeAt(s) === 32) s++;
    let e = s;
    while (e < text.length && !endsSegment(text.charCodeAt(e)) && e - s < MAX_SEGMENT) e++;
    const found = segmentKey(text.slice(s, e));
    if (!found || !found.whole || found.offset !== 0) {
      end++;
      break;
    }
    keys.add(found.key);
    end = e;
  }
  if (![...keys].some((k) => HOST_KEYS.has(k))) return undefined;
  return { start, end, score: 0.9 };
}

function adoStrings(text: string, out: PiiCandidate[]): void {
  const pattern = new RegExp(PASSWORD_KEY, 'gi');
  let floor = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const found = adoAt(text, m.index, m.index + m[0].length, floor);
    if (!found) continue;
    out.push(found);
    // Passwords inside the string just found are part of it; segments are read once.
    floor = found.end;
    if (pattern.lastIndex < found.end) pattern.lastIndex = found.end;
  }
}

/** "user:pass@" → "***:***@", and password/user values in parameters and ADO segments → "***". */
function maskCredentials(value: string): string {
  let out = value;
  const sep = out.indexOf('://');
  if (sep !== -1) {
    const restStart = sep + 3;
    let authorityEnd = out.length;
    for (const stop of ['/', '?', '#']) {
      const at = out.indexOf(stop, restStart);
      if (at !== -1 && at < authorityEnd) authorityEnd = at;
    }
    const at = out.lastIndexOf('@', authorityEnd - 1);
    if (at > restStart) {
      const userinfo = out.slice(restStart, at);
      const colon = userinfo.indexOf(':');
      const masked = colon === -1 ? '***' : `${colon === 0 ? '' : '***'}:***`;
      out = out.slice(0, restStart) + masked + out.slice(at);
    }
  }
  return out.replace(/((?:^|[?&;])[ ]*(?:password|pwd|user ?id|userid|uid|user|username)[ ]*=)([^;&]*)/gi, '$1***');
}

export const databaseUrlRule: PiiRule = {
  type: 'DATABASE_URL',
  scan({ text }) {
    const out: PiiCandidate[] = [];
    for (let sep = text.indexOf('://'); sep !== -1; ) {
      const { candidate, next } = urlAt(text, sep);
      if (candidate) out.push(candidate);
      sep = text.indexOf('://', next);
    }
    adoStrings(text, out);
    return out;
  },
  mask: maskCredentials,
};
