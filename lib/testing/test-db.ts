/**
 * A fresh, migrated, REAL database for integration tests, in the dialect CI asks for
 * (STYLE §1.8, §6.9: never a mocked database).
 *
 * - `TEST_DATABASE` unset or `sqlite`: a SQLite file copied from a migrated template
 *   (see `lib/testing/sqlite-db.ts`).
 * - `TEST_DATABASE=postgresql`: a new database `scheduler_test_<random>` on the server of
 *   `TEST_POSTGRES_URL` (default `postgresql://scheduler:scheduler@127.0.0.1:5432/postgres`, the
 *   role `scripts/postgres-local.sh` creates), migrated with lib/db/migrate.ts, dropped by `cleanup`.
 *
 * ```ts
 * let t: TestDb;
 * beforeAll(async () => { t = await createTestDb(); });
 * afterAll(() => t.cleanup());
 * // t.db: a client on the new database; t.url: its URL (e.g. for a child worker process);
 * // t.dialect: 'sqlite' | 'postgresql'.
 * ```
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../config';
import { createDb, type Db, type Dialect } from '../db';
import { migrateDatabase } from '../db/migrate';
import { createTestDb as createSqliteTestDb } from './sqlite-db';

export interface TestDb {
  /** A Prisma client on the new database. Closed by `cleanup`. */
  db: Db;
  /** The database's URL (`file:<abs path>` or `postgresql://…/scheduler_test_…`). */
  url: string;
  dialect: Dialect;
  /** Disconnect the client and delete the database. Idempotent. */
  cleanup: () => Promise<void>;
}

/** The dialect this test run uses (`TEST_DATABASE`). */
export function testDialect(): Dialect {
  return loadConfig().testDatabase;
}

/** A new migrated database in the dialect of `testDialect()` (or of `dialect`, for benchmarks). */
export async function createTestDb(dialect: Dialect = testDialect()): Promise<TestDb> {
  if (dialect === 'postgresql') return createPostgresTestDb();
  const t = await createSqliteTestDb();
  return { db: t.db, url: t.url, dialect: 'sqlite', cleanup: t.cleanup };
}

async function createPostgresTestDb(): Promise<TestDb> {
  const admin = loadConfig().testPostgresUrl;
  const name = `scheduler_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  await withAdmin(admin, (c) => c.query(`CREATE DATABASE "${name}"`));
  const parsed = new URL(admin);
  parsed.pathname = `/${name}`;
  const url = parsed.toString();
  await migrateDatabase(url);
  const db = createDb(url);
  let closed = false;
  return {
    db,
    url,
    dialect: 'postgresql',
    async cleanup() {
      if (closed) return;
      closed = true;
      await db.$disconnect();
      await dropTestDatabase(admin, name);
    },
  };
}

/**
 * Drop a test database (`admin`: a URL on the server with CREATEDB rights; `name`: the database).
 * Every test that makes its own PostgreSQL database drops it here. FORCE ends connections a killed child worker may have left behind
 * (PostgreSQL 13+); it cannot end an autovacuum worker busy in that database, so a refusal is retried
 * for a few seconds, then reported and left (a leftover `scheduler_test_*` database is harmless).
 */
export async function dropTestDatabase(admin: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await withAdmin(admin, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      return;
    } catch (e) {
      if (attempt >= 20) {
        console.warn(`test-db: could not drop ${name}: ${(e as Error).message}`);
        return;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

async function withAdmin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (e) {
    throw new Error(
      `TEST_DATABASE=postgresql but the server at TEST_POSTGRES_URL is not reachable (${(e as Error).message}); ` +
        'start it with `bash scripts/postgres-local.sh`',
      { cause: e },
    );
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
