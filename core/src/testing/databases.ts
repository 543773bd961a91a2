import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import type { Test } from 'tap';
import type { Database } from '../store/database.js';
import { MIGRATIONS } from '../store/migrations/index.js';
import { openDatabase } from '../store/open.js';
import { servicesRequired, TEST_POSTGRES_URL, testPostgresUrl } from './services.js';

export interface TestDatabase {
  /** 'pglite' or 'postgres', for test names. */
  name: string;
  /** A fresh, migrated, empty database; skipReason set instead when it cannot run here. */
  open(): Promise<Database>;
  /** Removes what open() created. */
  dispose(): Promise<void>;
  skipReason?: string;
}

async function postgresReachable(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

// tmpfs where the machine has one: PGlite's files there are as quick as its in-memory store.
const PGLITE_COPIES_DIR = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/**
 * Names what a cluster made by this PGlite, opened by this code, with these migrations holds, so that a
 * change to any of them makes a new one.
 */
function pgliteTemplateKey(migrated: boolean): string {
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const { version } = JSON.parse(readFileSync(join(dirname(pgliteEntry), '..', 'package.json'), 'utf8')) as { version: string };
  const hash = createHash('sha256').update(version).update(readFileSync(new URL('../store/pglite.js', import.meta.url)));
  if (migrated) for (const m of MIGRATIONS) hash.update(`${m.version}\0${m.sql}\0`);
  return hash.digest('hex').slice(0, 16);
}

/**
 * A folder holding a closed PGlite cluster (migrated, or only initialised), made once and shared by
 * every test process: PGlite's start-up in memory runs initdb, about 2 s of CPU each time, while a copy
 * of a made cluster opens in a few tenths. Processes that make it at the same time each build their
 * own and the first rename wins.
 */
async function pgliteTemplate(migrated: boolean): Promise<string> {
  const template = join(PGLITE_COPIES_DIR, `palisade-test-pglite-${migrated ? 'migrated' : 'empty'}-${pgliteTemplateKey(migrated)}`);
  if (existsSync(template)) return template;
  const building = mkdtempSync(join(PGLITE_COPIES_DIR, 'palisade-test-pglite-building-'));
  const db = await openDatabase({ dataDir: building, migrate: migrated });
  await db.close();
  try {
    renameSync(building, template);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(template)) throw error;
  }
  return template;
}

/**
 * The databases every store test runs on: embedded PGlite, always (a fresh copy of a cluster made once,
 * see pgliteTemplate), and a throw-away database on the real PostgreSQL server (created per call,
 * dropped after).
 */
export async function testDatabases(options: { migrate?: boolean } = {}): Promise<TestDatabase[]> {
  const migrateFlag = options.migrate ?? true;
  const pglite: TestDatabase = (() => {
    let db: Database | undefined;
    let copy: string | undefined;
    return {
      name: 'pglite',
      async open() {
        const template = await pgliteTemplate(migrateFlag);
        copy = mkdtempSync(join(PGLITE_COPIES_DIR, 'palisade-test-pglite-'));
        cpSync(template, copy, { recursive: true });
        db = await openDatabase({ dataDir: copy, migrate: migrateFlag });
        return db;
      },
      async dispose() {
        await db?.close();
        if (copy) rmSync(copy, { recursive: true, force: true });
      },
    };
  })();

  const unreachable = await postgresReachable(TEST_POSTGRES_URL);
  if (unreachable && servicesRequired()) {
    throw new Error(`PostgreSQL at ${TEST_POSTGRES_URL} is required in CI but unreachable: ${unreachable}`);
  }
  const dbName = `palisade_test_${randomBytes(6).toString('hex')}`;
  const admin = () => new pg.Client({ connectionString: TEST_POSTGRES_URL });
  let db: Database | undefined;
  const postgres: TestDatabase = {
    name: 'postgres',
    ...(unreachable ? { skipReason: `PostgreSQL unreachable at ${TEST_POSTGRES_URL}: ${unreachable}` } : {}),
    async open() {
      const client = admin();
      await client.connect();
      await client.query(`CREATE DATABASE ${dbName}`);
      await client.end();
      db = await openDatabase({ databaseUrl: testPostgresUrl(dbName), migrate: migrateFlag, poolSize: 5 });
      return db;
    },
    async dispose() {
      await db?.close();
      const client = admin();
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await client.end();
    },
  };
  return [pglite, postgres];
}

/** Runs `suite` once per test database as a tap subtest named after it. */
export async function forEachDatabase(
  t: Test,
  suite: (t: Test, db: Database) => Promise<void>,
  options: { migrate?: boolean } = {},
): Promise<void> {
  for (const target of await testDatabases(options)) {
    await t.test(target.name, { skip: target.skipReason ?? false }, async (t) => {
      const db = await target.open();
      t.teardown(() => target.dispose());
      await suite(t, db);
    });
  }
}

/**
 * Runs `suite` on one database, as a subtest named after it: PostgreSQL when it is reachable, else
 * PGlite. For end-to-end suites whose subject is the gateway or a protocol rather than storage (the
 * store itself is proven on both by the suites that use forEachDatabase, and `palisade all` runs
 * end-to-end on PGlite), so that the suite does not pay for the same path twice.
 */
export async function forOneDatabase(
  t: Test,
  suite: (t: Test, db: Database) => Promise<void>,
  options: { migrate?: boolean } = {},
): Promise<void> {
  const targets = await testDatabases(options);
  const target = targets.find((d) => d.name === 'postgres' && !d.skipReason) ?? targets.find((d) => d.name === 'pglite')!;
  await t.test(target.name, async (t) => {
    const db = await target.open();
    t.teardown(() => target.dispose());
    await suite(t, db);
  });
}
