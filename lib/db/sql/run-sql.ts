/**
 * Running a statement of this folder (its SQLite and PostgreSQL texts side by side) inside the
 * caller's transaction: on SQLite directly on the transaction's better-sqlite3 connection
 * (`sqliteConnection`, lib/db/client.ts: no per-byte cost for the JSON batch documents), otherwise
 * through Prisma's raw queries. Parameters are strings, numbers or null (what both paths bind alike).
 */
import { dialectOfDb, sqliteConnection, type Tx } from '../client';

type Texts = { readonly sqlite: string; readonly postgresql: string };
type Param = string | number | null;

/** The rows of a query (or of a statement with RETURNING), as the driver returns them. */
export async function queryRows<T = Record<string, unknown>>(tx: Tx, sql: Texts, ...params: Param[]): Promise<T[]> {
  const dialect = dialectOfDb(tx);
  const direct = dialect === 'sqlite' ? sqliteConnection(tx) : null;
  if (direct) return direct.all(sql.sqlite, ...params) as T[];
  return tx.$queryRawUnsafe<T[]>(sql[dialect], ...params);
}

/** How many rows a statement changed. */
export async function executeSql(tx: Tx, sql: Texts, ...params: Param[]): Promise<number> {
  const dialect = dialectOfDb(tx);
  const direct = dialect === 'sqlite' ? sqliteConnection(tx) : null;
  if (direct) return direct.run(sql.sqlite, ...params);
  return tx.$executeRawUnsafe(sql[dialect], ...params);
}
