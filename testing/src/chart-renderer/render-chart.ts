// Renders a Helm chart folder the way `helm template` does (values.yaml merged with overrides, the
// built-in .Release/.Chart objects, every file of templates/ but partials and NOTES.txt), using the
// Go-template subset of go-template.ts, and parses the output into Kubernetes objects.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { TemplateSet, type RenderOptions } from './go-template.js';

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export interface RenderedChart {
  /** Every object of every template, in file order. */
  objects: KubeObject[];
  /** The rendered text of each template file, by path under templates/. */
  files: Record<string, string>;
  values: Record<string, unknown>;
}

export interface RenderChartOptions extends RenderOptions {
  releaseName?: string;
  namespace?: string;
  /** Merged over values.yaml like `helm --values`: maps deeply, everything else replaced. */
  values?: Record<string, unknown>;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Helm's coalescing of user values over chart defaults; a null override deletes the key. */
export function mergeValues(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === null) delete out[key];
    else out[key] = isMap(value) && isMap(out[key]) ? mergeValues(out[key] as Record<string, unknown>, value) : value;
  }
  return out;
}

function listTemplates(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listTemplates(dir, join(prefix, entry.name)) : [join(prefix, entry.name)],
  );
}

export function readChartValues(chartDir: string): Record<string, unknown> {
  return (parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8')) ?? {}) as Record<string, unknown>;
}

export function renderChart(chartDir: string, options: RenderChartOptions = {}): RenderedChart {
  const chart = parse(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8')) as Record<string, unknown>;
  const values = mergeValues(readChartValues(chartDir), options.values ?? {});
  const templatesDir = join(chartDir, 'templates');
  const files = listTemplates(templatesDir).sort();
  const set = new TemplateSet(options);
  for (const file of files) set.add(file, readFileSync(join(templatesDir, file), 'utf8'));

  const namespace = options.namespace ?? 'default';
  const root = {
    Values: values,
    Release: { Name: options.releaseName ?? 'palisade', Namespace: namespace, Service: 'Helm', IsInstall: true, IsUpgrade: false, Revision: 1 },
    // Helm exposes Chart.yaml's fields capitalised.
    Chart: Object.fromEntries(Object.entries(chart).map(([k, v]) => [k[0]!.toUpperCase() + k.slice(1), v])),
    Capabilities: { KubeVersion: { Version: 'v1.30.0', Major: '1', Minor: '30' } },
    // Helm's .Files.Get: a chart file's text ('' when missing, as Helm answers).
    Files: { Get: (path: unknown) => (existsSync(join(chartDir, String(path))) ? readFileSync(join(chartDir, String(path)), 'utf8') : '') },
  };

  const rendered: Record<string, string> = {};
  const objects: KubeObject[] = [];
  for (const file of files) {
    const base = file.split('/').pop()!;
    if (base.startsWith('_') || base === 'NOTES.txt') continue;
    const text = set.render(file, { ...root, Template: { Name: `${String(chart.name)}/templates/${file}`, BasePath: `${String(chart.name)}/templates` } });
    rendered[file] = text;
    for (const doc of parseAllDocuments(text)) {
      if (doc.errors.length > 0) throw new Error(`templates/${file} renders invalid YAML: ${doc.errors[0]!.message}\n${text}`);
      const object = doc.toJS() as KubeObject | null;
      if (object === null) continue;
      if (!object.apiVersion || !object.kind || !object.metadata?.name) {
        throw new Error(`templates/${file} renders an object without apiVersion, kind or metadata.name:\n${doc.toString()}`);
      }
      objects.push(object);
    }
  }
  return { objects, files: rendered, values };
}
