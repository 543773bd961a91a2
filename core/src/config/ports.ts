// The spec's component table: each component's default port (PALISADE_PORT_<NAME> overrides it). In
// core, beside the other settings every component reads, so that `palisade` can list and place its
// components without loading their packages: a process loads only the components it runs.
export const COMPONENT_PORTS = {
  registry: 8000,
  'admin-api': 8001,
  'mock-llm': 8070,
  idp: 8080,
  normalizer: 8081,
  pii: 8084,
  gateway: 8085,
  'decision-point': 8086,
  translation: 8087,
  'content-safety': 8088,
  'content-policy': 8089,
  threat: 8090,
  'event-exporter': 8091,
  // Ports of our own for the components without an HTTP API (health and metrics only).
  'event-writer': 8092,
  operator: 8093,
  'report-worker': 8094,
  'auth-proxy': 4180,
  ui: 4200,
  'bundle-store': 9000,
} as const;

export type ComponentName = keyof typeof COMPONENT_PORTS;
