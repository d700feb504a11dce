/**
 * The repository's committed migrations, one folder per dialect: `prisma/migrations` (SQLite, applied
 * by `prisma migrate deploy`) and `prisma/postgresql/migrations` (PostgreSQL, applied by
 * lib/db/migrate.ts's own runner). Read by the migrator and by readiness (lib/db/migration-status.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in `lib/db/`). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const POSTGRES_MIGRATIONS_DIR = path.join(ROOT, 'prisma', 'postgresql', 'migrations');
export const SQLITE_MIGRATIONS_DIR = path.join(ROOT, 'prisma', 'migrations');

/**
 * The committed migrations of `dir` (either dialect's folder), oldest first: `{name, sql, checksum}`
 * for each `<name>/migration.sql` (the checksum: sha256 hex of the file, as the PostgreSQL runner records it).
 */
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
