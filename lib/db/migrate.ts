/**
 * Apply the committed migrations to a database (SPEC "PostgreSQL mode"; `npm run db:migrate`,
 * `npm start`, the test databases).
 *
 * - SQLite: `prisma migrate deploy` over `prisma/migrations` (Prisma's JS schema engine runs offline
 *   through the better-sqlite3 adapter configured in prisma.config.ts). Before it, the file is put in
 *   incremental auto-vacuum mode (docs/decisions.md 118): a new file before its first table, an
 *   existing file of at most `SQLITE_CONVERT_MAX_BYTES` by one VACUUM; a larger one is left as it is
 *   and the result says so (`npm run db:vacuum` converts it, docs/ops.md "Retention").
 * - PostgreSQL: Prisma cannot apply migrations through @prisma/adapter-pg, so this module applies
 *   `prisma/postgresql/migrations/<name>/migration.sql` itself over node-postgres, recording each in
 *   `_migrations`. Each migration runs in its own transaction (a failure leaves nothing half applied),
 *   and the whole run holds a PostgreSQL advisory lock, so web and worker processes starting at the
 *   same moment apply each migration exactly once (the second waits, then finds nothing to do).
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { childEnv } from '../config';
import { createDb } from './client';
import { dialectOf } from './dialect';
import { migrationStatus, type MigrationStatus } from './migration-status';
import { POSTGRES_MIGRATIONS_DIR, readPostgresMigrations, ROOT } from './migrations-folder';
import { ensurePrivateFile } from './private-file';

// The committed migrations' folders and their reader live in migrations-folder.ts (readiness reads them too).
export { POSTGRES_MIGRATIONS_DIR, readPostgresMigrations, SQLITE_MIGRATIONS_DIR } from './migrations-folder';

/** Key of the advisory lock the PostgreSQL runner holds (any constant; "schedmig" in ASCII). */
const MIGRATION_LOCK_KEY = 0x7363_6865_646d_6967n;

export interface MigrateResult {
  /** Names of the migrations applied by this call, in order. */
  applied: string[];
  /** How many migrations the directory holds. */
  total: number;
  /** What an operator should read (SQLite: the auto-vacuum conversion done or left to do); may be empty. */
  notes: string[];
}

/**
 * Largest existing SQLite file `migrateDatabase` converts to incremental auto-vacuum by itself (one
 * VACUUM: it rewrites the whole file, needs free disk for a second copy and blocks every writer while
 * it runs; about 15 s per GB on the reference machine, docs/performance.md "Retention").
 */
export const SQLITE_CONVERT_MAX_BYTES = 256 * 1024 * 1024;

/** SQLite's `PRAGMA auto_vacuum` value for INCREMENTAL. */
const AUTO_VACUUM_INCREMENTAL = 2;

/**
 * Put the SQLite file of `databaseUrl` in incremental auto-vacuum mode, so the retention sweep's
 * `PRAGMA incremental_vacuum` can give freed pages back to the file system (decisions 118). A new or
 * empty file takes the mode at once (it must be set before the first table); an existing file is
 * converted by `VACUUM` when it is at most `maxBytes`, or when `force`; otherwise it is left and the
 * returned note says how to convert it. Returns the notes for the operator (empty when nothing happened).
 */
export function prepareSqliteFile(databaseUrl: string, opts: { maxBytes?: number; force?: boolean } = {}): string[] {
  const file = databaseUrl.replace(/^file:/, '');
  // A new file is created owner-only (docs/decisions.md 165).
  ensurePrivateFile(file);
  const db = new Database(file, { timeout: 15_000 });
  try {
    return convertToIncremental(db, file, opts);
  } finally {
    db.close();
  }
}

function notIncrementalNote(file: string, mb: string): string {
  return `${file} (${mb} MB) is not in incremental auto-vacuum mode, so swept rows leave free pages the file keeps; stop the web app and workers, then run \`npm run db:vacuum\` once (docs/ops.md "Retention")`;
}

