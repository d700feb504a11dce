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
import { AsyncLocalStorage } from 'node:async_hooks';
import { accessSync, constants as fsConstants } from 'node:fs';
import pg from 'pg';
import { dialectOf, type Dialect } from './dialect';
import { ensurePrivateFile } from './private-file';
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
 * SQLite transactions, owned here rather than by `@prisma/adapter-better-sqlite3` (6.19), for two reasons:
 *
 * 1. **`BEGIN IMMEDIATE`.** The adapter opens every transaction with a plain (deferred) `BEGIN`: a
 *    transaction that reads first and writes later can then fail with SQLITE_BUSY when another process
 *    wrote in between (the busy timeout does not help a deferred reader that must upgrade). The worker's
 *    claim reads the due schedules and then writes them, so its transaction must hold the write lock
 *    from its first statement (SQLite's equivalent of PostgreSQL's `FOR UPDATE`, at database
 *    granularity; other processes' transactions wait in the busy timeout, readers are not blocked under
 *    WAL). Pinned by lib/db/__tests__/begin-immediate.int.test.ts.
 * 2. **The transaction lock is always released.** The adapter serializes this process's transactions
 *    with a mutex that only its `commit()` / `rollback()` release, and Prisma calls those only AFTER
 *    its own `COMMIT` / `ROLLBACK` statement succeeded. On a full disk SQLite fails a write with
 *    SQLITE_FULL and may roll the transaction back by itself; Prisma's `ROLLBACK` then fails ("no
 *    transaction is active"), or its `COMMIT` fails, the mutex stays held, and every later transaction
 *    of the process waits forever (a `BEGIN` that fails, e.g. SQLITE_BUSY after the timeout, leaks it
 *    the same way). Here the transaction is "phantom" for Prisma (it calls `commit()` / `rollback()`
 *    directly) and both end in `finally { release() }`; a failed COMMIT rolls back what is left, so the
 *    connection is never left inside a transaction. Pinned by app/api/__tests__/storage-full.int.test.ts.
 */
class PrismaBetterSQLite3Immediate extends PrismaBetterSQLite3 {
  /**
   * The open connection and its transaction queue (set by `connect`), for `withSqliteConnection`;
   * `deferCheckpoint`: the open transaction's COMMIT skips the WAL auto-checkpoint (`deferCommitWork`);
   * `readOnlySeen`: a statement failed because the connection cannot write (`reopenIfWritable`).
   */
  connection: { client: Database.Database; queue: TransactionQueue; deferCheckpoint: boolean; readOnlySeen: boolean } | null = null;

  constructor(private readonly options: { url: string; timeout: number }) {
    super(options);
  }

