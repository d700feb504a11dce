/**
 * lib/db/sqlite-adapter.ts is the product's own Prisma driver adapter for SQLite. Its values must
 * cross Prisma's driver-adapter interface exactly as `@prisma/adapter-better-sqlite3` (the oracle,
 * still installed for the Prisma CLI) sends them: the query compiler of the same Prisma version
 * expects those shapes. Here both adapters run the same statements on two files with the same
 * schema, and every result (rows, column types, counts) and every error must be equal; a Prisma
 * upgrade that changes the official adapter's conversions fails here, naming the statement and both
 * answers. The transactions are the product's own (BEGIN IMMEDIATE, a turn always given back) and
 * are checked on their own below.
 */
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import type { ArgScalarType, SqlDriverAdapter, SqlQuery } from '@prisma/driver-adapter-utils';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '../../testing/test-db';
import { SqliteAdapterFactory } from '../sqlite-adapter';

const SCHEMA = `
  CREATE TABLE t (
    id INTEGER PRIMARY KEY, i INT, bi BIGINT, r REAL, d DOUBLE, f FLOAT, dec DECIMAL, num NUMERIC,
    tx TEXT, vc VARCHAR, bl BLOB, b BOOLEAN, dt DATETIME, ts TIMESTAMP, da DATE, ti TIME, j JSONB,
    u, other FOO
  );
  CREATE TABLE k (id INTEGER PRIMARY KEY, uq TEXT UNIQUE, nn TEXT NOT NULL, parent INTEGER REFERENCES k(id));
  CREATE TRIGGER veto BEFORE INSERT ON k WHEN NEW.nn = 'veto' BEGIN SELECT RAISE(ABORT, 'vetoed'); END;
`;
const COLUMNS = ['i', 'bi', 'r', 'd', 'f', 'dec', 'num', 'tx', 'vc', 'bl', 'b', 'dt', 'ts', 'da', 'ti', 'j', 'u', 'other'] as const;
/** Columns whose values Prisma reads as instants: a stored integer there is epoch ms, so keep it a valid one. */
const INSTANT_COLUMNS = new Set(['dt', 'ts']);

/** A value as the query compiler hands it to an adapter, with the argument type it says. */
type Arg = { value: unknown; scalarType: ArgScalarType };
const arg = (value: unknown, scalarType: ArgScalarType): Arg => ({ value, scalarType });

const anyValue: fc.Arbitrary<Arg> = fc.oneof(
  fc.constant(arg(null, 'unknown')),
  fc.integer().map((n) => arg(n, 'int')),
  fc.integer().map((n) => arg(String(n), 'int')),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((n) => arg(String(n), 'bigint')),
  fc.double({ noNaN: true }).map((n) => arg(n, 'float')),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => arg(String(n), 'decimal')),
  fc.string().map((s) => arg(s, 'string')),
  fc.boolean().map((b) => arg(b, 'boolean')),
  fc.uint8Array({ maxLength: 8 }).map((b) => arg([...b], 'bytes')),
  fc.uint8Array({ maxLength: 8 }).map((b) => arg(Buffer.from(b).toString('base64'), 'bytes')),
  fc.json().map((j) => arg(j, 'json')),
);
const instantValue: fc.Arbitrary<Arg> = fc.oneof(
  fc.constant(arg(null, 'unknown')),
  fc.date({ noInvalidDate: true }).map((d) => arg(d.toISOString(), 'datetime')),
  fc.date({ noInvalidDate: true }).map((d) => arg(d, 'datetime')),
  fc.integer({ min: -8.64e12, max: 8.64e12 }).map((n) => arg(n, 'int')),
  fc.string().map((s) => arg(s, 'string')),
);
const row = fc.record(Object.fromEntries(COLUMNS.map((c) => [c, INSTANT_COLUMNS.has(c) ? instantValue : anyValue])) as Record<(typeof COLUMNS)[number], fc.Arbitrary<Arg>>);

function query(sql: string, args: Arg[] = []): SqlQuery {
  return { sql, args: args.map((a) => a.value), argTypes: args.map((a) => ({ scalarType: a.scalarType, arity: 'scalar' as const })) };
}

