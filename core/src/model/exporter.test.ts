import t from 'tap';
import { z } from 'zod';
import {
  ECS_FIELD_MAPPING,
  Exporter,
  ExporterCreate,
  ExporterSpec,
  ExporterUpdate,
  exporterUpdateSchema,
  matchesFilters,
} from './exporter.js';
import { parseDurationMs } from './exporter-configs.js';
import { issuePaths, issuesOf, parseOk } from '../testing/model.js';

const make = (type: string, config: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: `${type}-1`,
  type,
  config,
  ...extra,
});
const webhook = (c: Record<string, unknown>) => make('webhook', { url: 'https://siem.example.com/hook', ...c });
const kafka = (c: Record<string, unknown>) => make('kafka', { brokers: ['kafka-1:9092'], topic: 'palisade.events', ...c });
const syslog = (c: Record<string, unknown>) => make('syslog', { address: 'siem.local:514', ...c });
const cef = (c: Record<string, unknown>) => make('cef', { host: '10.0.0.5', port: 514, ...c });
const configOf = (body: unknown) => parseOk(ExporterCreate, body).config as Record<string, unknown>;
const file = (c: Record<string, unknown>) => make('file', { path: '/var/log/palisade/events.jsonl', ...c });

t.test('common fields and their defaults', async (t) => {
  const e = parseOk(ExporterCreate, webhook({}));
  t.equal(e.enabled, true, 'created enabled');
  t.equal(e.description, '');
  t.same(e.filters, { severities: [], event_types: [], tenant_ids: [] });
  t.equal(e.field_mapping, 'generic');
  t.same(e.custom_mapping, {});
  t.same(issuePaths(ExporterCreate, { ...webhook({}), name: '' }), ['name']);
  t.same(issuePaths(ExporterCreate, { type: 'webhook', config: { url: 'https://x.example.com' } }), ['name']);
  t.same(issuePaths(ExporterCreate, make('splunk', {})), ['type']);
  t.same(issuePaths(ExporterCreate, { name: 'x', config: {} }), ['type']);
  t.same(issuePaths(ExporterCreate, { name: 'x', type: 'file' }), ['config']);
  t.equal(parseOk(ExporterCreate, { ...file({}), type: 'FILE' }).type, 'file');
});

t.test('webhook', async (t) => {
  t.same(parseOk(ExporterCreate, webhook({})).config, {
    url: 'https://siem.example.com/hook',
    method: 'POST',
    headers: {},
    batch_mode: false,
    timeout_sec: 10,
    max_retries: 3,
  });
  for (const v of [0, 61, 1.5]) t.same(issuePaths(ExporterCreate, webhook({ timeout_sec: v })), ['config.timeout_sec'], `timeout ${v}`);
  for (const v of [1, 60]) t.same(issuePaths(ExporterCreate, webhook({ timeout_sec: v })), [], `timeout ${v}`);
  for (const v of [-1, 11]) t.same(issuePaths(ExporterCreate, webhook({ max_retries: v })), ['config.max_retries'], `retries ${v}`);
  for (const v of [0, 10]) t.same(issuePaths(ExporterCreate, webhook({ max_retries: v })), [], `retries ${v}`);
  t.same(issuePaths(ExporterCreate, webhook({ url: 'not a url' })), ['config.url']);
  t.same(issuePaths(ExporterCreate, make('webhook', {})), ['config.url']);
  t.equal(configOf(webhook({ method: 'put' })).method, 'PUT');
  t.same(issuePaths(ExporterCreate, webhook({ method: 'GET' })), ['config.method']);
  t.same(issuePaths(ExporterCreate, webhook({ headers: { Authorization: 'Bearer x', 'X-Tenant': 'a' }, batch_mode: true })), []);
  t.ok(issuePaths(ExporterCreate, webhook({ headers: { 'bad header': 'x' } }))[0]?.startsWith('config.headers'));
});

