import t from 'tap';
import { compileHostPattern, parseRequestHost } from './host-pattern.js';

const test = (pattern: string, host: string) => compileHostPattern(pattern).test(parseRequestHost(host));

t.test('parseRequestHost splits host and port, lower-cases and drops a trailing dot', async (t) => {
  t.same(parseRequestHost('API.Example.com:8443'), { host: 'api.example.com', port: 8443 });
  t.same(parseRequestHost('api.example.com'), { host: 'api.example.com', port: -1 });
  t.same(parseRequestHost('api.example.com.:80'), { host: 'api.example.com', port: 80 });
  t.same(parseRequestHost('[::1]:8080'), { host: '[::1]', port: 8080 });
  t.same(parseRequestHost('[::1]'), { host: '[::1]', port: -1 });
  t.equal(parseRequestHost('h:99999').port, -2, 'an out-of-range port never equals a pattern port');
  t.equal(parseRequestHost('h:abc').port, -2);
});

t.test('host patterns', async (t) => {
  const cases: Array<[pattern: string, host: string, expected: boolean]> = [
    // exact, case-insensitive, any port when the pattern has none
    ['api.example.com', 'api.example.com', true],
    ['api.example.com', 'API.Example.COM', true],
    ['API.Example.com', 'api.example.com', true],
    ['api.example.com', 'api.example.com:8443', true],
    ['api.example.com', 'api.example.com.', true],
    ['api.example.com.', 'api.example.com', true],
    ['api.example.com', 'x.api.example.com', false],
    ['api.example.com', 'example.com', false],
    ['api.example.com', 'api.example.co', false],
    // `*.` = subdomains at any depth, never the bare domain
    ['*.example.com', 'a.example.com', true],
    ['*.example.com', 'a.b.example.com', true],
    ['*.example.com', 'A.EXAMPLE.com:9000', true],
    ['*.example.com', 'example.com', false],
    ['*.example.com', 'badexample.com', false],
    ['*.example.com', '.example.com', false],
    ['*.example.com', 'example.com.evil.io', false],
    // a port in the pattern must be matched, and carried explicitly by the request
    ['api.example.com:8443', 'api.example.com:8443', true],
    ['api.example.com:8443', 'API.example.com:8443', true],
    ['api.example.com:8443', 'api.example.com', false],
    ['api.example.com:8443', 'api.example.com:443', false],
    ['api.example.com:443', 'api.example.com', false],
    ['*.example.com:8443', 'a.example.com:8443', true],
    ['*.example.com:8443', 'a.example.com', false],
    // addresses
    ['10.0.0.1', '10.0.0.1:80', true],
    ['10.0.0.1', '10.0.0.10', false],
    ['[::1]', '[::1]:9000', true],
    ['[::1]:8080', '[::1]:8080', true],
    ['[::1]:8080', '[::1]', false],
    ['[::1]:8080', '[::2]:8080', false],
  ];
  for (const [pattern, host, expected] of cases) t.equal(test(pattern, host), expected, `${pattern} ~ ${host}`);
});

t.test('literal length: exact beats wildcard, a port counts', async (t) => {
  t.equal(compileHostPattern('api.example.com').literalLength, 15);
  t.equal(compileHostPattern('*.example.com').literalLength, 12);
  t.equal(compileHostPattern('api.example.com:8443').literalLength, 20);
  t.ok(compileHostPattern('a.example.com').literalLength > compileHostPattern('*.example.com').literalLength);
});
