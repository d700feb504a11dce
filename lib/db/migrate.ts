/**
 * Apply the committed migrations to a database (SPEC "PostgreSQL mode"; `npm run db:migrate`,
 * `npm start`, the test databases).
 *
 * - SQLite: `prisma migrate deploy` over `prisma/migrations` (Prisma's JS schema engine runs offline
 *   through the better-sqlite3 adapter configured in prisma.config.ts).
 * - PostgreSQL: Prisma cannot apply migrations through @prisma/adapter-pg, so this module applies
 *   `prisma/postgresql/migrations/<name>/migration.sql` itself over node-postgres, recording each in
 *   `_migrations`. Each migration runs in its own transaction (a failure leaves nothing half applied),
 *   and the whole run holds a PostgreSQL advisory lock, so web and worker processes starting at the
 *   same moment apply each migration exactly once (the second waits, then finds nothing to do).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { childEnv } from '../config';
import { dialectOf } from './dialect';

/** The repository root (this file lives in `lib/db/`). */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const POSTGRES_MIGRATIONS_DIR = path.join(ROOT, 'prisma', 'postgresql', 'migrations');
export const SQLITE_MIGRATIONS_DIR = path.join(ROOT, 'prisma', 'migrations');

/** Key of the advisory lock the PostgreSQL runner holds (any constant; "schedmig" in ASCII). */
const MIGRATION_LOCK_KEY = 0x7363_6865_646d_6967n;

export interface MigrateResult {
  /** Names of the migrations applied by this call, in order. */
  applied: string[];
  /** How many migrations the directory holds. */
  total: number;
}

/**
 * Apply every pending migration to `databaseUrl`. Throws with the failing migration's name.
 * `postgresDir` overrides the PostgreSQL migrations directory (tests).
 */
export async function migrateDatabase(databaseUrl: string, postgresDir = POSTGRES_MIGRATIONS_DIR): Promise<MigrateResult> {
  return dialectOf(databaseUrl) === 'postgresql' ? migratePostgres(databaseUrl, postgresDir) : migrateSqlite(databaseUrl);
}

async function migrateSqlite(databaseUrl: string): Promise<MigrateResult> {
  const prisma = path.join(ROOT, 'node_modules', '.bin', 'prisma');
  try {
    const { stdout } = await promisify(execFile)(prisma, ['migrate', 'deploy'], {
      cwd: ROOT,
      env: childEnv({ DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: '1' }),
    });
    const total = Number(/(\d+) migrations? found/.exec(stdout)?.[1] ?? 0);
    // `prisma migrate deploy` lists each applied migration as a `└─ <name>/` line.
    const applied = [...stdout.matchAll(/└─ (\S+)\/\s*$/gm)].map((m) => m[1]);
    return { applied, total };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`prisma migrate deploy failed:\n${err.stdout ?? ''}${err.stderr ?? err.message}`);
  }
}

/** The committed PostgreSQL migrations, oldest first: `{name, sql, checksum}`. */
export async function readPostgresMigrations(dir = POSTGRES_MIGRATIONS_DIR): Promise<{ name: string; sql: string; checksum: string }[]> {
  const names = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  const out = [];
  for (const name of names) {
    const file = path.join(dir, name, 'migration.sql');
    if (!existsSync(file)) continue;
    const sql = await readFile(file, 'utf8');
    out.push({ name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return out;
}

async function migratePostgres(databaseUrl: string, dir: string): Promise<MigrateResult> {
  const migrations = await readPostgresMigrations(dir);
  const client = new pg.Client({ connectionString: databaseUrl, options: '-c TimeZone=UTC' });
  await client.connect();
  const applied: string[] = [];
  try {
    // Serializes concurrent runners (web + N workers starting together). Session-level: released by
    // the unlock below, or by the server when this connection drops (a crashed runner never wedges it).
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
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
    return { applied, total: migrations.length };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]).catch(() => undefined);
    await client.end();
  }
}
