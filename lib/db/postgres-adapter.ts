/**
 * The product's Prisma driver adapter for PostgreSQL: `@prisma/adapter-pg` over a node-postgres pool
 * the product makes (`new PrismaPg(pool)`, the adapter's public constructor), behind a thin
 * `SqlDriverAdapter` (Prisma's public driver-adapter interface) that delegates every call and reports
 * which pool connection each transaction took (`onTransaction`). lib/db/client.ts runs the fire path's
 * hot statements on that connection (`postgresConnection`, docs/decisions.md 126).
 *
 * How the connection is known, without reading the adapter's private fields: a transaction needs one
 * connection of its own, so `startTransaction` takes it from the pool with `pool.connect()`; the pool
 * here notes a connection handed out while one of this wrapper's `startTransaction` calls is running
 * (an AsyncLocalStorage scope), and only then (a plain query's connection is not noted: node-postgres'
 * `pool.query` runs outside that scope). lib/db/__tests__/transaction-connection.int.test.ts checks
 * that the noted connection is the transaction's (same backend, sees its uncommitted rows) and fails,
 * saying so, when an upgrade changes how the adapter takes it; the product then still works, through
 * Prisma's raw queries (lib/db/sql/run-sql.ts), only slower.
 *
 * The wrapper also gives back the connection of a transaction whose COMMIT or ROLLBACK failed
 * (`PostgresTransaction`), which Prisma keeps taken for good, and drops at once one whose statement
 * got no answer in time (`dropConnection`, lib/db `PostgresTimeouts`).
 */
import { PrismaPg } from '@prisma/adapter-pg';
import type { ConnectionInfo, IsolationLevel, SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, SqlResultSet, Transaction } from '@prisma/driver-adapter-utils';
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

/** The `startTransaction` call running in this async context, and the connection its pool handed out. */
const starting = new AsyncLocalStorage<{ conn: pg.PoolClient | null }>();

/** Connections already given `ignoreConnectionError`. */
const guarded = new WeakSet<pg.PoolClient>();

/**
 * Listen to `conn`'s `error` event for as long as it lives. node-postgres emits it when PostgreSQL
 * ends the connection (`57P01` on a restart or `pg_terminate_backend`, a failover, the network) at a
 * moment no query of it is running; the pool listens only while the connection is idle, so one
 * handed out (between two statements) had no listener, and Node turns an unheard `error` event into
 * an uncaught exception: the web process printed it, and a worker would have died of it. Nothing is
 * lost by ignoring it here: the connection is unusable, its next query fails ("not queryable") and
 * reaches its caller (lib/errors `database_connection_lost`), and the pool drops it on release.
 */
function ignoreConnectionError(conn: pg.PoolClient): pg.PoolClient {
  if (!guarded.has(conn)) {
    guarded.add(conn);
    conn.on('error', () => undefined);
  }
  return conn;
}

/** Connections `dropConnection` gave back to the pool to be destroyed. */
const dropped = new WeakSet<pg.PoolClient>();

/** node-postgres' words when a statement's answer did not come within `query_timeout` (lib/db `PostgresTimeouts`). */
export function isReadTimeout(e: unknown): boolean {
  return e instanceof Error && e.message === 'Query read timeout';
}

/**
 * Give `conn`, a connection taken from the pool, back with `error`, so the pool destroys it (once:
 * later calls do nothing). For a connection whose statement got no answer in time
 * (`isReadTimeout`): node-postgres gives up on the statement but keeps waiting for its answer, so
 * every later statement of the connection (the transaction's ROLLBACK included) would queue behind
 * it and wait as long again. Destroyed, the connection's later statements fail at once ("not
 * queryable"), and PostgreSQL, when it hears of the closed connection, rolls back whatever its
 * transaction had not committed.
 */
export function dropConnection(conn: pg.PoolClient, error: Error): void {
  if (dropped.has(conn)) return;
  dropped.add(conn);
  conn.release(error);
}

/** A node-postgres pool that notes the connection it hands to a starting transaction, and listens to every connection's errors (`ignoreConnectionError`). */
class TransactionPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): Promise<pg.PoolClient> | void {
    if (callback) return super.connect((err, client, done) => callback(err, client && ignoreConnectionError(client), done));
    const start = starting.getStore();
    return super.connect().then((conn) => {
      if (start) start.conn ??= conn;
      return ignoreConnectionError(conn);
    });
  }
}

/**
 * The adapter factory a PostgreSQL `PrismaClient` is made with. Each `connect()` (Prisma's first use,
 * and again after `$disconnect()`) opens a new pool with `config`, ended by the adapter's `dispose()`.
 * `onTransaction` is called, in the async context of Prisma's `startTransaction`, with the pool
 * connection the new transaction runs on (after its `BEGIN`).
 */