  override async connect() {
    const adapter = await super.connect();
    // The adapter keeps its better-sqlite3 Database in `client`; queries run through its public methods.
    const holder = adapter as unknown as { client?: Database.Database; onError: (e: unknown) => never };
    const client = holder.client;
    if (!client || typeof client.prepare !== 'function') {
      throw new Error('lib/db: @prisma/adapter-better-sqlite3 internals changed (no `client`); SQLite transactions cannot be installed');
    }
    limitJournal(client);
    const queue = new TransactionQueue();
    const state = { client, queue, deferCheckpoint: false, readOnlySeen: false };
    this.connection = state;
    // Every statement error of the adapter (and of its transactions, which inherit from it) passes here.
    const onError = holder.onError.bind(adapter);
    holder.onError = (e: unknown) => {
      if (isReadOnlyError(e)) state.readOnlySeen = true;
      return onError(e);
    };
    /**
     * A connection SQLite opened while the file was read-only stays read-only (it fell back to a
     * read-only file descriptor) after the file becomes writable: the process would refuse writes until
     * restarted. So once a write failed that way, each transaction first checks whether the file can be
     * written now and, if so, swaps in a new connection (docs/decisions.md 164). Runs in the queue's
     * turn, so no transaction of this process is open on the old connection; better-sqlite3 is
     * synchronous, so no statement is running on it either.
     */
    const reopenIfWritable = () => {
      try {
        accessSync(this.options.url.replace(/^file:/, ''), fsConstants.W_OK);
      } catch {
        return;
      }
      const fresh = new Database(this.options.url.replace(/^file:/, ''), { timeout: this.options.timeout });
      fresh.defaultSafeIntegers(true);
      limitJournal(fresh);
      const stale = state.client;
      holder.client = fresh;
      state.client = fresh;
      state.readOnlySeen = false;
      stale.close();
    };
    const original = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      // Only SERIALIZABLE exists on SQLite; let the adapter refuse anything else in its own words.
      if (isolationLevel && isolationLevel !== 'SERIALIZABLE') return original(isolationLevel);
      const release = await queue.acquire();
      if (state.readOnlySeen) reopenIfWritable();
      const client = state.client;
      try {
        client.prepare('BEGIN IMMEDIATE').run();
      } catch (e) {
        release();
        return fail(adapter, e);
      }
      // The transaction's queries run on the same connection, through the adapter's own methods.
      const tx = Object.create(adapter) as typeof adapter & { options: { usePhantomQuery: boolean } };
      return Object.assign(tx, {
        options: { usePhantomQuery: true },
        async commit() {
          // A transaction that asked (deferCommitWork) commits without the auto-checkpoint: the
          // connection's setting is put back before the next transaction can start (still queued here).
          const restore = state.deferCheckpoint ? client.pragma('wal_autocheckpoint', { simple: true }) : null;
          state.deferCheckpoint = false;
          if (restore !== null) client.pragma('wal_autocheckpoint = 0');
          try {
            client.prepare('COMMIT').run();
          } catch (e) {
            // A failed COMMIT (SQLITE_FULL, SQLITE_IOERR…) may leave the transaction open: end it.
            rollbackQuietly(client);
            return fail(adapter, e);
          } finally {
            if (restore !== null) client.pragma(`wal_autocheckpoint = ${Number(restore)}`);
            release();
          }
        },
        async rollback() {
          state.deferCheckpoint = false;
          try {
            // SQLite may already have rolled back by itself (SQLITE_FULL): nothing is left to undo.
            if (client.inTransaction) client.prepare('ROLLBACK').run();
          } catch (e) {
            return fail(adapter, e);
          } finally {
            release();
          }
        },
      });
    };
    return adapter;
  }
}

/**
 * After a checkpoint has emptied the WAL, cut its file back to 64 MB: one large transaction (a VACUUM,
 * a bulk import) would otherwise leave a WAL file of its size behind for good.
 */
function limitJournal(client: Database.Database): void {
  client.pragma('journal_size_limit = 67108864');
}

/** True for SQLite's "attempt to write a readonly database" family (SQLITE_READONLY, SQLITE_READONLY_*). */
function isReadOnlyError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_READONLY');
}

/** Rethrow a driver error the way the adapter's own queries do (its `onError` maps SQLite codes). */
function fail(adapter: unknown, e: unknown): never {
  (adapter as { onError: (e: unknown) => never }).onError(e);
  throw e;
}

function rollbackQuietly(client: Database.Database): void {
  try {
    if (client.inTransaction) client.prepare('ROLLBACK').run();
  } catch {
    // Nothing more can be done on this connection; the next BEGIN reports what is wrong.
  }
}

/**
 * One transaction at a time on the process's one SQLite connection, first come first served. The
 * release function is idempotent, so a path that releases twice cannot let two transactions in.
 */
