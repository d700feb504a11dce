/**
 * Running a statement of this folder (its SQLite and PostgreSQL texts side by side) inside the
 * caller's transaction: directly on the transaction's driver connection (`sqliteConnection`,
 * `postgresConnection`, lib/db/client.ts: no per-byte cost for the JSON batch documents), or, where
 * that is not known, through Prisma's raw queries. Parameters are strings, numbers or null (what both paths bind alike).
 */
import { dialectOfDb, postgresConnection, sqliteConnection, type Tx } from '../client';

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