t.test('kafka', async (t) => {
  t.same(parseOk(ExporterCreate, kafka({})).config, {
    brokers: ['kafka-1:9092'],
    topic: 'palisade.events',
    compression: 'snappy',
    batch_size: 100,
    flush_interval: '1s',
    sasl_mechanism: 'none',
    tls_enabled: false,
  });
  for (const v of [0, 10001]) t.same(issuePaths(ExporterCreate, kafka({ batch_size: v })), ['config.batch_size'], `batch ${v}`);
  for (const v of [1, 10000]) t.same(issuePaths(ExporterCreate, kafka({ batch_size: v })), [], `batch ${v}`);
  for (const c of ['snappy', 'gzip', 'lz4', 'zstd', 'none']) t.same(issuePaths(ExporterCreate, kafka({ compression: c })), [], c);
  t.same(issuePaths(ExporterCreate, kafka({ compression: 'brotli' })), ['config.compression']);
  for (const d of ['500ms', '1s', '5s', '1m']) t.same(issuePaths(ExporterCreate, kafka({ flush_interval: d })), [], d);
  for (const d of ['1 second', '10', '0s', '2h', 's']) t.same(issuePaths(ExporterCreate, kafka({ flush_interval: d })), ['config.flush_interval'], d);
  t.same(issuePaths(ExporterCreate, kafka({ brokers: [] })), ['config.brokers']);
  t.same(issuePaths(ExporterCreate, kafka({ brokers: ['kafka-1:9092', 'kafka-2'] })), ['config.brokers.1']);
  t.same(issuePaths(ExporterCreate, kafka({ topic: 'bad topic' })), ['config.topic']);
  const noUser = issuesOf(ExporterCreate, kafka({ sasl_mechanism: 'PLAIN' }));
  t.same(noUser.map((i) => i.path), [['config', 'sasl_username']]);
  t.match(noUser[0]?.message, /sasl_username is required/);
  t.same(issuePaths(ExporterCreate, kafka({ sasl_mechanism: 'SCRAM-SHA-512', sasl_username: 'gw', sasl_password: 'p' })), []);
  t.equal(configOf(kafka({ sasl_mechanism: 'scram-sha-256', sasl_username: 'gw' })).sasl_mechanism, 'SCRAM-SHA-256');
  t.same(issuePaths(ExporterCreate, kafka({ sasl_mechanism: 'none' })), []);
  t.same(issuePaths(ExporterCreate, kafka({ sasl_mechanism: 'GSSAPI', sasl_username: 'gw' })), ['config.sasl_mechanism']);
  t.same(issuePaths(ExporterCreate, kafka({ tls_enabled: true, tls_ca_file: '/etc/ssl/ca.pem' })), []);
});

t.test('parseDurationMs', async (t) => {
  t.equal(parseDurationMs('500ms'), 500);
  t.equal(parseDurationMs('1s'), 1000);
  t.equal(parseDurationMs('1.5s'), 1500);
  t.equal(parseDurationMs('5s'), 5000);
  t.equal(parseDurationMs('1m'), 60000);
  t.equal(parseDurationMs('1h'), 3600000);
  t.throws(() => parseDurationMs('soon'), RangeError);
  t.throws(() => parseDurationMs('1d'), RangeError);
});

