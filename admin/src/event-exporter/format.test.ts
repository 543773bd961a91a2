import t from 'tap';
import { formatCef, escapeCefExtension, escapeCefHeader } from './cef-format.js';
import { formatRfc3164, formatRfc5424, octetCounted, rfc3164Timestamp } from './syslog-format.js';
import { sampleEvent } from '../testing/exporter-peers.js';

const origin = { hostname: 'exp-host', procId: '4242' };
const event = sampleEvent({ user_prompt: null, reasons: [] });

t.test('RFC 5424: header fields, structured data and the JSON message', async (t) => {
  const line = formatRfc5424(event, { a: 1 }, { facility: 16, app_name: 'palisade' }, origin);
  // facility 16 (local0) * 8 + severity 2 (CRITICAL → crit) = 130
  t.equal(
    line,
    '<130>1 2024-05-01T10:15:02.123Z exp-host palisade 4242 JAILBREAK_DETECTED [palisade@32473 event_id="0b6f3c2e-9a51-4f7e-8d2a-1c3b5e7f9a01" trace_id="trace-1" tenant_id="acme" severity="CRITICAL"] \uFEFF{"a":1}',
  );
  const escaped = formatRfc5424({ ...event, trace_id: 'a"b\\c]d', severity: 'LOW' }, {}, { facility: 0, app_name: 'x' }, { hostname: 'h o', procId: '' });
  t.match(escaped, /^<5>1 \S+ ho x - JAILBREAK_DETECTED /, 'LOW → notice (5); spaces stripped; empty PROCID is -');
  t.match(escaped, /trace_id="a\\"b\\\\c\\]d"/, 'SD-PARAM escaping of " \\ ]');
});

t.test('RFC 3164: PRI, UTC timestamp with a space-padded day, tag[pid]', async (t) => {
  t.equal(rfc3164Timestamp('2024-05-01T09:05:02.999Z'), 'May  1 09:05:02');
  t.equal(formatRfc3164({ ...event, severity: 'HIGH' }, { a: 1 }, { facility: 23, app_name: 'my-app' }, origin), '<187>May  1 10:15:02 exp-host my-app[4242]: {"a":1}');
});

t.test('octet counting counts bytes, not characters', async (t) => {
  t.equal(octetCounted('é').toString('utf8'), '2 é');
});

t.test('CEF: header and extension escaping, severity mapping', async (t) => {
  t.equal(escapeCefHeader('a|b\\c\nd'), 'a\\|b\\\\c d');
  t.equal(escapeCefExtension('a=b\\c\nd\re|f'), 'a\\=b\\\\c\\nd\\re|f');
  const line = formatCef(sampleEvent(), { device_vendor: 'Pali|sade', device_product: 'Gate\\way', device_version: '1.0' });
  t.equal(
    line,
    'CEF:0|Pali\\|sade|Gate\\\\way|1.0|JAILBREAK_DETECTED|Jailbreak detected|10|rt=1714558502123 externalId=0b6f3c2e-9a51-4f7e-8d2a-1c3b5e7f9a01 src=192.0.2.10 act=BLOCK outcome=BLOCK msg=score 0.93 >\\= 0.8; a\\\\b\\nc cs1Label=trace_id cs1=trace-1 cs2Label=tenant_id cs2=acme cs3Label=profile_id cs3=00000000-0000-4000-8000-00000000000b cs4Label=provider cs4=vendor|a cs5Label=model cs5=model\\=x cfp1Label=jailbreak_score cfp1=0.93',
  );
  for (const [severity, cef] of [['CRITICAL', 10], ['HIGH', 8], ['MEDIUM', 5], ['LOW', 3], ['INFO', 1]] as const) {
    t.equal(formatCef(sampleEvent({ severity }), { device_vendor: 'v', device_product: 'p', device_version: '1' }).split('|')[6], String(cef), severity);
  }
});
