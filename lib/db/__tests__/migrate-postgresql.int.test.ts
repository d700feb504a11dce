/**
 * The PostgreSQL migration runner (lib/db/migrate.ts): concurrent starts apply each migration once
 * (advisory lock), a second run is a no-op, and a migration edited after it was applied is refused.
 */
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { migrateDatabase, POSTGRES_MIGRATIONS_DIR, readPostgresMigrations } from '../migrate';
import { dropTestDatabase, testDialect } from '../../testing/test-db';

describe.skipIf(testDialect() !== 'postgresql')('PostgreSQL migrations', () => {
  const admin = loadConfig().testPostgresUrl;
  const name = `scheduler_mig_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const url = Object.assign(new URL(admin), { pathname: `/${name}` }).toString();
  const sql = async (q: string, target = admin) => {
    const c = new pg.Client({ connectionString: target });
    await c.connect();
    try {
      return (await c.query(q)).rows;
    } finally {
      await c.end();
    }
  };
  beforeAll(() => sql(`CREATE DATABASE "${name}"`));
  afterAll(() => dropTestDatabase(admin, name));

  it('three runners started at once apply every migration exactly once; a later run applies nothing', async () => {
    const total = (await readPostgresMigrations()).length;
    const results = await Promise.all([migrateDatabase(url), migrateDatabase(url), migrateDatabase(url)]);
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, total]);
    expect((await migrateDatabase(url)).applied).toEqual([]);
    const rows = await sql('SELECT name FROM "_migrations" ORDER BY name', url);
    expect(rows.map((r) => r.name)).toEqual((await readPostgresMigrations()).map((m) => m.name));
    const tables = await sql(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('schedules', 'runs', 'executions')`, url);
    expect(tables[0].n).toBe(3);
  });

  it('refuses a migration whose text changed after it was applied', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pg-migrations-'));
    try {
      await cp(POSTGRES_MIGRATIONS_DIR, dir, { recursive: true });
      const [first] = await readPostgresMigrations(dir);
      await writeFile(path.join(dir, first.name, 'migration.sql'), `${first.sql}\n-- edited\n`);
      await expect(migrateDatabase(url, dir)).rejects.toThrow(`migration ${first.name} was changed after it was applied`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
