// The chart's Grafana dashboard and PrometheusRule alerts are valid (the JSON and YAML parse, every
// panel and rule has a query) and name only metrics the components export: each name is looked up in
// the /metrics of a real gateway, registry (with its event writer) and event exporter.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { parse } from 'yaml';
import { createEventExporterComponent } from '@palisade/admin';
import { createSecretBox, listen } from '@palisade/core';
import { openOneDatabase } from '../testing/one-database.js';
import { startStack } from '../testing/stack.js';

const MONITORING = fileURLToPath(new URL('../../../charts/palisade/monitoring/', import.meta.url));

interface Panel {
  title: string;
  targets?: Array<{ expr: string }>;
}
interface Rule {
  alert: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

// PromQL words that look like metric names but are functions, keywords or label names.
const METRIC = /\b((?:palisade|http)_[a-z0-9_]+)\b/g;

/** Metric families in a Prometheus text exposition, by their # TYPE lines. */
function families(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const match of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) out.set(match[1]!, match[2]!);
  return out;
}

/** A series name as queried → its family: histogram series carry _bucket, _sum or _count. */
function familyOf(name: string, exported: Map<string, string>): string | undefined {
  if (exported.has(name)) return name;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  return exported.get(base) === 'histogram' || exported.get(base) === 'summary' ? base : undefined;
}

t.test('the dashboard and the alert rules parse and name only exported metrics', async (t) => {
  const dashboard = JSON.parse(readFileSync(`${MONITORING}palisade-overview.json`, 'utf8')) as { uid: string; title: string; panels: Panel[] };
  t.ok(dashboard.uid && dashboard.title, 'a dashboard with uid and title');
  t.ok(dashboard.panels.length >= 10, `${dashboard.panels.length} panels`);
  for (const panel of dashboard.panels) t.ok(panel.targets?.length && panel.targets.every((q) => q.expr.trim()), `panel "${panel.title}" has queries`);

  const rules = (parse(readFileSync(`${MONITORING}alerts.yaml`, 'utf8')) as { groups: Array<{ name: string; rules: Rule[] }> }).groups.flatMap((g) => g.rules);
  t.ok(rules.length >= 6, `${rules.length} alert rules`);
  for (const rule of rules) {
    t.ok(rule.alert && rule.expr && rule.labels?.severity && rule.annotations?.summary, `${rule.alert}: expression, severity and summary`);
  }

  let closeAll = async () => {};
  const db = await openOneDatabase(t, () => closeAll());
  const stack = await startStack({ db });
  const exporter = createEventExporterComponent({ db, streams: stack.streams, secrets: createSecretBox('monitoring-test-key-0123456789abcdef'), logger: undefined });
  const exporterUrl = await listen(exporter.service.app, { port: 0, host: '127.0.0.1' });
  closeAll = async () => {
    await exporter.service.app.close();
    await stack.close();
  };
  // One routed call, so the per-call series have children too.
  const { provider, send } = await stack.profiled({});
  t.equal((await send({ model: 'gpt-x', messages: [{ role: 'user', content: 'hello' }] })).status, 200);

  const exported = new Map<string, string>();
  const texts: string[] = [];
  for (const url of [stack.gatewayUrl, stack.registryUrl, exporterUrl]) {
    const res = await request(`${url}/metrics`);
    t.equal(res.statusCode, 200, `${url}/metrics`);
    texts.push(await res.body.text());
    for (const [name, type] of families(texts.at(-1)!)) exported.set(name, type);
  }
  const gateway = texts[0]!;
  t.match(gateway, new RegExp(`palisade_gateway_requests_total\\{provider_id="${provider.id}",tenant="default",decision="allow",status_class="2xx"[^}]*\\} 1`), 'the call counted by provider, tenant and decision');
  t.match(gateway, /palisade_detector_outcomes_total\{side="request",detector="pii",status="ok"[^}]*\} 1/, 'detector outcomes');
  t.match(gateway, /palisade_bundle_info\{revision="[0-9a-f]{12}"[^}]*\} 1/, 'the bundle revision in force');
  t.match(gateway, /palisade_bundle_age_seconds(\{[^}]*\})? \d/, 'the bundle age, once loaded');

  const queried = new Map<string, string>();
  for (const panel of dashboard.panels) for (const q of panel.targets ?? []) for (const m of q.expr.matchAll(METRIC)) queried.set(m[1]!, `panel "${panel.title}"`);
  for (const rule of rules) for (const m of rule.expr.matchAll(METRIC)) queried.set(m[1]!, `alert ${rule.alert}`);
  t.ok(queried.size >= 15, `${queried.size} metric names queried`);
  for (const [name, where] of queried) t.ok(familyOf(name, exported), `${name} (${where}) is exported`);
});
