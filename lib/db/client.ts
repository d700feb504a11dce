/**
 * The Prisma client for the configured database: SQLite through better-sqlite3 (the embedded
 * default, `file:<path>`) or PostgreSQL through node-postgres (`postgresql://…`).
 * One client per process, kept on globalThis so Next.js hot reload does not open a new one each time.
 *
 * Both generated clients come from one data model (scripts/generate.ts derives the PostgreSQL schema
 * from prisma/schema.prisma) and have the same model API. `Db` is the SQLite client's type: code is
 * written against it, and the PostgreSQL client is handed out under that type. The SQLite API is the
 * narrower one (no `mode: 'insensitive'`, no `skipDuplicates`), so code that compiles against it runs
 * on both. SQL that differs by dialect lives in `lib/db/sql/`, with both texts side by side.
 */
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import Database from 'better-sqlite3';
import { dialectOf, type Dialect } from './dialect';
import { PrismaClient as PostgresPrismaClient } from './generated/postgresql/client';
import { PrismaClient } from './generated/sqlite/client';

export type Db = PrismaClient;
/** The client inside `db.$transaction(async (tx) => …)`. */
export type Tx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

const globalForDb = globalThis as unknown as { __schedulerDb?: PrismaClient };

/** The dialect of a client made by `createDb`, or of a transaction client of one. */
export function dialectOfDb(db: Tx): Dialect {
  // Prisma keeps the datasource provider on the client and on its interactive-transaction clients.
  const provider = (db as unknown as { _activeProvider?: string })._activeProvider;
  if (provider === 'postgresql') return 'postgresql';
  if (provider === 'sqlite') return 'sqlite';
  throw new Error(`lib/db: unknown Prisma provider ${String(provider)}`);
}

/**
 * The better-sqlite3 adapter opens every transaction with a plain (deferred) `BEGIN`: a transaction
 * that reads first and writes later can then fail with SQLITE_BUSY when another process wrote in
 * between (the busy timeout does not help a deferred reader that must upgrade). The worker's claim
 * reads the due schedules and then writes them, so its transaction must hold the write lock from its
 * first statement: this factory makes every transaction `BEGIN IMMEDIATE` (SQLite's equivalent of
 * PostgreSQL's `FOR UPDATE`, at database granularity; other processes' transactions wait in the busy
 * timeout, readers are not blocked under WAL). Pinned by lib/db/__tests__/begin-immediate.int.test.ts.
 */
class PrismaBetterSQLite3Immediate extends PrismaBetterSQLite3 {
  override async connect() {
    const adapter = await super.connect();
    // The adapter keeps its better-sqlite3 Database in `client` and runs `client.prepare("BEGIN")`.
    const client = (adapter as unknown as { client?: Database.Database }).client;
    if (!client || typeof client.prepare !== 'function') {
      throw new Error('lib/db: @prisma/adapter-better-sqlite3 internals changed (no `client`); BEGIN IMMEDIATE cannot be installed');
    }
    const prepare = client.prepare.bind(client);
    client.prepare = ((sql: string) => prepare(sql === 'BEGIN' ? 'BEGIN IMMEDIATE' : sql)) as typeof client.prepare;
    return adapter;
  }
}

/** How to open a client: the two fields of `AppConfig` (lib/config) it needs, parsed at the edge. */
export interface DbConfig {
  /** `file:<path>` (SQLite) or `postgresql://…`. */
  databaseUrl: string;
  /** Most PostgreSQL connections the client opens (node-postgres pool `max`). Ignored for SQLite. */
  databasePoolSize: number;
}

/** PostgreSQL pool size when a caller (tests, tools) does not say: node-postgres' own default. */
const DEFAULT_POOL_SIZE = 10;

/**
 * Open a client for `databaseUrl` (`file:<path>` or `postgresql://…`). Callers own its lifetime.
 * `poolSize` bounds a PostgreSQL client's connections (default 10); SQLite ignores it.
 */
export function createDb(databaseUrl: string, opts: { poolSize?: number } = {}): Db {
  return dialectOf(databaseUrl) === 'postgresql'
    ? createPostgresDb(databaseUrl, opts.poolSize ?? DEFAULT_POOL_SIZE)
    : createSqliteDb(databaseUrl);
}

function createSqliteDb(databaseUrl: string): Db {
  const file = databaseUrl.replace(/^file:/, '');
  // WAL lets readers (the web app) proceed while a writer (the worker) commits; the mode is stored
  // in the database file, so setting it once per open is cheap and idempotent.
  const sqlite = new Database(file, { timeout: 15_000 });
  sqlite.pragma('journal_mode = WAL');
  sqlite.close();
  // `timeout` is SQLite's busy timeout (ms): a writer waits this long for another process's lock.
  const adapter = new PrismaBetterSQLite3Immediate({ url: file, timeout: 15_000 });
  return new PrismaClient({ adapter });
}

function createPostgresDb(databaseUrl: string, poolSize: number): Db {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    // Prisma stores DateTime as `timestamp(3)` (no zone) holding UTC; raw SQL compares those columns
    // with bound instants, so the session zone must be UTC whatever the server's default is.
    options: '-c TimeZone=UTC',
    max: poolSize,
  });
  // Same model API as the SQLite client (one data model, see scripts/generate.ts); typed as `Db`.
  return new PostgresPrismaClient({ adapter }) as unknown as Db;
}

/**
 * The process-wide client for `config` (the edge passes `loadConfig()`): opened on the first call,
 * the same client afterwards (a process talks to one database).
 */
export function getDb(config: DbConfig): Db {
  globalForDb.__schedulerDb ??= createDb(config.databaseUrl, { poolSize: config.databasePoolSize });
  return globalForDb.__schedulerDb;
}

/**
 * Run `fn` in one interactive transaction and return its result; any throw rolls everything back.
 * The one way a domain verb opens a transaction (docs/architecture.md, "Transactions"): every public
 * verb that writes calls it itself, so callers (server actions, the API, the worker) never do. On
 * SQLite this is also what keeps decision 13 true: a write outside a transaction could land inside
 * another request's open transaction on the shared connection and roll back with it.
 * `options` are Prisma's `maxWait`/`timeout` bounds in ms (the fire path sets its own).
 */
export function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>, options?: { maxWait?: number; timeout?: number }): Promise<T> {
  return db.$transaction((tx) => fn(tx), options);
}

/** Close the process-wide client (worker shutdown, tests). */
export async function closeDb(): Promise<void> {
  const db = globalForDb.__schedulerDb;
  globalForDb.__schedulerDb = undefined;
  if (db) await db.$disconnect();
}