/** The note for an existing file not in incremental auto-vacuum mode (empty when it is), read without any write lock. */
function sqliteModeNote(file: string): string[] {
  const db = new Database(file, { readonly: true, timeout: 1_000 });
  try {
    if (Number(db.pragma('auto_vacuum', { simple: true })) === AUTO_VACUUM_INCREMENTAL) return [];
  } finally {
    db.close();
  }
  return [notIncrementalNote(file, (statSync(file).size / 1e6).toFixed(0))];
}

function convertToIncremental(db: Database.Database, file: string, opts: { maxBytes?: number; force?: boolean }): string[] {
  if (Number(db.pragma('auto_vacuum', { simple: true })) === AUTO_VACUUM_INCREMENTAL) return [];
  if (Number(db.pragma('page_count', { simple: true })) === 0) {
    // No page yet: the mode is free to set; journal_mode writes the header that records it.
    db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    return [];
  }
  const bytes = statSync(file).size;
  const mb = (bytes / 1e6).toFixed(0);
  if (!opts.force && bytes > (opts.maxBytes ?? SQLITE_CONVERT_MAX_BYTES)) return [notIncrementalNote(file, mb)];
  const started = performance.now();
  db.pragma('auto_vacuum = INCREMENTAL');
  // VACUUM rebuilds the file in the new mode; it cannot run inside a transaction, and waits for
  // (then holds) the write lock like any writer.
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
  const after = (statSync(file).size / 1e6).toFixed(0);
  return [`${file} converted to incremental auto-vacuum (VACUUM: ${mb} MB → ${after} MB in ${((performance.now() - started) / 1000).toFixed(1)} s)`];
}

/**
 * Apply every pending migration to `databaseUrl`. Throws with the failing migration's name.
 * `postgresDir` overrides the PostgreSQL migrations directory (tests).
 */
export async function migrateDatabase(databaseUrl: string, postgresDir = POSTGRES_MIGRATIONS_DIR): Promise<MigrateResult> {
  return dialectOf(databaseUrl) === 'postgresql' ? migratePostgres(databaseUrl, postgresDir) : migrateSqlite(databaseUrl);
}

/** What the SQLite runner says when another process has the file open and a migration is pending. */
export const SQLITE_IN_USE_ERROR = 'the SQLite database is in use by running processes (web, worker): stop them, then migrate';

/**
 * True when another connection has the SQLite `file` open (docs/decisions.md 395). `prisma migrate
 * deploy` takes the file in exclusive locking mode and fails with Prisma's unreadable WASM error
 * whenever any other process has it open, even idle in WAL mode; this asks for the same lock on a
 * connection of its own (waiting `waitMs` at most) and gives it back at once.
 */
export function sqliteFileInUse(file: string, waitMs = 1_000): boolean {
  const db = new Database(file, { timeout: waitMs });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('ROLLBACK');
    return false;
  } catch (e) {
    if ((e as { code?: string }).code?.startsWith('SQLITE_BUSY') || (e as { code?: string }).code?.startsWith('SQLITE_LOCKED')) return true;
    throw e;
  } finally {
    // Closing the connection releases the exclusive lock it may hold.
    db.close();
  }
}

/** The migration status of an existing SQLite file (lib/db/migration-status.ts), read on a client of its own. */
async function sqliteStatus(databaseUrl: string): Promise<MigrationStatus> {
  const db = createDb(databaseUrl);
  try {
    return await migrationStatus(db);
  } finally {
    await db.$disconnect();
  }
}

async function migrateSqlite(databaseUrl: string): Promise<MigrateResult> {
  const file = databaseUrl.replace(/^file:/, '');
  if (existsSync(file) && statSync(file).size > 0) {
    const status = await sqliteStatus(databaseUrl);
    if (status.pending.length === 0 && status.failed.length === 0) {
      // Schema current: no `prisma migrate deploy` (it would need the file to itself). The
      // auto-vacuum conversion (a VACUUM, which also wants the file alone) runs only when nothing
      // else has the file open; otherwise the note says how to do it later.
      if (!sqliteFileInUse(file)) return { applied: [], total: status.total, notes: prepareSqliteFile(databaseUrl) };
      return { applied: [], total: status.total, notes: sqliteModeNote(file) };
    }
    // Pending migrations need the file alone: say so plainly rather than Prisma's connector error.
    if (sqliteFileInUse(file)) throw new Error(SQLITE_IN_USE_ERROR);
  }
  // Before the first migration: a new file's first table must already find the auto-vacuum mode set.
  const notes = prepareSqliteFile(databaseUrl);
  const prisma = path.join(ROOT, 'node_modules', '.bin', 'prisma');
  try {
    const { stdout } = await promisify(execFile)(prisma, ['migrate', 'deploy'], {
      cwd: ROOT,
      env: childEnv({ DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: '1' }),
    });
    const total = Number(/(\d+) migrations? found/.exec(stdout)?.[1] ?? 0);
    // `prisma migrate deploy` lists each applied migration as a `└─ <name>/` line.
    const applied = [...stdout.matchAll(/└─ (\S+)\/\s*$/gm)].map((m) => m[1]);
    return { applied, total, notes };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`prisma migrate deploy failed:\n${err.stdout ?? ''}${err.stderr ?? err.message}`);
  }
}

