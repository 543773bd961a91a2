// Small readers over rendered Kubernetes objects for the chart tests: find objects, read a pod
// template's container, and decide whether a NetworkPolicy admits a pod (the API's semantics for the
// podSelector/matchLabels subset the chart uses).
import type { KubeObject } from './render-chart.js';

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } };
}

export interface Container {
  name: string;
  image: string;
  args?: string[];
  ports?: Array<{ name: string; containerPort: number }>;
  env?: EnvVar[];
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
  startupProbe?: { httpGet?: { path: string; port: string | number } };
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean; subPath?: string }>;
}

export interface PodSpec {
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  containers: Container[];
  nodeSelector?: Record<string, string>;
  tolerations?: Array<Record<string, string>>;
  volumes?: Array<{ name: string } & Record<string, unknown>>;
}

export function find(objects: KubeObject[], kind: string, name: string): KubeObject | undefined {
  return objects.find((o) => o.kind === kind && o.metadata.name === name);
}

export function ofKind(objects: KubeObject[], kind: string): KubeObject[] {
  return objects.filter((o) => o.kind === kind);
}

export function podSpec(deployment: KubeObject): PodSpec {
  return (deployment.spec as { template: { spec: PodSpec } }).template.spec;
}

export function podLabels(deployment: KubeObject): Record<string, string> {
  return (deployment.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels;
}

export function envOf(container: Container): Map<string, EnvVar> {
  return new Map((container.env ?? []).map((e) => [e.name, e]));
}

const matches = (selector: { matchLabels?: Record<string, string> } | undefined, labels: Record<string, string>) =>
  Object.entries(selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v);

interface Peer {
  podSelector?: { matchLabels?: Record<string, string> };
  namespaceSelector?: unknown;
  ipBlock?: unknown;
}
interface IngressRule {
  from?: Peer[];
  ports?: Array<{ port: string | number }>;
}

/**
 * Whether the policies of a namespace let a pod with `fromLabels` (same namespace) reach a pod with
 * `toLabels` on the named port. A pod no policy selects accepts everything; a selected pod accepts what
 * any selecting policy's rule allows.
 */
export function ingressAllowed(policies: KubeObject[], toLabels: Record<string, string>, fromLabels: Record<string, string>, portName: string): boolean {
  const selecting = policies.filter((p) => matches((p.spec as { podSelector: { matchLabels?: Record<string, string> } }).podSelector, toLabels));
  if (selecting.length === 0) return true;
  return selecting.some((policy) =>
    ((policy.spec as { ingress?: IngressRule[] }).ingress ?? []).some((rule) => {
      const portOk = !rule.ports || rule.ports.some((p) => p.port === portName);
      const peerOk = !rule.from || rule.from.length === 0 || rule.from.some((peer) => peer.podSelector !== undefined && !peer.namespaceSelector && matches(peer.podSelector, fromLabels));
      return portOk && peerOk;
    }),
  );
}
