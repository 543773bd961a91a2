// The reconciler of each kind, for the shared loop.
import type { KindName } from '../crd/kinds.js';
import { contentPolicyReconciler } from './content-policy.js';
import { eventExporterReconciler } from './event-exporter.js';
import type { KindReconciler } from './kind-reconciler.js';
import { providerReconciler } from './provider.js';
import { securityProfileReconciler } from './security-profile.js';

export const RECONCILERS: Readonly<Record<KindName, KindReconciler>> = {
  Provider: providerReconciler,
  SecurityProfile: securityProfileReconciler,
  ContentPolicy: contentPolicyReconciler,
  EventExporter: eventExporterReconciler,
};
