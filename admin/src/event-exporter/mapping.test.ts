import t from 'tap';
import { matchesFilters, type Exporter } from '@palisade/core';
import { mapEvent } from './mapping.js';
import { sampleEvent } from '../testing/exporter-peers.js';

const event = sampleEvent(); // JAILBREAK_DETECTED, CRITICAL, tenant acme

t.test('filters: OR inside a list, AND across lists, case-insensitive, none = all', async (t) => {
  const cases: Array<[string, Parameters<typeof matchesFilters>[1], boolean]> = [
    ['no filters', { severities: [], event_types: [], tenant_ids: [] }, true],
    ['undefined filters', undefined, true],
    ['severity hit', { severities: ['CRITICAL'] }, true],
    ['severity lowercase', { severities: ['critical'] }, true],
    ['severity miss', { severities: ['HIGH'] }, false],
    ['severity OR', { severities: ['HIGH', 'CRITICAL'] }, true],
    ['type hit', { event_types: ['jailbreak_detected'] }, true],
    ['type miss', { event_types: ['PII_DETECTED'] }, false],
    ['tenant hit', { tenant_ids: ['ACME'] }, true],
    ['tenant miss', { tenant_ids: ['other'] }, false],
    ['AND all hit', { severities: ['CRITICAL'], event_types: ['JAILBREAK_DETECTED'], tenant_ids: ['acme'] }, true],
    ['AND one miss', { severities: ['CRITICAL'], event_types: ['PII_DETECTED'], tenant_ids: ['acme'] }, false],
    ['AND tenant miss', { severities: ['critical', 'high'], event_types: ['JAILBREAK_DETECTED'], tenant_ids: ['default'] }, false],
  ];
  for (const [name, filters, expected] of cases) t.equal(matchesFilters(event, filters), expected, name);
});

t.test('generic mapping: the event unchanged', async (t) => {
  t.same(mapEvent(event, { field_mapping: 'generic', custom_mapping: {} }), event);
});

t.test('ecs mapping: the spec renames as nested ECS fields, plus event.kind and event.category', async (t) => {
  const ecs = mapEvent(event, { field_mapping: 'ecs', custom_mapping: {} });
  t.same(ecs['trace'], { id: 'trace-1' });
  t.same(ecs['event'], { type: 'JAILBREAK_DETECTED', severity_name: 'CRITICAL', kind: 'alert', category: ['intrusion_detection'] });
  t.equal(ecs['@timestamp'], '2024-05-01T10:15:02.123Z');
  t.same(ecs['source'], { ip: '192.0.2.10' });
  t.same(ecs['labels'], { profile_id: '00000000-0000-4000-8000-00000000000b' });
  for (const gone of ['trace_id', 'event_type', 'severity', 'timestamp', 'source_ip', 'profile_id']) t.notOk(gone in ecs, `${gone} renamed`);
  t.equal(ecs['tenant_id'], 'acme', 'unlisted fields keep their names');
  t.equal(ecs['jailbreak_score'], 0.93);
  t.equal(
    JSON.stringify(ecs).slice(0, 120),
    '{"id":"0b6f3c2e-9a51-4f7e-8d2a-1c3b5e7f9a01","trace":{"id":"trace-1"},"@timestamp":"2024-05-01T10:15:02.123Z","event":{"',
  );
});

t.test('custom mapping: renames the listed fields, keeps the rest', async (t) => {
  const exporter: Pick<Exporter, 'field_mapping' | 'custom_mapping'> = { field_mapping: 'custom', custom_mapping: { trace_id: 'correlation', severity: 'level', nope: 'x' } };
  const out = mapEvent(event, exporter);
  t.equal(out['correlation'], 'trace-1');
  t.equal(out['level'], 'CRITICAL');
  t.notOk('trace_id' in out);
  t.notOk('x' in out, 'a source field the event lacks adds nothing');
  t.equal(out['event_type'], 'JAILBREAK_DETECTED');
});
