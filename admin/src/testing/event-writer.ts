// Helpers of the event writer tests: both stream backends (the in-process one always, the real Redis
// at TEST_REDIS_URL under a random prefix — required in CI, skipped with a reason otherwise), events as
// the gateway emits them, and a view of the table.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createMemoryStreams,
  createRedisStreams,
  createSecurityEvent,
  type Database,
  type SecurityEvent,
  type Streams,
} from '@palisade/core';
import { servicesRequired, TEST_REDIS_URL } from '@palisade/core/testing';

export interface StreamBackend {
  name: 'memory' | 'redis';
  open(): Promise<Streams>;
  skipReason?: string;
}

export async function streamBackends(): Promise<StreamBackend[]> {
  const keyPrefix = `test:${randomUUID()}:`;
  const openRedis = () => createRedisStreams({ url: TEST_REDIS_URL, keyPrefix, connectTimeoutMs: 1_000, onError: () => {} });
  let skipReason: string | undefined;
  try {
    await (await openRedis()).close();
  } catch (err) {
    const reason = `Redis unreachable at ${TEST_REDIS_URL}: ${(err as Error).message}`;
    if (servicesRequired()) throw new Error(`${reason} — Redis is required here (CI or PALISADE_REQUIRE_SERVICES=1)`);
    skipReason = reason;
  }
  return [
    { name: 'memory', open: async () => createMemoryStreams() },
    { name: 'redis', open: openRedis, ...(skipReason ? { skipReason } : {}) },
  ];
}

/** A unique stream name per test, so tests sharing a backend never see each other's entries. */
export const testStream = (label: string) => `test-events:${label}:${randomUUID().slice(0, 8)}`;

/** `n` events as the gateway's emitter appends them (core records), spread over requests of 3 events. */
export function gatewayEvents(n: number, label: string): SecurityEvent[] {
  const types = ['JAILBREAK_DETECTED', 'PII_DETECTED', 'REQUEST_BLOCKED'] as const;
  const now = new Date();
  return Array.from({ length: n }, (_, i) =>
    createSecurityEvent(
      {
        trace_id: `${label}-${Math.floor(i / 3)}`,
        tenant_id: i % 2 ? 'acme' : 'default',
        event_type: types[i % 3]!,
        source_ip: '192.0.2.10',
        provider_id: '00000000-0000-4000-8000-00000000000a',
        provider_name: 'vendor-a',
        profile_id: '00000000-0000-4000-8000-00000000000b',
        model: 'model-x',
        action: 'BLOCK',
        decision: 'BLOCK',
        jailbreak_score: 0.93,
        pii_entities: [{ type: 'EMAIL', start: 3, end: 14, value: 'a@b.example', masked: '[EMAIL]' }],
        categories: ['violence'],
        policy_ids: ['p-1'],
        reasons: ['jailbreak score 0.93 >= threshold 0.8'],
        user_prompt: `prompt ${i}`,
        latency_ms: 4.5,
      },
      now,
    ),
  );
}

/** The stored records of this test's events (their trace ids start with `label-`), by id. */
export async function storedEvents(db: Database, label: string): Promise<Map<string, SecurityEvent>> {
  const rows = await db.query<{ data: SecurityEvent }>(`SELECT data FROM security_events WHERE trace_id LIKE $1`, [`${label}-%`]);
  return new Map(rows.rows.map((r) => [r.data.id, r.data]));
}

// Generous: a correct writer gets there in well under a second, but CI runs two test files at once on
// two cores, and a wait that gives up early fails a writer that was only slow.
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

export function captureLogs() {
  const lines: Array<{ level: 'info' | 'warn' | 'error'; msg: string }> = [];
  const at = (level: 'info' | 'warn' | 'error') => (_obj: unknown, msg?: string) => void lines.push({ level, msg: msg ?? '' });
  return { logger: { info: at('info'), warn: at('warn'), error: at('error') }, lines, count: (level: string) => lines.filter((l) => l.level === level).length };
}

/**
 * The real database with its security-event INSERTs held while `hold()` is in force: a writer caught
 * between reading a batch and acking it, as when it hangs or dies there. Everything else passes through.
 */
export function heldInserts(db: Database) {
  let gate: Promise<void> | undefined;
  let open: () => void = () => {};
  const state = { waiting: 0 };
  const wrapped: Database = {
    kind: db.kind,
    async query<Row>(sql: string, params?: readonly unknown[]) {
      if (gate !== undefined && /^\s*INSERT INTO security_events/.test(sql)) {
        state.waiting++;
        await gate;
      }
      return db.query<Row>(sql, params);
    },
    exec: (sql) => db.exec(sql),
    transaction: (fn) => db.transaction(fn),
    listen: (channel, handler) => db.listen(channel, handler),
    notify: (channel, payload) => db.notify(channel, payload),
    ping: () => db.ping(),
    close: async () => undefined, // the test owns the real handle
  };
  return {
    db: wrapped,
    state,
    hold(): void {
      gate = new Promise((resolve) => (open = resolve));
    },
    release(): void {
      gate = undefined;
      open();
    },
  };
}
