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
 *
 * Both clients run on the product's driver adapters, through Prisma's public driver-adapter
 * interface: lib/db/sqlite-adapter.ts (the product's own over better-sqlite3: `BEGIN IMMEDIATE`, the
 * transaction lock always released, the connection for `withSqliteConnection` and the fire path) and
 * lib/db/postgres-adapter.ts (`@prisma/adapter-pg` on a pool that tells which connection a
 * transaction runs on). The one Prisma internal still read is in lib/db/prisma-internals.ts.
 */
import Database from 'better-sqlite3';
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { DEFAULT_POSTGRES_TIMEOUTS } from '../config';
import { dialectOf, type Dialect } from './dialect';
import { ensurePrivateFile } from './private-file';
import { PrismaClient as PostgresPrismaClient } from './generated/postgresql/client';
import { PrismaClient } from './generated/sqlite/client';
import { queryInTransaction, queryOnPool } from './pg-prepared';
import { PostgresAdapterFactory } from './postgres-adapter';
import { dialectOfTransactionClient } from './prisma-internals';
import { SqliteAdapterFactory } from './sqlite-adapter';

export type Db = PrismaClient;
/** The client inside `db.$transaction(async (tx) => …)`. */
export type Tx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

const globalForDb = globalThis as unknown as { __schedulerDb?: PrismaClient };

/** What `createDb` knows of a client it made: its dialect and, on SQLite, its adapter (where the open connection is kept). */
interface ClientFacts {
  dialect: Dialect;
  sqlite: SqliteAdapterFactory | null;
  /** PostgreSQL: the adapter factory, whose `pool` `directReader` reads on. */
  postgres?: PostgresAdapterFactory | null;
  /** PostgreSQL: the driver paths send lib/db/sql's statements prepared (pg-prepared.ts, decision 429). False on SQLite. */
  prepared: boolean;
}
const clients = new WeakMap<object, ClientFacts>();

/** The transaction `inTransaction` is running in this async context: its client, and (PostgreSQL) its connection. */
interface OpenTransaction {
  tx: Tx | null;
  facts: ClientFacts;
  conn: pg.PoolClient | null;
}
const transactions = new AsyncLocalStorage<OpenTransaction>();

/** The facts of a client made by `createDb` (any other client: its dialect as Prisma reports it, no adapter). */
function factsOf(db: Tx): ClientFacts {
  return clients.get(db) ?? { dialect: dialectOfTransactionClient(db), sqlite: null, prepared: false };
}

/**
 * The dialect of a client made by `createDb`, of the transaction client `inTransaction` handed out, or
 * of a transaction client of `db.$transaction` called directly (tests, benches: lib/db/prisma-internals.ts).
 */
export function dialectOfDb(db: Tx): Dialect {
  const open = transactions.getStore();
  if (open && open.tx === db) return open.facts.dialect;
  return factsOf(db).dialect;
}

/** How to open a client: the two fields of `AppConfig` (lib/config) it needs, parsed at the edge. */
export interface DbConfig {
  /** `file:<path>` (SQLite) or `postgresql://…`. */
  databaseUrl: string;
  /** Most PostgreSQL connections the client opens (node-postgres pool `max`). Ignored for SQLite. */
  databasePoolSize: number;
  /** PostgreSQL: send lib/db/sql's driver statements as prepared statements (lib/db/pg-prepared.ts). Ignored for SQLite. */
  databasePreparedStatements?: boolean;
  /** PostgreSQL: ms to wait for a connection (a new one, or a free one of the pool), see `PostgresTimeouts`. Ignored for SQLite. */
  databaseConnectTimeoutMs?: number;
  /** PostgreSQL: ms to wait for a statement's answer, 0 for no limit, see `PostgresTimeouts`. Ignored for SQLite. */
  databaseQueryTimeoutMs?: number;
}

/** PostgreSQL pool size when a caller (tests, tools) does not say: node-postgres' own default. */
const DEFAULT_POOL_SIZE = 10;

/**
 * How long a PostgreSQL client waits before it gives up on the database (docs/decisions.md 432). A
 * database that stops answering without closing the connection (a network partition, a failover to
 * another address, a firewall or NAT that forgot the connection) raises no error by itself: without
 * these bounds every request and the worker's fire loop waited for it forever.
 * - `connectMs`: for a connection, new or a free one of the full pool; then `database_unavailable`
 *   (lib/errors), the request did not run. Default 10 s (DATABASE_CONNECT_TIMEOUT_MS).
 * - `queryMs`: for one statement's answer; then `database_connection_lost`, and the connection is
 *   dropped (a transaction's at once, `dropConnection` in lib/db/postgres-adapter.ts), so PostgreSQL
 *   rolls back whatever it had not committed. 0: no limit. Default 60 s (DATABASE_QUERY_TIMEOUT_MS):
 *   longer than any statement the product runs on a healthy database (the fire path's whole
 *   transaction is bounded at 120 s), shorter than TCP's own give-up (~15 min).
 * TCP keep-alive probes (after 10 s idle) also find a dead peer on an idle pooled connection.
 */