/** What a call answered, in a form two adapters' answers can be compared in. */
async function outcome(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await call() };
  } catch (e) {
    const err = e as Error & { code?: unknown; cause?: unknown };
    return { error: { name: err.name, message: err.message, code: err.code, cause: err.cause } };
  }
}

describe.skipIf(testDialect() !== 'sqlite')('lib/db/sqlite-adapter.ts answers as @prisma/adapter-better-sqlite3 does', () => {
  let dir: string;
  let official: SqlDriverAdapter;
  let ours: SqlDriverAdapter;
  const files = () => ({ official: path.join(dir, 'official.db'), ours: path.join(dir, 'ours.db') });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sqlite-adapter-'));
    official = await new PrismaBetterSQLite3({ url: files().official, timeout: 50 }).connect();
    ours = await new SqliteAdapterFactory({ file: files().ours, timeout: 50 }).connect();
    await official.executeScript(SCHEMA);
    await ours.executeScript(SCHEMA);
  });
  afterAll(async () => {
    await official?.dispose();
    await ours?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Run `call` on both adapters; the answers must be equal. */
  async function same(what: string, call: (a: SqlDriverAdapter) => Promise<unknown>): Promise<unknown> {
    const expected = await outcome(() => call(official));
    const actual = await outcome(() => call(ours));
    expect(actual, `${what}: lib/db/sqlite-adapter.ts answered differently from @prisma/adapter-better-sqlite3 (port its changes)`).toEqual(expected);
    return actual;
  }

  it('reads every declared and undeclared column type, and binds every argument type, alike', async () => {
    const insert = `INSERT INTO t (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`;
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 5 }), async (rows) => {
        await same('DELETE', (a) => a.executeRaw(query('DELETE FROM t')));
        for (const r of rows) await same(`INSERT ${JSON.stringify(r)}`, (a) => a.executeRaw(query(insert, COLUMNS.map((c) => r[c]))));
        await same('SELECT *', (a) => a.queryRaw(query('SELECT * FROM t ORDER BY id')));
        // Expressions have no declared type: their types are inferred from the values.
        await same('SELECT expressions', (a) => a.queryRaw(query('SELECT i + 1 AS e1, tx || bl AS e2, typeof(u) AS e3, u AS e4, NULL AS e5, max(bi) OVER () AS e6 FROM t ORDER BY id')));
      }),
      { numRuns: 60 },
    );
  });

  it('binds each argument type as a parameter alike', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyValue, instantValue), async (a) => {
        await same(`SELECT ? with ${JSON.stringify(a)}`, (ad) => ad.queryRaw(query('SELECT ? AS v', [a])));
      }),
      { numRuns: 200 },
    );
    for (const bad of [arg('not a number', 'bigint'), arg('x', 'int'), arg('2024-13-45', 'datetime')]) {
      await same(`SELECT ? with ${JSON.stringify(bad)}`, (ad) => ad.queryRaw(query('SELECT ? AS v', [bad])));
    }
  });

  it('reports driver errors alike (the ones Prisma maps to its own codes, and the others)', async () => {
    await same('seed k', (a) => a.executeRaw(query("INSERT INTO k (id, uq, nn) VALUES (1, 'a', 'x')")));
    const cases: [string, (a: SqlDriverAdapter) => Promise<unknown>][] = [
      ['unique', (a) => a.executeRaw(query("INSERT INTO k (uq, nn) VALUES ('a', 'x')"))],
      ['primary key', (a) => a.executeRaw(query("INSERT INTO k (id, nn) VALUES (1, 'x')"))],
      ['not null', (a) => a.executeRaw(query('INSERT INTO k (uq, nn) VALUES (?, NULL)', [arg('b', 'string')]))],
      ['foreign key', (a) => a.executeRaw(query("INSERT INTO k (nn, parent) VALUES ('x', 999)"))],
      ['trigger', (a) => a.executeRaw(query("INSERT INTO k (nn) VALUES ('veto')"))],
      ['no such table', (a) => a.queryRaw(query('SELECT * FROM nope'))],
      ['no such column', (a) => a.queryRaw(query('SELECT nope FROM k'))],
      ['has no column named', (a) => a.executeRaw(query('INSERT INTO k (nope) VALUES (1)'))],
      ['syntax', (a) => a.queryRaw(query('SELEC 1'))],
      ['script', (a) => a.executeScript('CREATE TABLE k (id INTEGER)')],
      ['isolation level', (a) => a.startTransaction('READ COMMITTED')],
    ];
    for (const [what, call] of cases) {
      const answer = (await same(what, call)) as { error?: unknown };
      expect(answer.error, `${what} must fail`).toBeDefined();
    }
  });

  it('reports a busy database alike (SQLITE_BUSY after the busy timeout)', async () => {
    const lockers = [new Database(files().official), new Database(files().ours)];
    try {
      for (const l of lockers) l.exec('BEGIN IMMEDIATE');
      const answer = (await same('write while another connection holds the lock', (a) => a.executeRaw(query("INSERT INTO k (uq, nn) VALUES ('busy', 'x')")))) as {
        error?: { cause?: { kind?: string } };
      };
      expect(answer.error?.cause?.kind).toBe('SocketTimeout');
    } finally {
      for (const l of lockers) l.close();
    }
  });
});

