// For end-to-end suites that exercise the gateway rather than storage: one throw-away database,
// the real PostgreSQL when it is reachable (it starts in milliseconds), else embedded PGlite.
import type { Test } from 'tap';
import type { Database } from '@palisade/core';
import { testDatabases } from '@palisade/core/testing';

/** Opens it and, at the test's end, runs `before` (closing what uses it) and then drops it. */
export async function openOneDatabase(t: Test, before: () => Promise<void>): Promise<Database> {
  const targets = await testDatabases();
  const target = targets.find((d) => d.name === 'postgres' && !d.skipReason) ?? targets.find((d) => d.name === 'pglite')!;
  const db = await target.open();
  t.teardown(async () => {
    await before();
    await target.dispose();
  });
  return db;
}