t.test('syslog', async (t) => {
  t.same(parseOk(ExporterCreate, syslog({})).config, {
    address: 'siem.local:514',
    transport: 'tcp',
    format: 'rfc5424',
    facility: 16,
    app_name: 'palisade',
    tls_insecure: false,
  });
  for (const v of [-1, 24]) t.same(issuePaths(ExporterCreate, syslog({ facility: v })), ['config.facility'], `facility ${v}`);
  for (const v of [0, 23]) t.same(issuePaths(ExporterCreate, syslog({ facility: v })), [], `facility ${v}`);
  for (const a of ['siem.local', 'siem.local:0', 'siem.local:70000', ':514']) t.same(issuePaths(ExporterCreate, syslog({ address: a })), ['config.address'], a);
  for (const a of ['10.1.2.3:6514', '[::1]:514']) t.same(issuePaths(ExporterCreate, syslog({ address: a })), [], a);
  for (const tr of ['udp', 'tcp', 'tcp+tls']) t.same(issuePaths(ExporterCreate, syslog({ transport: tr })), [], tr);
  t.same(issuePaths(ExporterCreate, syslog({ transport: 'tls' })), ['config.transport']);
  t.same(issuePaths(ExporterCreate, syslog({ format: 'rfc3164' })), []);
  t.same(issuePaths(ExporterCreate, syslog({ format: 'json' })), ['config.format']);
  t.same(issuePaths(ExporterCreate, syslog({ transport: 'tcp+tls', tls_insecure: true })), []);
  for (const tr of ['tcp', 'udp']) {
    const issues = issuesOf(ExporterCreate, syslog({ transport: tr, tls_insecure: true }));
    t.same(issues.map((i) => i.path), [['config', 'tls_insecure']], tr);
    t.match(issues[0]?.message, /tcp\+tls/);
  }
  t.same(issuePaths(ExporterCreate, syslog({ tls_insecure: true })), ['config.tls_insecure'], 'default transport is tcp');
});

t.test('cef', async (t) => {
  t.same(parseOk(ExporterCreate, cef({})).config, {
    protocol: 'tcp',
    host: '10.0.0.5',
    port: 514,
    device_vendor: 'Palisade',
    device_product: 'Palisade LLM Gateway',
    device_version: '0.1.0',
  });
  for (const v of [0, 65536, 1.5]) t.same(issuePaths(ExporterCreate, cef({ port: v })), ['config.port'], `port ${v}`);
  for (const v of [1, 65535]) t.same(issuePaths(ExporterCreate, cef({ port: v })), [], `port ${v}`);
  t.same(issuePaths(ExporterCreate, make('cef', { host: 'siem' })), ['config.port']);
  t.same(issuePaths(ExporterCreate, make('cef', { port: 514 })), ['config.host']);
  t.same(issuePaths(ExporterCreate, cef({ host: 'bad host!' })), ['config.host']);
  t.same(issuePaths(ExporterCreate, cef({ host: 'arcsight.corp.example' })), []);
  t.same(issuePaths(ExporterCreate, cef({ protocol: 'udp' })), []);
  t.same(issuePaths(ExporterCreate, cef({ protocol: 'tcp+tls' })), ['config.protocol']);
});

t.test('file', async (t) => {
  t.same(parseOk(ExporterCreate, file({})).config, { path: '/var/log/palisade/events.jsonl', rotate: true, max_size_mb: 100 });
  for (const v of [0, 10001]) t.same(issuePaths(ExporterCreate, file({ max_size_mb: v })), ['config.max_size_mb'], `${v}`);
  for (const v of [1, 10000]) t.same(issuePaths(ExporterCreate, file({ max_size_mb: v })), [], `${v}`);
  t.same(issuePaths(ExporterCreate, file({ path: '' })), ['config.path']);
  t.same(issuePaths(ExporterCreate, file({ rotate: 'yes' })), ['config.rotate']);
});

