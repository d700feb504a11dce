/**
 * lib/db/pg-prepared.ts on a real PostgreSQL (decision 429): lib/db/sql's statements on the driver
 * paths run as prepared statements named after their text, on the pool (`readRows` outside a
 * transaction) and on a transaction's connection; `DATABASE_PREPARED_STATEMENTS=off` sends them
 * unnamed; a prepared statement a schema change outdated, or one the server lost, is prepared again.
 * Each client here has ONE connection, so what one statement prepared the next one sees.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, testDialect, type TestDb } from '../../testing/test-db';
import { createDb, inTransaction, type Db } from '../client';
import { preparedName } from '../pg-prepared';
import { queryRows, readRows } from '../sql/run-sql';

const both = (text: string) => ({ sqlite: text, postgresql: text });
const PREPARED = both('SELECT name, statement FROM pg_prepared_statements ORDER BY name');
const PROBE = both('SELECT * FROM prepared_probe WHERE id = $1');

describe.skipIf(testDialect() !== 'postgresql')('prepared statements on PostgreSQL', () => {
  let t: TestDb;
  const opened: Db[] = [];
  /** A client of one connection, connected (before its first connection `readRows` goes through Prisma). */
  const oneConnection = async (preparedStatements?: boolean) => {
    const db = createDb(t.url, { poolSize: 1, preparedStatements });
    opened.push(db);
    await db.$connect();
    return db;
  };
  beforeAll(async () => {
    t = await createTestDb('postgresql');
    await t.db.$executeRawUnsafe('CREATE TABLE prepared_probe (id text PRIMARY KEY, a int NOT NULL)');
    await t.db.$executeRawUnsafe("INSERT INTO prepared_probe (id, a) VALUES ('one', 1)");
  });
  afterAll(async () => {
    for (const db of opened) await db.$disconnect();
    await t.cleanup();
  });

  it('a read outside a transaction is prepared once under the name of its text, and answers the same', async () => {
    const db = await oneConnection();
    expect(await readRows(db, PROBE, 'one')).toEqual([{ id: 'one', a: 1 }]);
    expect(await readRows(db, PROBE, 'one')).toEqual([{ id: 'one', a: 1 }]);
    const prepared = await readRows<{ name: string; statement: string }>(db, PREPARED);
    expect(prepared).toContainEqual({ name: preparedName(PROBE.postgresql), statement: PROBE.postgresql });
    expect(preparedName(PROBE.postgresql)).toMatch(/^s_[0-9a-f]{24}$/);
  });

  it('a statement inside inTransaction is prepared on the transaction\'s connection', async () => {
    const db = await oneConnection();
    const text = both('SELECT a FROM prepared_probe WHERE id = $1 AND a >= 0');
    const seen = await inTransaction(db, async (tx) => {
      const rows = await queryRows(tx, text, 'one');
      return { rows, prepared: await queryRows<{ name: string; statement: string }>(tx, PREPARED) };
    });
    expect(seen.rows).toEqual([{ a: 1 }]);
    expect(seen.prepared).toContainEqual({ name: preparedName(text.postgresql), statement: text.postgresql });
  });

  it('DATABASE_PREPARED_STATEMENTS=off (preparedStatements: false) sends every statement unnamed', async () => {
    const db = await oneConnection(false);
    expect(await readRows(db, PROBE, 'one')).toEqual([{ id: 'one', a: 1 }]);
    await inTransaction(db, (tx) => queryRows(tx, both('SELECT a FROM prepared_probe WHERE id = $1 AND a < 100'), 'one'));
    expect(await readRows(db, PREPARED)).toEqual([]);
  });

  it('a schema change that changes a prepared read\'s columns: outside a transaction the read is prepared again at once', async () => {
    const db = await oneConnection();
    expect(await readRows(db, PROBE, 'one')).toEqual([{ id: 'one', a: 1 }]);
    const column = `c_${randomUUID().slice(0, 8)}`;
    await t.db.$executeRawUnsafe(`ALTER TABLE prepared_probe ADD COLUMN ${column} int NOT NULL DEFAULT 7`);
    try {
      // PostgreSQL answers the old prepared statement "cached plan must not change result type".
      expect(await readRows(db, PROBE, 'one')).toEqual([{ id: 'one', a: 1, [column]: 7 }]);
      expect(await readRows(db, PROBE, 'one')).toEqual([{ id: 'one', a: 1, [column]: 7 }]);
    } finally {
      await t.db.$executeRawUnsafe(`ALTER TABLE prepared_probe DROP COLUMN ${column}`);
    }
  });

  it('inside a transaction the outdated statement fails that transaction (rolled back whole), and the next one prepares it again', async () => {
    const db = await oneConnection();
    const text = both('SELECT * FROM prepared_probe WHERE a = $1');
    expect(await inTransaction(db, (tx) => queryRows(tx, text, 1))).toEqual([{ id: 'one', a: 1 }]);
    const column = `c_${randomUUID().slice(0, 8)}`;
    await t.db.$executeRawUnsafe(`ALTER TABLE prepared_probe ADD COLUMN ${column} text`);
    try {
      const id = randomUUID();
      await expect(
        inTransaction(db, async (tx) => {
          await tx.org.create({ data: { id, name: 'written before the failed read' } });
          return queryRows(tx, text, 1);
        }),
      ).rejects.toMatchObject({ code: '0A000', message: expect.stringContaining('cached plan must not change result type') });
      expect(await t.db.org.count({ where: { id } })).toBe(0);
      expect(await inTransaction(db, (tx) => queryRows(tx, text, 1))).toEqual([{ id: 'one', a: 1, [column]: null }]);
    } finally {
      await t.db.$executeRawUnsafe(`ALTER TABLE prepared_probe DROP COLUMN ${column}`);
    }
  });

  it('a prepared statement the server no longer has (DEALLOCATE ALL, as a pooler\'s reset does) is prepared again', async () => {
    const db = await oneConnection();
    const text = both('SELECT id FROM prepared_probe WHERE a = $1');
    expect(await readRows(db, text, 1)).toEqual([{ id: 'one' }]);
    // Prisma's raw query runs on the client's one connection.
    await db.$executeRawUnsafe('DEALLOCATE ALL');
    expect(await readRows(db, PREPARED)).toEqual([{ name: preparedName(PREPARED.postgresql), statement: PREPARED.postgresql }]);
    expect(await readRows(db, text, 1)).toEqual([{ id: 'one' }]);
    expect((await readRows<{ statement: string }>(db, PREPARED)).map((r) => r.statement)).toContain(text.postgresql);
  });
});
