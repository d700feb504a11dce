/**
 * Running a statement of this folder (its SQLite and PostgreSQL texts side by side) inside the
 * caller's transaction: directly on the transaction's driver connection (`sqliteConnection`,
 * `postgresConnection`, lib/db/client.ts: no per-byte cost for the JSON batch documents), or, where
 * that is not known, through Prisma's raw queries. `readRows`: also a client made by `createDb` outside a
 * transaction reads on its own driver connection or pool (`directReader`). Parameters are strings, numbers or null
 * (what both paths bind alike).
 */
import { dialectOfDb, directReader, postgresConnection, sqliteConnection, type Tx } from '../client';

type Texts = { readonly sqlite: string; readonly postgresql: string };
type Param = string | number | null;

/** The rows of a query (or of a statement with RETURNING), as the driver returns them. */
export async function queryRows<T = Record<string, unknown>>(tx: Tx, sql: Texts, ...params: Param[]): Promise<T[]> {
  const dialect = dialectOfDb(tx);
  if (dialect === 'sqlite') {
    const direct = sqliteConnection(tx);
    if (direct) return direct.all(sql.sqlite, ...params) as T[];
  } else {
    const direct = postgresConnection(tx);
    if (direct) return (await direct.query(sql.postgresql, params)).rows as T[];
  }
  return tx.$queryRawUnsafe<T[]>(sql[dialect], ...params);
}

/**
 * The rows of a query as arrays of values in the SELECT's column order (the drivers' array row mode:
 * no object per row, ~3 µs a row of 32 columns on SQLite). For a hot read whose decoder reads by
 * position (schedule-record.ts `pickScheduleRecordOf`).
 */
export async function queryValues(tx: Tx, sql: Texts, ...params: Param[]): Promise<unknown[][]> {
  const dialect = dialectOfDb(tx);
  if (dialect === 'sqlite') {
    const direct = sqliteConnection(tx);
    if (direct) return direct.values(sql.sqlite, ...params);
  } else {
    const direct = postgresConnection(tx);
    if (direct) return direct.queryValues(sql.postgresql, params);
  }
  // Prisma's raw rows keep the SELECT's column order (and no column name of these reads is an integer).
  return (await tx.$queryRawUnsafe<Record<string, unknown>[]>(sql[dialect], ...params)).map((r) => Object.values(r));
}

/**
 * The rows of a read, on `db`'s own driver connection where it can (`queryRows` inside a transaction of
 * `inTransaction`, `directReader` for a client of `createDb` outside one), else through Prisma's raw
 * queries. Raw values as either path returns them (SQLite: BigInt or number integers, 0/1 booleans,
 * text or Date instants): decode them with schedule-record.ts's `raw*` decoders.
 */
export async function readRows<T = Record<string, unknown>>(db: Tx, sql: Texts, ...params: Param[]): Promise<T[]> {
  const reader = directReader(db);
  if (reader) return (await reader(sql, params)) as T[];
  return queryRows<T>(db, sql, ...params);
}

/** How many rows a statement changed. */
export async function executeSql(tx: Tx, sql: Texts, ...params: Param[]): Promise<number> {
  const dialect = dialectOfDb(tx);
  if (dialect === 'sqlite') {
    const direct = sqliteConnection(tx);
    if (direct) return direct.run(sql.sqlite, ...params);
  } else {
    const direct = postgresConnection(tx);
    if (direct) return (await direct.query(sql.postgresql, params)).rowCount;
  }
  return tx.$executeRawUnsafe(sql[dialect], ...params);
}