describe.skipIf(testDialect() !== 'sqlite')('lib/db/sqlite-adapter.ts transactions', () => {
  let dir: string;
  let file: string;
  let factory: SqliteAdapterFactory;
  let adapter: SqlDriverAdapter;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sqlite-adapter-tx-'));
    file = path.join(dir, 'tx.db');
    factory = new SqliteAdapterFactory({ file, timeout: 50 });
    adapter = await factory.connect();
    await adapter.executeScript('PRAGMA journal_mode = WAL; CREATE TABLE t (v BLOB)');
  });
  afterAll(async () => {
    await adapter?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Fail instead of hanging: a turn that was never given back shows up as this timeout. */
  const within = <T>(ms: number, p: Promise<T>): Promise<T> =>
    Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms: the transaction turn was not given back`)), ms))]);

  it('end with their own COMMIT / ROLLBACK (Prisma sends none), on the connection the product holds', async () => {
    const tx = await adapter.startTransaction();
    expect(tx.options.usePhantomQuery).toBe(true);
    expect(factory.connection?.client.inTransaction).toBe(true);
    await tx.executeRaw(query("INSERT INTO t VALUES (x'01')"));
    await tx.commit();
    expect(factory.connection?.client.inTransaction).toBe(false);
    const rolledBack = await adapter.startTransaction();
    await rolledBack.executeRaw(query("INSERT INTO t VALUES (x'02')"));
    await rolledBack.rollback();
    expect((await adapter.queryRaw(query('SELECT count(*) AS n FROM t'))).rows).toEqual([['1']]);
  });

  it('give the turn back when BEGIN IMMEDIATE fails (another process holds the lock past the busy timeout)', async () => {
    const other = new Database(file);
    try {
      other.exec('BEGIN IMMEDIATE');
      await expect(adapter.startTransaction()).rejects.toMatchObject({ name: 'DriverAdapterError', cause: { kind: 'SocketTimeout' } });
      other.exec('COMMIT');
      const tx = await within(2_000, adapter.startTransaction());
      await tx.rollback();
    } finally {
      other.close();
    }
  });

  it('give the turn back when the disk is full and SQLite ended the transaction itself', async () => {
    const c = factory.connection!.client;
    const pages = Number(c.pragma('page_count', { simple: true }));
    c.pragma(`max_page_count = ${pages + 2}`);
    try {
      const tx = await adapter.startTransaction();
      await expect(tx.executeRaw(query('INSERT INTO t VALUES (?)', [arg([...Buffer.alloc(64 * 1024)], 'bytes')]))).rejects.toMatchObject({ code: 'SQLITE_FULL' });
      await tx.rollback();
      expect(c.inTransaction).toBe(false);
      const next = await within(2_000, adapter.startTransaction());
      await next.rollback();
    } finally {
      c.pragma('max_page_count = 1073741823');
    }
  });
});