export class PostgresAdapterFactory implements SqlDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName = 'scheduler-pg';
  /**
   * The pool of the last `connect()` (null before the first): lib/db/client.ts runs the API's hot
   * reads on it directly (`poolReader`), in autocommit like Prisma's own queries outside a transaction.
   * Ended (`pool.ended`) after `$disconnect()` until Prisma connects again.
   */
  pool: pg.Pool | null = null;

  constructor(
    private readonly config: pg.PoolConfig,
    private readonly onTransaction: (conn: pg.PoolClient) => void,
  ) {}

  async connect(): Promise<SqlDriverAdapter> {
    const pool = new TransactionPool(this.config);
    this.pool = pool;
    const adapter = await new PrismaPg(pool, { disposeExternalPool: true }).connect();
    return new PostgresAdapter(adapter, this.onTransaction);
  }
}

/** `@prisma/adapter-pg`'s adapter, unchanged but for the connection `startTransaction` reports. */
class PostgresAdapter implements SqlDriverAdapter {
  readonly provider = 'postgres';
  readonly adapterName = 'scheduler-pg';

  constructor(
    private readonly inner: SqlDriverAdapter,
    private readonly onTransaction: (conn: pg.PoolClient) => void,
  ) {}

  queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    return this.inner.queryRaw(query);
  }

  executeRaw(query: SqlQuery): Promise<number> {
    return this.inner.executeRaw(query);
  }

  executeScript(script: string): Promise<void> {
    return this.inner.executeScript(script);
  }

  async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
    const start = { conn: null as pg.PoolClient | null };
    const tx = await starting.run(start, () => this.inner.startTransaction(isolationLevel));
    if (start.conn) this.onTransaction(start.conn);
    return new PostgresTransaction(tx, start.conn);
  }

  getConnectionInfo(): ConnectionInfo {
    return this.inner.getConnectionInfo?.() ?? { supportsRelationJoins: false };
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}

/** The statements Prisma ends a transaction with (its COMMIT_QUERY / ROLLBACK_QUERY), then calls `commit()` / `rollback()`. */
const CLOSING_STATEMENT = /^\s*(COMMIT|ROLLBACK)\s*;?\s*$/i;

/**
 * A transaction of `@prisma/adapter-pg`, unchanged but for how it ends when its COMMIT or ROLLBACK
 * statement fails. Prisma sends that statement, then calls `commit()` / `rollback()`, which give the
 * connection back to the pool; when the statement throws (the connection was cut: a PostgreSQL
 * restart or failover, the network), Prisma calls neither, and the connection stays taken for the life
 * of the process. After DATABASE_POOL_SIZE such cuts every transaction waited forever for a connection
 * (lib/db/__tests__/connection-cut.int.test.ts). Here the failed closing statement releases the
 * connection with its error, and pg-pool destroys a connection released so: the next transaction
 * opens a new one. Nothing is retried: the failure still reaches the caller (lib/errors
 * `database_connection_lost`).
 */
class PostgresTransaction implements Transaction {
  constructor(
    private readonly inner: Transaction,
    /** The connection the transaction runs on, as `TransactionPool` noted it (null: not noted). */
    private readonly conn: pg.PoolClient | null,
  ) {}

  get provider() {
    return this.inner.provider;
  }

  get adapterName() {
    return this.inner.adapterName;
  }

  get options() {
    return this.inner.options;
  }

  async queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    try {
      return await this.inner.queryRaw(query);
    } catch (e) {
      if (isReadTimeout(e)) this.discard(e);
      throw e;
    }
  }

  async executeRaw(query: SqlQuery): Promise<number> {
    try {
      return await this.inner.executeRaw(query);
    } catch (e) {
      // Prisma will not call commit() / rollback() after a failed closing statement: the connection
      // is given back here, once. One that timed out is dropped at once (`dropConnection`).
      if (CLOSING_STATEMENT.test(query.sql) || isReadTimeout(e)) this.discard(e);
      throw e;
    }
  }

  commit(): Promise<void> {
    return this.inner.commit();
  }

  rollback(): Promise<void> {
    return this.inner.rollback();
  }

  /** Release the connection so the pool destroys it (`dropConnection`: once); without a noted connection, the adapter's own release (pg-pool drops a closed one). */
  private discard(e: unknown): void {
    if (this.conn) dropConnection(this.conn, e instanceof Error ? e : new Error(String(e)));
    else void this.inner.rollback().catch(() => undefined);
  }
}
