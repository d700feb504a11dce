/**
 * docs/decisions.md 118: SQLite files are in incremental auto-vacuum mode, so the retention sweep can
 * give swept space back. A new file gets the mode before its first table (migrate, and a client
 * opening an empty file); an existing file is converted by one VACUUM when small, and left (with a
 * note naming `npm run db:vacuum`) when larger than the limit. SQLite only.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../client';
import { migrateDatabase, prepareSqliteFile } from '../migrate';
import { testDialect } from '../../testing/test-db';

const mode = (file: string) => {
  const d = new Database(file, { readonly: true });
  try {
    return Number(d.pragma('auto_vacuum', { simple: true }));
  } finally {
    d.close();
  }
};
/** A file made the old way: a table created before any auto-vacuum setting (mode NONE). */
const legacyFile = (file: string) => {
  const d = new Database(file);
  d.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  d.exec(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 999) INSERT INTO t SELECT i, hex(randomblob(100)) FROM n`);
  d.close();
};

describe.skipIf(testDialect() !== 'sqlite')('SQLite auto-vacuum mode', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sqlite-auto-vacuum-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('a database migrated from nothing is INCREMENTAL (2)', async () => {
    const file = path.join(dir, 'new.db');
    const out = await migrateDatabase(`file:${file}`);
    expect(out.notes).toEqual([]);
    expect(mode(file)).toBe(2);
  });

  it('a client opening an empty file sets it before anything is created', async () => {
    const file = path.join(dir, 'client.db');
    const db = createDb(`file:${file}`);
    await db.$executeRawUnsafe('CREATE TABLE x (id INTEGER PRIMARY KEY)');
    await db.$disconnect();
    expect(mode(file)).toBe(2);
  });

  it('an existing small file is converted by one VACUUM, its rows kept; a larger one is left with a note', () => {
    const small = path.join(dir, 'small.db');
    legacyFile(small);
    expect(mode(small)).toBe(0);
    const notes = prepareSqliteFile(`file:${small}`);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/converted to incremental auto-vacuum/);
    expect(mode(small)).toBe(2);
    const d = new Database(small, { readonly: true });
    expect(d.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1000 });
    d.close();
    expect(prepareSqliteFile(`file:${small}`)).toEqual([]); // already converted: nothing to do

    const large = path.join(dir, 'large.db');
    legacyFile(large);
    const left = prepareSqliteFile(`file:${large}`, { maxBytes: 1024 });
    expect(left[0]).toMatch(/is not in incremental auto-vacuum mode.*npm run db:vacuum/);
    expect(mode(large)).toBe(0);
    expect(prepareSqliteFile(`file:${large}`, { maxBytes: 1024, force: true })[0]).toMatch(/converted/);
    expect(mode(large)).toBe(2);
  });
});