class TransactionQueue {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let open!: () => void;
    const turn = new Promise<void>((resolve) => (open = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => turn);
    return previous.then(() => {
      let released = false;
      return () => {
        if (released) return;
        released = true;
        open();
      };
    });
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
  // A new file is created owner-only (its -wal and -shm files take its mode).
  ensurePrivateFile(file);
  // WAL lets readers (the web app) proceed while a writer (the worker) commits; the mode is stored
  // in the database file, so setting it once per open is cheap and idempotent.
  const sqlite = new Database(file, { timeout: 15_000 });
  // A file without tables yet takes incremental auto-vacuum (docs/decisions.md 118); `journal_mode`
  // then writes the header that keeps it. A file with tables keeps its mode (lib/db/migrate.ts converts).
  if (Number(sqlite.pragma('page_count', { simple: true })) === 0) sqlite.pragma('auto_vacuum = INCREMENTAL');
  sqlite.pragma('journal_mode = WAL');
  sqlite.close();
  // `timeout` is SQLite's busy timeout (ms): a writer waits this long for another process's lock.
  const adapter = new PrismaBetterSQLite3Immediate({ url: file, timeout: 15_000 });
  const db = new PrismaClient({ adapter });
  Object.defineProperty(db, SQLITE_ADAPTER, { value: adapter });
  return db;
}

const SQLITE_ADAPTER = Symbol('scheduler.sqliteAdapter');

/**
 * The adapter (where the open connection is kept) of a SQLite client made by `createDb`, or of a
 * transaction client of one (it forwards the client's properties); undefined for any other client.
 */
function sqliteAdapterOf(db: Tx): PrismaBetterSQLite3Immediate | undefined {
  return (db as unknown as Record<symbol, PrismaBetterSQLite3Immediate | undefined>)[SQLITE_ADAPTER];
}
const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * SQLite only: run one statement of lib/db/sql directly on the better-sqlite3 connection that `tx`
 * runs on, with the statement prepared once per connection; null on PostgreSQL (and before the
 * client's first query). For the fire path's hot statements, whose parameters are large JSON
 * documents: Prisma's raw-query path costs about 60 ns per parameter byte and maps every result row,
 * which was half of a batch's time. Same connection, so inside `inTransaction` the statement is part
 * of the open `BEGIN IMMEDIATE` transaction (this process holds the write lock; nothing interleaves,
 * better-sqlite3 being synchronous). Null for any client but the one `inTransaction` handed to its
 * callback. Errors are better-sqlite3's (they roll the caller's transaction back like Prisma's).
 */
export function sqliteConnection(tx: Tx): { all: (sql: string, ...params: unknown[]) => Record<string, unknown>[]; run: (sql: string, ...params: unknown[]) => number } | null {
  // Only the transaction client `inTransaction` is running: never the base client, outside a transaction.
  if (transactions.getStore()?.tx !== tx) return null;
  const connection = sqliteAdapterOf(tx)?.connection?.client;
  if (!connection) return null;
  let cache = statements.get(connection);
  if (!cache) statements.set(connection, (cache = new Map()));
  const prepared = (sql: string) => {
    let st = cache.get(sql);
    if (!st) cache.set(sql, (st = connection.prepare(sql)));
    return st;
  };
  return {
    all: (sql, ...params) => prepared(sql).all(...params) as Record<string, unknown>[],
    run: (sql, ...params) => prepared(sql).run(...params).changes,
  };
}

/**
 * PostgreSQL: the adapter, with each transaction's pool connection made known to `postgresConnection`.
 * `@prisma/adapter-pg` (6.19) opens a transaction on a connection it takes from its pool and keeps in
 * the transaction's `client`; `inTransaction` runs inside an AsyncLocalStorage holder, so the
 * adapter's `startTransaction` (called in that async context) records the connection there.
 */
class PrismaPgWithConnection extends PrismaPg {
  override async connect() {
    const adapter = await super.connect();
    const original = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      const tx = await original(isolationLevel);
      const holder = transactions.getStore();
      const conn = (tx as unknown as { client?: pg.PoolClient }).client;
      if (holder && !holder.conn && conn && typeof conn.query === 'function') holder.conn = conn;
      return tx;
    };
    return adapter;
  }
}

/** The transaction `inTransaction` is running in this async context: its client, and (PostgreSQL) its connection. */
const transactions = new AsyncLocalStorage<{ tx: Tx | null; conn: pg.PoolClient | null }>();

/** Stored instants are UTC `timestamp(3)`: read them as UTC (node-postgres would read local time). */
const UTC_TIMESTAMP_OID = 1114;
const pgTypes = {
  getTypeParser: (oid: number, format?: string) =>
    oid === UTC_TIMESTAMP_OID ? (v: string) => new Date(`${v.replace(' ', 'T')}Z`) : pg.types.getTypeParser(oid, format as 'text'),
};

/**
 * PostgreSQL only: run one statement of lib/db/sql directly on the pool connection of the
 * transaction `tx` (the one `inTransaction` handed to its callback), or null when `tx` is not that
 * (another client, SQLite, or a transaction not opened by `inTransaction`). Same reason as
 * `sqliteConnection`: Prisma's raw-query path costs more per parameter byte and per result row than
 * the statement itself for the fire path's JSON batch documents. Rows are objects keyed by column;
 * `timestamp` values are Dates (UTC), `jsonb` parsed, `bigint` strings. The connection is the
 * transaction's, so the statement is part of it; the caller awaits each statement before the next
 * (one statement at a time on a connection).
 */
export function postgresConnection(tx: Tx): { query: (sql: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[]; rowCount: number }> } | null {
  const holder = transactions.getStore();
  if (!holder || holder.tx !== tx || !holder.conn) return null;
  const conn = holder.conn;
  return {
    query: async (sql, params) => {
      const r = await conn.query({ text: sql, values: params, types: pgTypes });
      return { rows: r.rows as Record<string, unknown>[], rowCount: r.rowCount ?? 0 };
    },
  };
}

/**
 * Run `fn` on `db`'s own better-sqlite3 connection, for the few statements Prisma cannot run as
 * SQLite means them (`PRAGMA incremental_vacuum(N)` frees one page per step, and Prisma steps a
 * statement without result rows once). It waits its turn in the process's transaction queue, so no
 * transaction of this process is open on the connection while `fn` runs; `fn` is synchronous, so
 * nothing else runs on it either. `fn` manages its own transaction (or runs in autocommit).
 * @throws when `db` is not a SQLite client made by `createDb`.
 */
export async function withSqliteConnection<T>(db: Db, fn: (connection: Database.Database) => T): Promise<T> {
  const adapter = sqliteAdapterOf(db);
  if (!adapter) throw new Error('withSqliteConnection: not a SQLite client made by createDb');
  // Prisma connects on first use, and again after `$disconnect`: make sure a connection is open.
  if (!adapter.connection?.client.open) await db.$connect();
  const { client, queue } = adapter.connection!;
  const release = await queue.acquire();
  try {
    return fn(client);
  } finally {
    release();
  }
}

function createPostgresDb(databaseUrl: string, poolSize: number): Db {
  const adapter = new PrismaPgWithConnection({
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
 * Inside a transaction of `db` (call it from the `inTransaction` callback, with that callback's `tx`):
 * its commit skips work that can wait, for idempotent work only (the retention sweep's deletes,
 * docs/decisions.md 117). SQLite: the COMMIT does not run the WAL auto-checkpoint (which copies the
 * WAL into the file and syncs it, after the write lock is released but inside the COMMIT call); the
 * caller checkpoints afterwards (`PRAGMA wal_checkpoint(PASSIVE)`). PostgreSQL: `SET LOCAL
 * synchronous_commit = off`, the commit does not wait for its WAL to reach the disk (a crash may
 * lose the commit, never corrupt the database).
 */
export async function deferCommitWork(db: Db, tx: Tx): Promise<void> {
  if (dialectOfDb(tx) === 'postgresql') {
    await tx.$executeRawUnsafe('SET LOCAL synchronous_commit = off');
    return;
  }
  const connection = sqliteAdapterOf(db)?.connection;
  if (!connection?.client.inTransaction) throw new Error('deferCommitWork: call it inside a transaction of this client');
  connection.deferCheckpoint = true;
}

/**
 * Run `fn` in one interactive transaction and return its result; any throw rolls everything back.
 * The one way a domain verb opens a transaction (docs/architecture.md, "Transactions"): every public
 * verb that writes calls it itself, so callers (server actions, the API, the worker) never do. On
 * SQLite this is also what keeps decision 13 true: a write outside a transaction could land inside
 * another request's open transaction on the shared connection and roll back with it. On SQLite the
 * transaction is the one `PrismaBetterSQLite3Immediate` runs (above): `BEGIN IMMEDIATE`, and the
 * process's transaction lock released however COMMIT or ROLLBACK ended (a full disk included).
 * `options` are Prisma's `maxWait`/`timeout` bounds in ms (the fire path sets its own).
 */
export function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>, options?: { maxWait?: number; timeout?: number }): Promise<T> {
  const holder: { tx: Tx | null; conn: pg.PoolClient | null } = { tx: null, conn: null };
  return transactions.run(holder, () =>
    db.$transaction((tx) => {
      holder.tx = tx;
      return fn(tx);
    }, options),
  );
}

/** Close the process-wide client (worker shutdown, tests). */
export async function closeDb(): Promise<void> {
  const db = globalForDb.__schedulerDb;
  globalForDb.__schedulerDb = undefined;
  if (db) await db.$disconnect();
}
