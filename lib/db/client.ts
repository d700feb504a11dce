/**
 * The Prisma client for the configured database (SQLite by default, SPEC "embedded default").
 * One client per process, kept on globalThis so Next.js hot reload does not open a new one each time.
 */
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import Database from 'better-sqlite3';
import { loadConfig } from '../config';
import { PrismaClient } from './generated/sqlite/client';

export type Db = PrismaClient;
/** The client inside `db.$transaction(async (tx) => …)`. */
export type Tx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

const globalForDb = globalThis as unknown as { __schedulerDb?: PrismaClient };

/** Open a client for `databaseUrl` (`file:<path>`). Callers own its lifetime. */
export function createDb(databaseUrl: string): PrismaClient {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('PostgreSQL mode is not available in this build yet; unset DATABASE_URL to use SQLite.');
  }
  const file = databaseUrl.replace(/^file:/, '');
  // WAL lets readers (the web app) proceed while a writer (the worker) commits; the mode is stored
  // in the database file, so setting it once per open is cheap and idempotent.
  const sqlite = new Database(file, { timeout: 15_000 });
  sqlite.pragma('journal_mode = WAL');
  sqlite.close();
  // `timeout` is SQLite's busy timeout (ms): a writer waits this long for another process's lock.
  const adapter = new PrismaBetterSQLite3({ url: file, timeout: 15_000 });
  return new PrismaClient({ adapter });
}

/** The process-wide client for the configured DATABASE_URL. */
export function getDb(): PrismaClient {
  if (!globalForDb.__schedulerDb) globalForDb.__schedulerDb = createDb(loadConfig().databaseUrl);
  return globalForDb.__schedulerDb;
}

/** Close the process-wide client (worker shutdown, tests). */
export async function closeDb(): Promise<void> {
  const db = globalForDb.__schedulerDb;
  globalForDb.__schedulerDb = undefined;
  if (db) await db.$disconnect();
}