export interface PostgresTimeouts {
  connectMs: number;
  queryMs: number;
}

/**
 * Open a client for `databaseUrl` (`file:<path>` or `postgresql://…`). Callers own its lifetime.
 * PostgreSQL only, SQLite ignores them: `poolSize` bounds the client's connections (default 10);
 * `preparedStatements` (default true) sends lib/db/sql's driver statements prepared (lib/db/pg-prepared.ts);
 * `connectTimeoutMs` / `queryTimeoutMs` bound the waits for the database (`PostgresTimeouts`).
 */
export function createDb(databaseUrl: string, opts: { poolSize?: number; preparedStatements?: boolean; connectTimeoutMs?: number; queryTimeoutMs?: number } = {}): Db {
  const timeouts: PostgresTimeouts = {
    connectMs: opts.connectTimeoutMs ?? DEFAULT_POSTGRES_TIMEOUTS.connectMs,
    queryMs: opts.queryTimeoutMs ?? DEFAULT_POSTGRES_TIMEOUTS.queryMs,
  };
  return dialectOf(databaseUrl) === 'postgresql'
    ? createPostgresDb(databaseUrl, opts.poolSize ?? DEFAULT_POOL_SIZE, opts.preparedStatements ?? true, timeouts)
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
  // The adapter runs every transaction as `BEGIN IMMEDIATE` and always releases the process's
  // transaction lock (lib/db/sqlite-adapter.ts).
  const adapter = new SqliteAdapterFactory({ file, timeout: 15_000 });
  const db = new PrismaClient({ adapter });
  clients.set(db, { dialect: 'sqlite', sqlite: adapter, prepared: false });
  return db;
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
export function sqliteConnection(tx: Tx): {
  all: (sql: string, ...params: unknown[]) => Record<string, unknown>[];
  /** `all`'s rows as arrays of values in column order (better-sqlite3's raw mode). */
  values: (sql: string, ...params: unknown[]) => unknown[][];
  run: (sql: string, ...params: unknown[]) => number;
} | null {
  // Only the transaction client `inTransaction` is running: never the base client, outside a transaction.
  const open = transactions.getStore();
  if (!open || open.tx !== tx) return null;
  const connection = open.facts.sqlite?.connection?.client;
  if (!connection) return null;
  let cache = statements.get(connection);
  if (!cache) statements.set(connection, (cache = new Map()));
  const prepared = (sql: string, raw = false) => {
    // A raw-mode statement is its own prepared statement (raw() switches the statement's mode).
    const key = raw ? `\u0000raw\u0000${sql}` : sql;
    let st = cache.get(key);
    if (!st) cache.set(key, (st = raw ? connection.prepare(sql).raw(true) : connection.prepare(sql)));
    return st;
  };
  return {
    all: (sql, ...params) => prepared(sql).all(...params) as Record<string, unknown>[],
    values: (sql, ...params) => prepared(sql, true).all(...params) as unknown[][],
    run: (sql, ...params) => prepared(sql).run(...params).changes,
  };
}

/**
 * A read of lib/db/sql directly on the driver, for a client made by `createDb` used OUTSIDE a
 * transaction (the product API's hot reads: the API key, the revision, the schedule; docs/decisions.md
 * 385), or null (any other client, a transaction client, or before the client's first connection):
 * the caller then runs the statement through Prisma's raw queries. What it skips is Prisma's per-query
 * work (the WASM query compiler, the query interpreter, the adapter's value mapping: docs/performance.md),
 * not any isolation: it reads where Prisma's own query outside a transaction would read.
 * - SQLite: on the client's one better-sqlite3 connection, the statement prepared once per connection
 *   (as `sqliteConnection`). Like Prisma's own reads outside a transaction, it does not wait for the
 *   process's transaction queue (a read never takes the write lock). Integers come back as BigInt (the
 *   connection's `defaultSafeIntegers`), booleans as 0/1, instants and JSON as text.
 * - PostgreSQL: `pool.query` on the client's own pool (autocommit, any idle connection), with the
 *   UTC `timestamp` parser of `postgresConnection`.
 */
export function directReader(db: Tx): ((sql: { sqlite: string; postgresql: string }, params: unknown[]) => Promise<Record<string, unknown>[]>) | null {
  const facts = clients.get(db);
  if (!facts) return null;
  if (facts.dialect === 'sqlite') {
    const adapterConnection = facts.sqlite?.connection;
    if (!adapterConnection?.client.open) return null;
    const connection = adapterConnection.client;
    let cache = statements.get(connection);
    if (!cache) statements.set(connection, (cache = new Map()));
    const prepared = cache;
    return async (sql, params) => {
      let st = prepared.get(sql.sqlite);
      if (!st) prepared.set(sql.sqlite, (st = connection.prepare(sql.sqlite)));
      return st.all(...params) as Record<string, unknown>[];
    };
  }
  const pool = facts.postgres?.pool;
  if (!pool || pool.ending || pool.ended) return null;
  return async (sql, params) => (await queryOnPool(pool, { text: sql.postgresql, values: params, types: pgTypes }, facts.prepared)).rows as Record<string, unknown>[];
}

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
export function postgresConnection(tx: Tx): {
  query: (sql: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[]; rowCount: number }>;
  /** `query`'s rows as arrays of values in column order (node-postgres `rowMode: 'array'`). */
  queryValues: (sql: string, params: unknown[]) => Promise<unknown[][]>;
} | null {
  const open = transactions.getStore();
  if (!open || open.tx !== tx || !open.conn) return null;
  const conn = open.conn;
  const prepare = open.facts.prepared;
  return {
    query: async (sql, params) => {
      const r = await queryInTransaction(conn, { text: sql, values: params, types: pgTypes }, prepare);
      return { rows: r.rows as Record<string, unknown>[], rowCount: r.rowCount ?? 0 };
    },
    queryValues: async (sql, params) => (await queryInTransaction(conn, { text: sql, values: params, types: pgTypes, rowMode: 'array' }, prepare)).rows as unknown as unknown[][],
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
  const adapter = clients.get(db)?.sqlite;
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

function createPostgresDb(databaseUrl: string, poolSize: number, prepared: boolean, timeouts: PostgresTimeouts): Db {
  const adapter = new PostgresAdapterFactory(
    {
      connectionString: databaseUrl,
      // Prisma stores DateTime as `timestamp(3)` (no zone) holding UTC; raw SQL compares those columns
      // with bound instants, so the session zone must be UTC whatever the server's default is.
      options: '-c TimeZone=UTC',
      max: poolSize,
      // PostgresTimeouts: no wait for the database is unbounded.
      connectionTimeoutMillis: timeouts.connectMs,
      query_timeout: timeouts.queryMs || undefined,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    },
    // Called in the async context of a transaction's start. Kept only for the transaction
    // `inTransaction` opens, which starts before its callback runs (`tx` still null): a transaction a
    // base-client write starts inside the callback (Prisma's own, for a nested write) is another one.
    (conn) => {
      const open = transactions.getStore();
      if (open && open.tx === null && !open.conn) open.conn = conn;
    },
  );
  // Same model API as the SQLite client (one data model, see scripts/generate.ts); typed as `Db`.
  const db = new PostgresPrismaClient({ adapter }) as unknown as Db;
  clients.set(db, { dialect: 'postgresql', sqlite: null, postgres: adapter, prepared });
  return db;
}

/**
 * The process-wide client for `config` (the edge passes `loadConfig()`): opened on the first call,
 * the same client afterwards (a process talks to one database).
 */
export function getDb(config: DbConfig): Db {
  globalForDb.__schedulerDb ??= createDb(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    preparedStatements: config.databasePreparedStatements,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    queryTimeoutMs: config.databaseQueryTimeoutMs,
  });
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
  const connection = clients.get(db)?.sqlite?.connection;
  if (!connection?.client.inTransaction) throw new Error('deferCommitWork: call it inside a transaction of this client');
  connection.deferCheckpoint = true;
}

/**
 * Run `fn` in one interactive transaction and return its result; any throw rolls everything back.
 * The one way a domain verb opens a transaction (docs/architecture.md, "Transactions"): every public
 * verb that writes calls it itself, so callers (server actions, the API, the worker) never do. On
 * SQLite this is also what keeps decision 13 true: a write outside a transaction could land inside
 * another request's open transaction on the shared connection and roll back with it. On SQLite the
 * transaction is the one lib/db/sqlite-adapter.ts runs: `BEGIN IMMEDIATE`, and the process's
 * transaction lock released however COMMIT or ROLLBACK ended (a full disk included).
 * `options` are Prisma's `maxWait`/`timeout` bounds in ms (the fire path sets its own).
 */
export function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>, options?: { maxWait?: number; timeout?: number }): Promise<T> {
  const open: OpenTransaction = { tx: null, facts: factsOf(db), conn: null };
  return transactions.run(open, () =>
    db.$transaction((tx) => {
      open.tx = tx;
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
