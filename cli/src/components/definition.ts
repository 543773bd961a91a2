// What a component of `palisade` is: a name, the port of the spec's component table and how to start
// it with the process's shared context; and the small steps every component's start shares.
//
// A definition names its package only inside start() (a dynamic import): a process loads the packages
// of the components it runs, not all of them. Loading every package made each gateway twice the live
// heap it needs (70 MB against 33 MB after start-up), and a major collection marks all of it.
import { envInt, listen, parseEnv, type Service } from '@palisade/core';
import type { ComponentContext } from '../context.js';

export interface RunningComponent {
  url: string;
  close(): Promise<void>;
}

export interface ComponentDefinition {
  name: string;
  /** The port of the spec's component table. */
  port: number;
  description: string;
  /** false: not started by `palisade all` (it needs a cluster, or another component already does its work); a function decides by the environment. */
  inAll?: boolean | ((env: NodeJS.ProcessEnv) => boolean);
  start(ctx: ComponentContext, port: number, host: string): Promise<RunningComponent>;
}

/** Listens and hands back what `palisade` needs to stop the app. */
export async function serve(app: Service['app'], port: number, host: string): Promise<RunningComponent> {
  const url = await listen(app, { port, host });
  return { url, close: () => app.close() };
}

/** PALISADE_PORT_<NAME> (e.g. PALISADE_PORT_MOCK_LLM) overrides a component's port; 0 picks a free one. */
export function portFor(component: ComponentDefinition, env: NodeJS.ProcessEnv): number {
  const variable = `PALISADE_PORT_${component.name.toUpperCase().replace(/-/g, '_')}`;
  return parseEnv({ [variable]: envInt(0, 65535, component.port) }, env)[variable] as number;
}
