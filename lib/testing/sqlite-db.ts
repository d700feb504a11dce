/**
 * A fresh, migrated, REAL SQLite database for integration tests (STYLE §1.8, §6.9: never a mocked db).
 *
 * ```ts
 * let t: TestDb;
 * beforeAll(async () => { t = await createTestDb(); });
 * afterAll(() => t.cleanup());
 * // t.db is a PrismaClient on file:<tmp>/test.db; t.url is that URL (e.g. for a child worker process).
 * ```
 *
 * Speed: the migrations (`migrateDatabase`, about 2 s) run ONCE per migration set, into a template file in the
 * OS temp dir named by a hash of `prisma/migrations/**`, `prisma/schema.prisma` and lib/db/migrate.ts; every call then copies
 * the template into its own temp dir (a few ms). So calling it once per test file — or even once per
 * test — is cheap, and a changed migration is picked up automatically (new hash, new template).
 * Concurrency: the template is written to a unique name and renamed into place, so parallel processes
 * never see a half-migrated template. To force a fresh migration, delete
 * `<tmpdir>/scheduler-test-templates/`.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb, type Db } from '../db';
import { migrateDatabase } from '../db/migrate';

/** The repository root (this file lives in `lib/testing/`). */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface TestDb {
  /** A Prisma client on the new database. Closed by `cleanup`. */
  db: Db;
  /** `file:<absolute path>` of the database. */
  url: string;
  /** The temp directory holding it (removed by `cleanup`). */
  dir: string;
  /** Disconnect the client and delete the directory. Idempotent. */
  cleanup: () => Promise<void>;
}

/** Apply every migration in `prisma/migrations` to a new SQLite file at `file`, as `npm run db:migrate` does. */
async function migrate(file: string): Promise<void> {
  await migrateDatabase(`file:${file}`);
}

async function migrationsHash(): Promise<string> {
  const hash = createHash('sha256');
  const dir = path.join(ROOT, 'prisma', 'migrations');
  const walk = async (d: string): Promise<void> => {
    for (const entry of (await readdir(d, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) await walk(p);
      else hash.update(path.relative(dir, p)).update('\0').update(await readFile(p)).update('\0');
    }
  };
  await walk(dir);
  hash.update(await readFile(path.join(ROOT, 'prisma', 'schema.prisma')));
  // How a file is migrated (e.g. its auto-vacuum mode, set before the first migration) is part of it.
  hash.update(await readFile(path.join(ROOT, 'lib', 'db', 'migrate.ts')));
  return hash.digest('hex').slice(0, 16);
}

let templatePromise: Promise<string> | undefined;

/** Path of the migrated template for the current migrations, creating it on first use. */
function template(): Promise<string> {
  templatePromise ??= (async () => {
    const dir = path.join(os.tmpdir(), 'scheduler-test-templates');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `${await migrationsHash()}.db`);
    if (await exists(file)) return file;
    const work = await mkdtemp(path.join(dir, 'build-'));
    try {
      await migrate(path.join(work, 'template.db'));
      // Atomic publish: another process either sees no template or a complete one.
      await rename(path.join(work, 'template.db'), file);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    return file;
  })();
  templatePromise.catch(() => (templatePromise = undefined));
  return templatePromise;
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** A new migrated SQLite database in its own temp directory. See the file comment. */
export async function createTestDb(): Promise<TestDb> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'scheduler-test-'));
  const file = path.join(dir, 'test.db');
  await copyFile(await template(), file);
  const url = `file:${file}`;
  const db = createDb(url);
  let closed = false;
  return {
    db,
    url,
    dir,
    async cleanup() {
      if (closed) return;
      closed = true;
      await db.$disconnect();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
