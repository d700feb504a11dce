/**
 * The committed migrations of each dialect must build exactly the schema that the Prisma schema
 * describes (prisma/schema.prisma for SQLite, the derived prisma/postgresql/schema.prisma for
 * PostgreSQL). A schema change without its migration fails here, naming the tables, columns, indexes
 * or constraints that differ. See docs/ops.md "Changing the schema".
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, loadConfig } from '../../config';
import { migrateDatabase } from '../migrate';
import { dropTestDatabase, testDialect } from '../../testing/test-db';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** `prisma migrate diff --from-empty` to `schema`: the SQL that builds it from nothing (offline). */
async function schemaSql(schema: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    path.join(ROOT, 'node_modules', '.bin', 'prisma'),
    ['migrate', 'diff', '--from-empty', '--to-schema-datamodel', schema, '--script'],
    { cwd: ROOT, env: childEnv({ PRISMA_HIDE_UPDATE_MESSAGE: '1' }) },
  );
  return stdout;
}

describe.skipIf(testDialect() !== 'sqlite')('SQLite schema', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sqlite-drift-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('prisma/migrations build the schema of prisma/schema.prisma', async () => {
    const migrated = path.join(dir, 'migrated.db');
    const expected = path.join(dir, 'expected.db');
    await migrateDatabase(`file:${migrated}`);
    const e = new Database(expected);
    e.exec(await schemaSql('prisma/schema.prisma'));
    e.close();
    const shape = (file: string) => {
      const d = new Database(file, { readonly: true });
      try {
        const tables = d.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations' ORDER BY name`).all() as { name: string }[];
        return tables.map(({ name }) => ({
          name,
          columns: d.prepare(`SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid`).all(name),
          indexes: (d.prepare(`SELECT name, "unique" FROM pragma_index_list(?) ORDER BY name`).all(name) as { name: string; unique: number }[]).map((i) => ({
            ...i,
            columns: (d.prepare(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`).all(i.name) as { name: string }[]).map((c) => c.name),
          })),
          foreignKeys: d.prepare(`SELECT "table", "from", "to", on_delete FROM pragma_foreign_key_list(?) ORDER BY "from"`).all(name),
        }));
      } finally {
        d.close();
      }
    };
    expect(shape(migrated)).toEqual(shape(expected));
  });
});

describe.skipIf(testDialect() !== 'postgresql')('PostgreSQL schema', () => {
  const admin = loadConfig().testPostgresUrl;
  const names = ['migrated', 'expected'].map((k) => `scheduler_drift_${k}_${randomUUID().replaceAll('-', '').slice(0, 8)}`);
  const urlOf = (name: string) => Object.assign(new URL(admin), { pathname: `/${name}` }).toString();
  async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return (await c.query<T>(sql)).rows;
    } finally {
      await c.end();
    }
  }
  beforeAll(async () => {
    for (const n of names) await query(admin, `CREATE DATABASE "${n}"`);
  });
  afterAll(async () => {
    for (const n of names) await dropTestDatabase(admin, n);
  });

  it('prisma/postgresql/migrations build the schema of prisma/postgresql/schema.prisma', async () => {
    const [migrated, expected] = names.map(urlOf);
    await migrateDatabase(migrated);
    await query(expected, await schemaSql('prisma/postgresql/schema.prisma'));
    const shape = async (url: string) => ({
      columns: (
        await query<{ c: string }>(url, `SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS c
          FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_migrations' ORDER BY 1`)
      ).map((r) => r.c),
      indexes: (await query<{ i: string }>(url, `SELECT indexdef AS i FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_migrations' ORDER BY 1`)).map((r) => r.i),
      constraints: (
        await query<{ k: string }>(url, `SELECT conrelid::regclass || ' ' || pg_get_constraintdef(oid) AS k FROM pg_constraint
          WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> '_migrations' ORDER BY 1`)
      ).map((r) => r.k),
    });
    expect(await shape(migrated)).toEqual(await shape(expected));
  });
});
