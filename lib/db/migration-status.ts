/**
 * Which of the repository's migrations a database has applied, as the migrator of its dialect
 * (lib/db/migrate.ts, `npm run db:migrate`) counts them — for readiness (`GET /api/health/ready`).
 *
 * - SQLite (`prisma migrate deploy`): a migration is applied when `_prisma_migrations` has a row for
 *   it with `finished_at` set and `rolled_back_at` unset; a row with neither is a failed migration
 *   (Prisma refuses to deploy past it until it is resolved).
 * - PostgreSQL (the repo's runner): applied when `_migrations` has its row with the checksum of the
 *   committed file; a different checksum is a migration changed after it was applied (the runner
 *   refuses to go on).
 */
import { dialectOfDb, type Db } from './client';
import { POSTGRES_MIGRATIONS_DIR, readPostgresMigrations, SQLITE_MIGRATIONS_DIR } from './migrations-folder';

export interface MigrationStatus {
  /** How many migrations the dialect's folder holds. */
  total: number;
  /** Committed migrations the database has not applied, oldest first. */
  pending: string[];
  /** Migrations started and not finished (SQLite), or changed after they were applied (PostgreSQL). */
  failed: string[];
}

interface Committed {
  name: string;
  checksum: string;
}

/** The committed migrations of a folder, per folder: they do not change while the process runs. */
const committedCache = new Map<string, Promise<Committed[]>>();

/** The committed migrations of `dir` (`<name>/migration.sql`, read as the PostgreSQL runner reads them; the checksum is what both migrators record), read once per folder. */
function committedMigrations(dir: string): Promise<Committed[]> {
  let found = committedCache.get(dir);
  if (!found) {
    found = readPostgresMigrations(dir).then((all) => all.map(({ name, checksum }) => ({ name, checksum })));
    // A folder that could not be read is read again on the next call.
    found.catch(() => committedCache.delete(dir));
    committedCache.set(dir, found);
  }
  return found;
}

/**
 * Compare the database of `db` with its dialect's committed migrations (`dir` overrides the folder:
 * tests). Reads only. Throws when the database cannot be read; a database no migration ever ran on
 * (no migrations table) has every migration pending.
 */
export async function migrationStatus(db: Db, dir?: string): Promise<MigrationStatus> {
  const dialect = dialectOfDb(db);
  const committed = await committedMigrations(dir ?? (dialect === 'postgresql' ? POSTGRES_MIGRATIONS_DIR : SQLITE_MIGRATIONS_DIR));
  const applied = new Map<string, string>();
  const failed: string[] = [];
  if (dialect === 'postgresql') {
    const [{ present }] = await db.$queryRawUnsafe<{ present: boolean }[]>(`SELECT to_regclass('"_migrations"') IS NOT NULL AS present`);
    if (present) {
      for (const r of await db.$queryRawUnsafe<{ name: string; checksum: string }[]>('SELECT name, checksum FROM "_migrations"')) applied.set(r.name, r.checksum);
    }
    for (const m of committed) if (applied.has(m.name) && applied.get(m.name) !== m.checksum) failed.push(m.name);
  } else {
    const tables = await db.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`);
    if (tables.length > 0) {
      const rows = await db.$queryRawUnsafe<{ migration_name: string; finished: number | bigint; rolled_back: number | bigint }[]>(
        'SELECT migration_name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back FROM _prisma_migrations',
      );
      for (const r of rows) {
        if (Number(r.rolled_back)) continue;
        if (Number(r.finished)) applied.set(r.migration_name, '');
        else if (!failed.includes(r.migration_name)) failed.push(r.migration_name);
      }
    }
  }
  const pending = committed.filter((m) => !applied.has(m.name) && !failed.includes(m.name)).map((m) => m.name);
  return { total: committed.length, pending, failed };
}
