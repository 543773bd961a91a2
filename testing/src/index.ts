// Dev-only test peers and tools, never in the image: a Kafka protocol broker for the exporter's
// tests and a Helm chart renderer for the chart's tests.
export * from './kafka-broker/index.js';
export * from './chart-renderer/render-chart.js';
export * from './chart-renderer/kube.js';
