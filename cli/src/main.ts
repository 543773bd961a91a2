#!/usr/bin/env node
import { randomBytes } from 'node:crypto';
import { ConfigError, StoreConnectionError, installShutdown, lowerHelperThreadsPriority, migrate, startTelemetry } from '@palisade/core';
import { COMPONENTS, findComponent } from './components.js';
import { portFor, type RunningComponent } from './components/definition.js';
import { createContext } from './context.js';

const USAGE = `usage: palisade <command>

commands:
  all            start every component, each on its own port (embedded defaults unless DATABASE_URL/REDIS_URL)
  a,b,c          start the named components in one process (e.g. registry,bundle-store)
  migrate        apply pending database migrations and exit
${COMPONENTS.map((c) => `  ${c.name.padEnd(14)} start ${c.description} (port ${c.port})`).join('\n')}
`;

/** Failures a user can fix from the message alone: printed as one line, exit code 1. */
function isUserFacing(error: unknown): error is Error {
  return error instanceof ConfigError || error instanceof StoreConnectionError || (error instanceof Error && (error as { userFacing?: boolean }).userFacing === true);
}

/** The components that read the security-event stream (the registry runs an event writer). */
const EVENT_READERS = ['registry', 'event-writer', 'event-exporter'];

/** The in-process stream's cap for a gateway whose events nobody in its process reads. */
const UNREAD_STREAM_CAP = '100000';

/** A gateway without REDIS_URL and without an event reader in its process: nobody ever reads its events. */
function eventsUnread(names: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return names.includes('gateway') && !env.REDIS_URL && !names.some((n) => EVENT_READERS.includes(n));
}

/**
 * Such a gateway appends its security events to a stream in its own memory that nobody stores or
 * exports, so that stream gets a cap (GATEWAY_EVENTS_STREAM_MAX_LEN, default 100,000 here; a read
 * stream has none, its readers trim what they acked). Said once at start-up: a deployment mistake.
 */
function withUnreadEventsCap(names: readonly string[], env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return eventsUnread(names, env) && !env.GATEWAY_EVENTS_STREAM_MAX_LEN ? { ...env, GATEWAY_EVENTS_STREAM_MAX_LEN: UNREAD_STREAM_CAP } : env;
}

function warnOnUnreadEvents(names: readonly string[], ctx: ReturnType<typeof createContext>): void {
  if (!eventsUnread(names, ctx.env)) return;
  ctx.logger.warn(
    { component: 'gateway' },
    'REDIS_URL is not set and no event writer runs in this process: security events stay in this process, unread (up to GATEWAY_EVENTS_STREAM_MAX_LEN of them); set REDIS_URL, or start the gateway with the registry or event-writer',
  );
}

async function start(names: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  // Before any component: the servers built next find the SDK and add their server spans.
  const telemetry = await startTelemetry({ env, serviceName: names.length === 1 ? `palisade-${names[0]}` : 'palisade' });
  const ctx = createContext(withUnreadEventsCap(names, withProxySecret(names, env)), undefined, names);
  const host = ctx.config.PALISADE_HOST ?? '0.0.0.0';
  const running: RunningComponent[] = [];
  // Stop in reverse start order, so a component never outlives what it depends on.
  const stopAll = async () => {
    for (const component of running.splice(0).reverse()) await component.close();
  };
  try {
    for (const name of names) {
      const component = findComponent(name)!;
      const started = await component.start(ctx, portFor(component, ctx.env), host);
      running.push(started);
      ctx.urls[name] = started.url;
      ctx.logger.info({ component: name, url: started.url }, `${name} listening on ${started.url}`);
    }
  } catch (error) {
    await stopAll().catch(() => {});
    await ctx.close().catch(() => {});
    await telemetry?.shutdown().catch(() => {});
    throw error;
  }
  // Every component has started its threads: the ones that only help (V8's garbage-collection helpers,
  // libuv's pool) run below the event loop, as the detector workers do already.
  ctx.logger.debug({ threads: lowerHelperThreadsPriority(ctx.config.PALISADE_HELPER_THREADS_NICENESS) }, 'helper threads lowered below the event loop');
  warnOnUnreadEvents(names, ctx);
  installShutdown({ closers: [stopAll, () => ctx.close(), ...(telemetry ? [() => telemetry.shutdown()] : [])], log: (m) => ctx.logger.info(m) });
}

/**
 * The Admin API and the authentication proxy in one process share a random proof secret when none is
 * configured (AUTH_PROXY_ENABLED=true npm start works with no set-up); apart, both need the same one.
 */
function withProxySecret(names: readonly string[], env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const together = names.includes('admin-api') && names.includes('auth-proxy');
  return together && !env.AUTH_PROXY_SHARED_SECRET ? { ...env, AUTH_PROXY_SHARED_SECRET: randomBytes(32).toString('base64url') } : env;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return;
  }
  if (rest.length > 0) throw Object.assign(new Error(`unexpected arguments: ${rest.join(' ')}`), { userFacing: true });
  if (command === 'migrate') {
    const ctx = createContext();
    const db = await ctx.database();
    const report = await migrate(db);
    ctx.logger.info(report, `database schema at version ${report.current}`);
    await ctx.close();
    return;
  }
  // `all` is the embedded developer stack (ARCHITECTURE.md): the Admin API in development auth mode
  // (the spec's dev-user) unless AUTH_PROXY_ENABLED says otherwise.
  if (command === 'all') {
    const env: NodeJS.ProcessEnv = { AUTH_PROXY_ENABLED: 'false', ...process.env };
    return start(COMPONENTS.filter((c) => (typeof c.inAll === 'function' ? c.inAll(env) : c.inAll !== false)).map((c) => c.name), env);
  }
  // `registry,bundle-store`: several components in one process, in the table's start order.
  const names = command.split(',').map((n) => n.trim());
  const unknown = names.filter((n) => !findComponent(n));
  if (names.length > 1 && unknown.length === 0) return start(COMPONENTS.map((c) => c.name).filter((n) => names.includes(n)));
  if (names.length > 1) throw Object.assign(new Error(`unknown component "${unknown[0]}"; run "palisade help"`), { userFacing: true });
  if (findComponent(command)) return start([command]);
  throw Object.assign(new Error(`unknown command "${command}"; run "palisade help"`), { userFacing: true });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (isUserFacing(error)) process.stderr.write(`palisade: ${error.message}\n`);
  else process.stderr.write(`palisade: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
