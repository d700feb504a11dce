/**
 * docs/decisions.md 395: `npm run db:migrate` on a SQLite file another process has open (a running
 * web app or worker). With the schema current it answers "schema is current" without running
 * `prisma migrate deploy` (which needs the file to itself and fails with Prisma's WASM connector
 * error); with a migration pending it refuses with a plain error naming what to stop. SQLite only.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { childEnv } from '../../config';
import { migrateDatabase, readPostgresMigrations, SQLITE_IN_USE_ERROR, SQLITE_MIGRATIONS_DIR } from '../migrate';
import { testDialect } from '../../testing/test-db';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

/** A second process holding `file` open the way a worker does: WAL mode, one read done, connection kept. */
async function holdOpen(file: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['-e', `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(file)}, { timeout: 15000 }); d.pragma('journal_mode = WAL'); d.prepare('SELECT count(*) FROM sqlite_master').get(); console.log('open'); setInterval(() => d.prepare('SELECT 1').get(), 200);`],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => b.toString().includes('open') && resolve());
    child.on('exit', (code) => reject(new Error(`holder exited ${code}`)));
  });
  return child;
}

describe.skipIf(testDialect() !== 'sqlite')('SQLite migrate while another process has the file open', () => {
  let dir: string;
  let file: string;
  let holder: ChildProcess | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sqlite-migrate-in-use-'));
    file = path.join(dir, 'db.sqlite');
    await migrateDatabase(`file:${file}`);
  }, 120_000);
  afterEach(() => {
    holder?.kill();
    holder = undefined;
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('schema current: "schema is current" with nothing applied, no Prisma run', async () => {
    holder = await holdOpen(file);
    const result = await migrateDatabase(`file:${file}`);
    expect(result.applied).toEqual([]);
    expect(result.total).toBe((await readPostgresMigrations(SQLITE_MIGRATIONS_DIR)).length);
    expect(result.notes).toEqual([]);
  }, 60_000);

  it('schema current, file not yet in incremental auto-vacuum mode: no VACUUM while in use, the note instead', async () => {
    const other = path.join(dir, 'legacy.sqlite');
    await migrateDatabase(`file:${other}`);
    const d = new Database(other);
    d.pragma('auto_vacuum = NONE');
    d.exec('VACUUM');
    d.close();
    holder = await holdOpen(other);
    const result = await migrateDatabase(`file:${other}`);
    expect(result.applied).toEqual([]);
    expect(result.notes).toHaveLength(1);
    expect(result.notes[0]).toContain('is not in incremental auto-vacuum mode');
    expect(result.notes[0]).toContain('npm run db:vacuum');
    const r = new Database(other, { readonly: true });
    expect(Number(r.pragma('auto_vacuum', { simple: true }))).toBe(0);
    r.close();
    holder.kill();
    holder = undefined;
    // Nothing else has it open: the conversion runs as before (decision 118).
    expect((await migrateDatabase(`file:${other}`)).notes[0]).toMatch(/converted to incremental auto-vacuum/);
  }, 60_000);

  it('a migration pending: exit 1 with the plain error, no Prisma WASM noise', async () => {
    // The newest migration made pending again (its row gone; its tables stay, so it is not re-run below).
    const d = new Database(file);
    const [last] = d.prepare('SELECT migration_name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1').all() as { migration_name: string }[];
    d.prepare('DELETE FROM _prisma_migrations WHERE migration_name = ?').run(last.migration_name);
    d.close();
    holder = await holdOpen(file);
    await expect(migrateDatabase(`file:${file}`)).rejects.toThrow(SQLITE_IN_USE_ERROR);
    const cli = await promisify(execFile)(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/migrate.ts'], {
      cwd: ROOT,
      env: childEnv({ DATABASE_URL: `file:${file}` }),
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
    );
    expect(cli.code).toBe(1);
    expect(cli.stderr.trim()).toBe(`migrate: ${SQLITE_IN_USE_ERROR}`);
    expect(cli.stderr).not.toContain('WASM');
  }, 60_000);
});
