/**
 * A REAL database of the test run's dialect (`TEST_DATABASE`) migrated only up to a migration, for
 * tests of what that migration does to rows written before it:
 *
 * ```ts
 * const old = await databaseBefore('0013');       // every migration whose name sorts before "0013"
 * const db = createDb(old.url);                   // write rows as the older schema allowed them
 * await old.migrateRest();                        // then "0013…" and every later migration
 * await old.cleanup();                            // drops the database (PostgreSQL) / its directory
 * ```
 *
 * SQLite files get each migration's SQL as `prisma migrate deploy` would run it; PostgreSQL databases
 * go through lib/db/migrate.ts (a copy of the earlier migrations' folders first, then the real folder).
 *
 * The current Prisma model writes its `@default` columns and reads every column back on each create.
 * So the columns later migrations add (`ALTER TABLE … ADD COLUMN …`) are there while the old rows are
 * written, and are dropped again just before `migrateRest`, which then adds them as the real migration
 * does.
 */
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../config';
import { migrateDatabase, POSTGRES_MIGRATIONS_DIR, SQLITE_MIGRATIONS_DIR } from '../db/migrate';
import { dropTestDatabase, testDialect } from './test-db';

export interface DatabaseBefore {
  /** `file:<abs path>` or `postgresql://…/scheduler_test_…`. */
  url: string;
  /** Apply the migration named at creation and every later one. */
  migrateRest: () => Promise<void>;
  /** Delete the database. Idempotent. */
  cleanup: () => Promise<void>;
}

/** The migration folders of `dir` whose names sort before (`before`) or from (`!before`) `name`, in order. */
async function migrationsOf(dir: string, name: string, before: boolean): Promise<string[]> {
  return (await readdir(dir, { withFileTypes: true }))
    .filter((d) => d.isDirectory() && (d.name < name) === before)
    .map((d) => d.name)
    .sort();
}

/** `[table, column definition]` of each `ALTER TABLE … ADD COLUMN …` in the migrations of `dir` named from `name` on. */
async function laterColumns(dir: string, name: string): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const m of await migrationsOf(dir, name, false)) {
    const sql = (await readFile(path.join(dir, m, 'migration.sql'), 'utf8')).replace(/--[^\n]*/g, '');
    for (const statement of sql.split(';')) {
      const alter = /^\s*ALTER TABLE\s+("\w+")\s+(ADD COLUMN[\s\S]*)$/.exec(statement);
      if (!alter) continue;
      for (const clause of alter[2].split(/,\s*(?=ADD COLUMN)/)) {
        const def = /^ADD COLUMN\s+([\s\S]+?)\s*$/.exec(clause)?.[1];
        if (def) out.push([alter[1], def]);
      }
    }
  }
  return out;
}

/** A database migrated with every migration whose folder name sorts before `migration` (e.g. `'0013'`). */
export async function databaseBefore(migration: string): Promise<DatabaseBefore> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), `before-${migration}-`));
  const columns = await laterColumns(testDialect() === 'postgresql' ? POSTGRES_MIGRATIONS_DIR : SQLITE_MIGRATIONS_DIR, migration);
  const add = columns.map(([table, def]) => `ALTER TABLE ${table} ADD COLUMN ${def}`);
  const drop = columns.map(([table, def]) => `ALTER TABLE ${table} DROP COLUMN ${def.split(/\s/)[0]}`);
  if (testDialect() === 'postgresql') {
    const admin = loadConfig().testPostgresUrl;
    const name = `scheduler_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const withAdmin = async (sql: string) => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      try {
        await c.query(sql);
      } finally {
        await c.end();
      }
    };
    await withAdmin(`CREATE DATABASE "${name}"`);
    const url = Object.assign(new URL(admin), { pathname: `/${name}` }).toString();
    for (const m of await migrationsOf(POSTGRES_MIGRATIONS_DIR, migration, true)) await cp(path.join(POSTGRES_MIGRATIONS_DIR, m), path.join(tmp, m), { recursive: true });
    await migrateDatabase(url, tmp);
    const run = async (statements: string[]) => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        for (const q of statements) await c.query(q);
      } finally {
        await c.end();
      }
    };
    await run(add);
    let dropped = false;
    return {
      url,
      migrateRest: async () => {
        await run(drop);
        await migrateDatabase(url);
      },
      cleanup: async () => {
        if (dropped) return;
        dropped = true;
        await dropTestDatabase(admin, name);
        await rm(tmp, { recursive: true, force: true });
      },
    };
  }
  const file = path.join(tmp, 'old.db');
  const exec = (statements: string[]) => {
    const d = new Database(file);
    try {
      for (const q of statements) d.exec(q);
    } finally {
      d.close();
    }
  };
  const apply = async (names: string[]) => exec(await Promise.all(names.map((m) => readFile(path.join(SQLITE_MIGRATIONS_DIR, m, 'migration.sql'), 'utf8'))));
  await apply(await migrationsOf(SQLITE_MIGRATIONS_DIR, migration, true));
  exec(add);
  return {
    url: `file:${file}`,
    migrateRest: async () => {
      exec(drop);
      await apply(await migrationsOf(SQLITE_MIGRATIONS_DIR, migration, false));
    },
    cleanup: () => rm(tmp, { recursive: true, force: true }),
  };
}