t.test('filters compare case-insensitively; field mapping', async (t) => {
  const e = parseOk(ExporterCreate, webhook({}));
  const f = parseOk(ExporterCreate, { ...e, filters: { severities: ['high', 'critical'], event_types: ['threat_detected'], tenant_ids: ['acme'] } });
  t.same(f.filters, { severities: ['HIGH', 'CRITICAL'], event_types: ['THREAT_DETECTED'], tenant_ids: ['acme'] });
  t.same(issuePaths(ExporterCreate, { ...e, filters: { severities: ['SEVERE'] } }), ['filters.severities.0']);
  t.same(issuePaths(ExporterCreate, { ...e, filters: { event_types: ['HACKED'] } }), ['filters.event_types.0']);
  t.same(issuePaths(ExporterCreate, { ...e, field_mapping: 'splunk' }), ['field_mapping']);
  t.same(issuePaths(ExporterCreate, { ...e, field_mapping: 'ecs' }), []);
  t.same(issuePaths(ExporterCreate, { ...e, field_mapping: 'custom' }), ['custom_mapping']);
  t.same(issuePaths(ExporterCreate, { ...e, field_mapping: 'custom', custom_mapping: { trace_id: 'traceId' } }), []);
  t.same(ECS_FIELD_MAPPING, {
    trace_id: 'trace.id',
    event_type: 'event.type',
    severity: 'event.severity_name',
    timestamp: '@timestamp',
    source_ip: 'source.ip',
    profile_id: 'labels.profile_id',
  });
});

t.test('matchesFilters: OR inside a list, AND across lists, none = all', async (t) => {
  const ev = { severity: 'HIGH', event_type: 'REQUEST_BLOCKED', tenant_id: 'acme' };
  t.ok(matchesFilters(ev, undefined));
  t.ok(matchesFilters(ev, { severities: [], event_types: [], tenant_ids: [] }));
  t.ok(matchesFilters(ev, { severities: ['critical', 'high'] }));
  t.notOk(matchesFilters(ev, { severities: ['CRITICAL'] }));
  t.ok(matchesFilters(ev, { severities: ['HIGH'], event_types: ['REQUEST_BLOCKED', 'PII_DETECTED'] }));
  t.notOk(matchesFilters(ev, { severities: ['HIGH'], event_types: ['PII_DETECTED'] }));
  t.notOk(matchesFilters(ev, { tenant_ids: ['other'] }));
});

t.test('update: type is immutable, no defaults', async (t) => {
  const issues = issuesOf(ExporterUpdate, { type: 'kafka', enabled: false });
  t.same(issues.map((i) => i.path), [['type']]);
  t.match(issues[0]?.message, /immutable/);
  t.same(parseOk(ExporterUpdate, { enabled: false }), { enabled: false });
  t.same(parseOk(ExporterUpdate, { filters: { severities: ['low'] } }), { filters: { severities: ['LOW'] } });

  const webhookUpdate = exporterUpdateSchema('webhook');
  t.same(parseOk(webhookUpdate, { config: { timeout_sec: 5 } }), { config: { timeout_sec: 5 } });
  t.same(issuePaths(webhookUpdate, { config: { max_retries: 11 } }), ['config.max_retries']);
  t.same(issuePaths(webhookUpdate, { type: 'file' }), ['type']);
  const syslogUpdate = exporterUpdateSchema('syslog');
  t.same(issuePaths(syslogUpdate, { config: { tls_insecure: true } }), [], 'transport unknown: checked after merging');
  t.same(issuePaths(syslogUpdate, { config: { tls_insecure: true, transport: 'udp' } }), ['config.tls_insecure']);
  t.same(issuePaths(exporterUpdateSchema('kafka'), { config: { batch_size: 0 } }), ['config.batch_size']);
  t.same(issuePaths(exporterUpdateSchema('file'), { config: { max_size_mb: 0 } }), ['config.max_size_mb']);
});

t.test('the stored record', async (t) => {
  const now = new Date().toISOString();
  const meta = { id: globalThis.crypto.randomUUID(), tenant_id: 't1', created_at: now, updated_at: now };
  const record = parseOk(Exporter, { ...kafka({}), ...meta });
  t.equal(record.managed_by, 'api');
  t.equal(record.type, 'kafka');
  t.same(issuePaths(Exporter, { ...kafka({ batch_size: 0 }), ...meta }), ['config.batch_size']);
  t.same(issuePaths(Exporter, { ...kafka({}), ...meta, id: 'x' }), ['id']);
  t.doesNotThrow(() => z.toJSONSchema(ExporterSpec, { io: 'input' }));
});
