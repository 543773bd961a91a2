import { envInt, parseEnv } from '@palisade/core';
import { createMockLlm } from '@palisade/hack';
import type { ComponentContext } from './context.js';

export interface RunningComponent {
  url: string;
  close(): Promise<void>;
}

export interface ComponentDefinition {
  name: string;
  /** The port of the spec's component table. */
  port: number;
  description: string;
  start(ctx: ComponentContext, port: number, host: string): Promise<RunningComponent>;
}

/**
 * Every component the CLI can start, in start order (dependencies first). A component is added here
 * when it exists; `palisade all` starts all of them, each on its own port.
 */
export const COMPONENTS: readonly ComponentDefinition[] = [
  {
    name: 'mock-llm',
    port: 8070,
    description: 'bundled mock LLM upstream (every vendor format) for the quickstart and tests',
    async start(_ctx, port, host) {
      const mock = createMockLlm();
      const url = await mock.listen(port, host);
      return { url, close: () => mock.close() };
    },
  },
];

export function findComponent(name: string): ComponentDefinition | undefined {
  return COMPONENTS.find((c) => c.name === name);
}

/** PALISADE_PORT_<NAME> (e.g. PALISADE_PORT_MOCK_LLM) overrides a component's port; 0 picks a free one. */
export function portFor(component: ComponentDefinition, env: NodeJS.ProcessEnv): number {
  const variable = `PALISADE_PORT_${component.name.toUpperCase().replace(/-/g, '_')}`;
  return parseEnv({ [variable]: envInt(0, 65535, component.port) }, env)[variable] as number;
}