/** How long a migration connection waits for PostgreSQL to answer its connect (ms); the advisory lock wait after it is unbounded. */
export const POSTGRES_CONNECT_TIMEOUT_MS = 10_000;

/**
 * A node-postgres connection for the migration runner and the seed (UTC session). Throws, within
 * `POSTGRES_CONNECT_TIMEOUT_MS`, an error naming the server's host:port (never the password) when
 * the server does not answer: a port that accepts and never speaks would otherwise hang forever.
 */
async function connectMigrationClient(databaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl, options: '-c TimeZone=UTC', connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS });
  try {
    await client.connect();
  } catch (e) {
    // node-postgres's own reading of the URL: a host (an IPv6 one bracketed again), or a Unix-socket
    // directory (`?host=/run/postgresql`).
    const host = client.host.includes(':') ? `[${client.host}]` : client.host;
    throw new Error(`cannot connect to PostgreSQL at ${host}:${client.port}: ${(e as Error).message}`, { cause: e });
  }
  return client;
}

/**
 * Run `fn` while holding the migration runner's PostgreSQL advisory lock on a connection of its own
 * (docs/decisions.md 396: the seed, which several `migrate` runs started together each run, takes
 * it so that their upserts of the same rows never race). SQLite: runs `fn` as it is (the seed's
 * transaction is `BEGIN IMMEDIATE`, which serializes writers already).
 */
export async function withMigrationLock<T>(databaseUrl: string, fn: () => Promise<T>): Promise<T> {
  return dialectOf(databaseUrl) === 'postgresql' ? withPostgresLock(databaseUrl, () => fn()) : fn();
}

async function withPostgresLock<T>(databaseUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = await connectMigrationClient(databaseUrl);
  try {
    // Serializes concurrent runners (web + N workers starting together). Session-level: released by
    // the unlock below, or by the server when this connection drops (a crashed runner never wedges it).
    // It waits as long as the holder runs: a second migrate waits for the first.
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    return await fn(client);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]).catch(() => undefined);
    await client.end();
  }
}

async function migratePostgres(databaseUrl: string, dir: string): Promise<MigrateResult> {
  const migrations = await readPostgresMigrations(dir);
  return withPostgresLock(databaseUrl, async (client) => {
    const applied: string[] = [];
    await client.query(`CREATE TABLE IF NOT EXISTS "_migrations" (
      "name" TEXT PRIMARY KEY,
      "checksum" TEXT NOT NULL,
      "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now()
    )`);
    const done = new Map(
      (await client.query<{ name: string; checksum: string }>('SELECT name, checksum FROM "_migrations"')).rows.map((r) => [r.name, r.checksum]),
    );
    for (const m of migrations) {
      const seen = done.get(m.name);
      if (seen !== undefined) {
        if (seen !== m.checksum) {
          throw new Error(`migration ${m.name} was changed after it was applied (checksum differs); add a new migration instead`);
        }
        continue;
      }
      // One transaction per migration: its DDL and its `_migrations` row commit together or not at all.
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO "_migrations" (name, checksum) VALUES ($1, $2)', [m.name, m.checksum]);
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(`migration ${m.name} failed: ${(e as Error).message}`, { cause: e });
      }
      applied.push(m.name);
    }
    return { applied, total: migrations.length, notes: [] };
  });
}
