// Every component `palisade` can start, in start order; each group's definitions live in components/.
import { BACKGROUND_WORKERS } from './components/background-workers.js';
import { AUTH_PROXY, IDP, UI } from './components/console.js';
import { ADMIN_API, BUNDLE_STORE, EVENT_EXPORTER, REGISTRY } from './components/control-plane.js';
import { GATEWAY, MOCK_LLM } from './components/data-plane.js';
import type { ComponentDefinition } from './components/definition.js';
import { DETECTOR_SERVICES } from './components/detector-services.js';


/**
 * Every component the CLI can start, in start order (dependencies first). A component is added here
 * when it exists; `palisade all` starts all of them, each on its own port.
 */
export const COMPONENTS: readonly ComponentDefinition[] = [
  MOCK_LLM,
  ...DETECTOR_SERVICES,
  REGISTRY,
  BUNDLE_STORE,
  GATEWAY,
  ADMIN_API,
  EVENT_EXPORTER,
  UI,
  IDP,
  AUTH_PROXY,
  ...BACKGROUND_WORKERS,
];

export function findComponent(name: string): ComponentDefinition | undefined {
  return COMPONENTS.find((c) => c.name === name);
}
