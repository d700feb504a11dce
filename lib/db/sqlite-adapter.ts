/**
 * The product's Prisma driver adapter for SQLite over better-sqlite3: Prisma's public driver-adapter
 * interface (`SqlDriverAdapterFactory` / `SqlDriverAdapter` / `Transaction` of
 * `@prisma/driver-adapter-utils`), implemented here so that the product owns the connection and its
 * transactions instead of patching `@prisma/adapter-better-sqlite3`, which keeps both private:
 *
 * 1. **`BEGIN IMMEDIATE`.** The official adapter opens every transaction with a plain (deferred)
 *    `BEGIN`: a transaction that reads first and writes later can then fail with SQLITE_BUSY when
 *    another process wrote in between (the busy timeout does not help a deferred reader that must
 *    upgrade). The worker's claim reads the due schedules and then writes them, so its transaction
 *    must hold the write lock from its first statement (SQLite's equivalent of PostgreSQL's
 *    `FOR UPDATE`, at database granularity; other processes' transactions wait in the busy timeout,
 *    readers are not blocked under WAL). Pinned by lib/db/__tests__/begin-immediate.int.test.ts.
 * 2. **The transaction lock is always released.** Transactions of this process take turns on its one
 *    connection (`TransactionQueue`). The official adapter releases its lock only in `commit()` /
 *    `rollback()`, which Prisma calls after its own `COMMIT` / `ROLLBACK` statement succeeded; on a
 *    full disk SQLite fails a write with SQLITE_FULL and may roll the transaction back by itself,
 *    Prisma's `ROLLBACK` then fails ("no transaction is active") and every later transaction of the
 *    process would wait forever. Here a transaction says `usePhantomQuery: true` (Prisma calls
 *    `commit()` / `rollback()` without statements of its own), both run the statement themselves and
 *    release the turn in `finally`; a failed COMMIT rolls back what is left, so the connection is never
 *    left inside a transaction. Pinned by app/api/__tests__/storage-full.int.test.ts.
 * 3. **The connection is the product's** (`SqliteAdapterFactory.connection`): `withSqliteConnection`
 *    runs pragmas Prisma cannot run as SQLite means them, `sqliteConnection` runs the fire path's hot
 *    statements inside the open transaction (lib/db/client.ts), and a transaction can commit without
 *    the WAL auto-checkpoint (`deferCheckpoint`, `deferCommitWork`).
 *
 * Values cross the interface exactly as `@prisma/adapter-better-sqlite3` 6.19.3 converts them (its
 * `conversion.ts` and `errors.ts`, Apache-2.0, ported below): the query compiler of `@prisma/client`
 * expects those shapes. lib/db/__tests__/sqlite-adapter.int.test.ts runs both adapters on the same
 * file and fails, naming the query and both results, when an upgrade makes them differ.
 */
import {
  ColumnTypeEnum,
  DriverAdapterError,
  type ArgType,
  type ColumnType,
  type Error as DriverError,
  type IsolationLevel,
  type SqlDriverAdapter,
  type SqlDriverAdapterFactory,
  type SqlQuery,
  type SqlQueryable,
  type SqlResultSet,
  type Transaction,
  type TransactionOptions,
} from '@prisma/driver-adapter-utils';
import Database from 'better-sqlite3';
import { accessSync, constants as fsConstants } from 'node:fs';

const ADAPTER_NAME = 'scheduler-better-sqlite3';

/** The open connection of a `SqliteAdapterFactory`, its transaction queue, and the open transaction's COMMIT mode. */
export interface SqliteConnection {
  client: Database.Database;
  queue: TransactionQueue;
  /** The open transaction's COMMIT skips the WAL auto-checkpoint (`deferCommitWork`); reset by COMMIT / ROLLBACK. */
  deferCheckpoint: boolean;
  /** A statement failed because the connection cannot write (SQLITE_READONLY…): see `reopenIfWritable`. */
  readOnlySeen: boolean;
  /** The database file and busy timeout (ms) the connection was opened with, to open it again. */
  file: string;
  timeout: number;
}

/**
 * The adapter factory a SQLite `PrismaClient` is made with (`new PrismaClient({ adapter })`). Prisma
 * calls `connect()` on first use and again after `$disconnect()`; `connection` is the open one (null
 * before the first).
 */
export class SqliteAdapterFactory implements SqlDriverAdapterFactory {
  readonly provider = 'sqlite';
  readonly adapterName = ADAPTER_NAME;
  connection: SqliteConnection | null = null;

  /** `file`: the database file's path; `timeout`: SQLite's busy timeout (ms), how long a writer waits for another process's lock. */
  constructor(private readonly config: { file: string; timeout: number }) {}

  connect(): Promise<SqlDriverAdapter> {
    const client = openConnection(this.config.file, this.config.timeout);
    const connection: SqliteConnection = { client, queue: new TransactionQueue(), deferCheckpoint: false, readOnlySeen: false, ...this.config };
    this.connection = connection;
    return Promise.resolve(new SqliteAdapter(connection));
  }
}

/** A better-sqlite3 connection as the adapter uses it. */
function openConnection(file: string, timeout: number): Database.Database {
  const client = new Database(file, { timeout });
  // Integers come back as BigInt (never rounded); Prisma's query compiler expects them as strings (mapRow).
  client.defaultSafeIntegers(true);
  // After a checkpoint has emptied the WAL, cut its file back to 64 MB: one large transaction (a
  // VACUUM, a bulk import) would otherwise leave a WAL file of its size behind for good.
  client.pragma('journal_size_limit = 67108864');
  return client;
}

/**
 * A connection SQLite opened while the file was read-only stays read-only (it fell back to a read-only
 * file descriptor) after the file becomes writable: the process would refuse writes until restarted.
 * So once a write failed that way, each transaction first checks whether the file can be written now
 * and, if so, swaps in a new connection (docs/decisions.md 164). Called in the queue's turn, so no
 * transaction of this process is open on the old connection; better-sqlite3 is synchronous, so no
 * statement is running on it either.
 */
function reopenIfWritable(connection: SqliteConnection): void {
  try {
    accessSync(connection.file, fsConstants.W_OK);
  } catch {
    return;
  }
  const stale = connection.client;
  connection.client = openConnection(connection.file, connection.timeout);
  connection.readOnlySeen = false;
  stale.close();
}

/** True for SQLite's "attempt to write a readonly database" family (SQLITE_READONLY, SQLITE_READONLY_*). */
function isReadOnlyError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_READONLY');
}

/** Prisma's queries on a connection: SQL with positional `?` parameters, results as typed rows. */
class SqliteQueryable implements SqlQueryable {
  readonly provider = 'sqlite';
  readonly adapterName = ADAPTER_NAME;

  constructor(protected readonly connection: SqliteConnection) {}

  /** The connection's current better-sqlite3 handle (`reopenIfWritable` may have replaced it). */
  protected get client(): Database.Database {
    return this.connection.client;
  }

  /** A driver error in Prisma's terms, noting on the connection that it cannot write. */
  protected fail(e: unknown): unknown {
    if (isReadOnlyError(e)) this.connection.readOnlySeen = true;
    return driverError(e);
  }

  async queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    try {
      const stmt = this.client.prepare(query.sql).bind(mapArgs(query));
      if (!stmt.reader) {
        stmt.run();
        return { columnNames: [], columnTypes: [], rows: [] };
      }
      const columns = stmt.columns();
      const rows = stmt.raw().all() as unknown[][];
      const columnTypes = getColumnTypes(
        columns.map((c) => c.type),
        rows,
      );
      return { columnNames: columns.map((c) => c.name), columnTypes, rows: rows.map((row) => mapRow(row, columnTypes)) };
    } catch (e) {
      throw this.fail(e);
    }
  }

  async executeRaw(query: SqlQuery): Promise<number> {
    try {
      return this.client.prepare(query.sql).bind(mapArgs(query)).run().changes;
    } catch (e) {
      throw this.fail(e);
    }
  }
}

class SqliteAdapter extends SqliteQueryable implements SqlDriverAdapter {
  constructor(connection: SqliteConnection) {
    super(connection);
  }

  async executeScript(script: string): Promise<void> {
    try {
      this.client.exec(script);
    } catch (e) {
      throw this.fail(e);
    }
  }

  /** Wait for this process's turn on the connection, then `BEGIN IMMEDIATE` (point 1 above). */
  async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
    // Only SERIALIZABLE exists on SQLite.
    if (isolationLevel && isolationLevel !== 'SERIALIZABLE') throw new DriverAdapterError({ kind: 'InvalidIsolationLevel', level: isolationLevel });
    const release = await this.connection.queue.acquire();
    if (this.connection.readOnlySeen) reopenIfWritable(this.connection);
    try {
      this.client.prepare('BEGIN IMMEDIATE').run();
    } catch (e) {
      // A BEGIN that failed (SQLITE_BUSY after the timeout) holds nothing: the next transaction may go.
      release();
      throw this.fail(e);
    }
    return new SqliteTransaction(this.connection, release);
  }

  async dispose(): Promise<void> {
    this.client.close();
  }
}

/** One open transaction; `commit` / `rollback` end it and always give the connection's turn back (point 2 above). */
class SqliteTransaction extends SqliteQueryable implements Transaction {
  readonly options: TransactionOptions = { usePhantomQuery: true };

  constructor(
    connection: SqliteConnection,
    private readonly release: () => void,
  ) {
    super(connection);
  }

  async commit(): Promise<void> {
    const { client } = this;
    // A transaction that asked (deferCommitWork) commits without the auto-checkpoint: the
    // connection's setting is put back before the next transaction can start (its turn is still ours).
    const restore = this.connection.deferCheckpoint ? client.pragma('wal_autocheckpoint', { simple: true }) : null;
    this.connection.deferCheckpoint = false;
    if (restore !== null) client.pragma('wal_autocheckpoint = 0');
    try {
      client.prepare('COMMIT').run();
    } catch (e) {
      // A failed COMMIT (SQLITE_FULL, SQLITE_IOERR…) may leave the transaction open: end it.
      rollbackQuietly(client);
      throw this.fail(e);
    } finally {
      if (restore !== null) client.pragma(`wal_autocheckpoint = ${Number(restore)}`);
      this.release();
    }
  }

  async rollback(): Promise<void> {
    this.connection.deferCheckpoint = false;
    try {
      // SQLite may already have rolled back by itself (SQLITE_FULL): nothing is left to undo.
      if (this.client.inTransaction) this.client.prepare('ROLLBACK').run();
    } catch (e) {
      throw this.fail(e);
    } finally {
      this.release();
    }
  }
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
export class TransactionQueue {
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

// ---- Values across the interface: ported from @prisma/adapter-better-sqlite3 6.19.3 (conversion.ts, errors.ts).

function mapArgs(query: SqlQuery): unknown[] {
  return query.args.map((arg, i) => mapArg(arg, query.argTypes[i]));
}

/** A parameter as better-sqlite3 binds it (DateTime as ISO 8601 with `+00:00`, the adapter's default `timestampFormat`). */
function mapArg(arg: unknown, argType: ArgType): unknown {
  if (arg === null) return null;
  if (typeof arg === 'string' && argType.scalarType === 'int') return Number.parseInt(arg);
  if (typeof arg === 'string' && argType.scalarType === 'float') return Number.parseFloat(arg);
  if (typeof arg === 'string' && argType.scalarType === 'decimal') return Number.parseFloat(arg);
  if (typeof arg === 'string' && argType.scalarType === 'bigint') return BigInt(arg);
  if (typeof arg === 'boolean') return arg ? 1 : 0;
  if (typeof arg === 'string' && argType.scalarType === 'datetime') arg = new Date(arg);
  if (arg instanceof Date) return arg.toISOString().replace('Z', '+00:00');
  if (typeof arg === 'string' && argType.scalarType === 'bytes') return Buffer.from(arg, 'base64');
  if (Array.isArray(arg) && argType.scalarType === 'bytes') return Buffer.from(arg);
  return arg;
}

/** Column types by declared type (upper case); any other declared type, or none, is inferred from the values. */
const DECLARED_TYPES = new Map<string, ColumnType>([
  ['DECIMAL', ColumnTypeEnum.Numeric],
  ['FLOAT', ColumnTypeEnum.Float],
  ...['DOUBLE', 'DOUBLE PRECISION', 'NUMERIC', 'REAL'].map((t) => [t, ColumnTypeEnum.Double] as const),
  ...['TINYINT', 'SMALLINT', 'MEDIUMINT', 'INT', 'INTEGER', 'SERIAL', 'INT2'].map((t) => [t, ColumnTypeEnum.Int32] as const),
  ...['BIGINT', 'UNSIGNED BIG INT', 'INT8'].map((t) => [t, ColumnTypeEnum.Int64] as const),
  ...['DATETIME', 'TIMESTAMP'].map((t) => [t, ColumnTypeEnum.DateTime] as const),
  ['TIME', ColumnTypeEnum.Time],
  ['DATE', ColumnTypeEnum.Date],
  ...['TEXT', 'CLOB', 'CHARACTER', 'VARCHAR', 'VARYING CHARACTER', 'NCHAR', 'NATIVE CHARACTER', 'NVARCHAR'].map((t) => [t, ColumnTypeEnum.Text] as const),
  ['BLOB', ColumnTypeEnum.Bytes],
  ['BOOLEAN', ColumnTypeEnum.Boolean],
  ['JSONB', ColumnTypeEnum.Json],
]);

/** Declared types, and for a column without one the type of its first non-null value (Int32 when all are null). */
function getColumnTypes(declaredTypes: (string | null)[], rows: unknown[][]): ColumnType[] {
  return declaredTypes.map((declared, column) => {
    const mapped = declared === null ? undefined : DECLARED_TYPES.get(declared.toUpperCase());
    if (mapped !== undefined) return mapped;
    const value = rows.find((row) => row[column] !== null)?.[column];
    return value === undefined ? ColumnTypeEnum.Int32 : inferColumnType(value);
  });
}

function inferColumnType(value: unknown): ColumnType {
  switch (typeof value) {
    case 'string':
      return ColumnTypeEnum.Text;
    case 'bigint':
      return ColumnTypeEnum.Int64;
    case 'boolean':
      return ColumnTypeEnum.Boolean;
    case 'number':
      return ColumnTypeEnum.UnknownNumber;
    case 'object':
      if (value instanceof ArrayBuffer) return ColumnTypeEnum.Bytes;
  }
  throw new UnexpectedTypeError(value);
}

class UnexpectedTypeError extends Error {
  override name = 'UnexpectedTypeError';
  constructor(value: unknown) {
    super(`unexpected value of type ${typeof value}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
  }
}

function mapRow(row: unknown[], columnTypes: ColumnType[]): unknown[] {
  const result: unknown[] = [];
  for (let i = 0; i < row.length; i++) {
    const value = row[i];
    const type = columnTypes[i];
    if (value instanceof ArrayBuffer || value instanceof Buffer) result[i] = Array.from(new Uint8Array(value));
    else if (typeof value === 'number' && (type === ColumnTypeEnum.Int32 || type === ColumnTypeEnum.Int64) && !Number.isInteger(value)) result[i] = Math.trunc(value);
    else if ((typeof value === 'number' || typeof value === 'bigint') && type === ColumnTypeEnum.DateTime) result[i] = new Date(Number(value)).toISOString();
    else if (typeof value === 'bigint') result[i] = value.toString();
    else result[i] = value;
  }
  return result;
}

/**
 * A better-sqlite3 error as Prisma expects it: a `DriverAdapterError` for the codes Prisma maps to its
 * own errors (P2002 unique, P2011 not null, P2003 foreign key, missing table or column, SQLITE_BUSY as
 * a timeout); any other error (SQLITE_FULL included) unchanged, which Prisma rethrows as it is.
 */
function driverError(error: unknown): unknown {
  const e = error as { code?: unknown; message?: unknown };
  if (typeof e?.code !== 'string' || typeof e.message !== 'string') return error;
  const mapped = mapDriverError(e.code, e.message);
  return mapped ? new DriverAdapterError({ originalCode: e.code, originalMessage: e.message, ...mapped }) : error;
}

function mapDriverError(code: string, message: string): DriverError | null {
  const fields = () => message.split('constraint failed: ').at(1)?.split(', ').map((field) => field.split('.').pop()!);
  switch (code) {
    case 'SQLITE_BUSY':
      return { kind: 'SocketTimeout' };
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY': {
      const f = fields();
      return { kind: 'UniqueConstraintViolation', constraint: f !== undefined ? { fields: f } : undefined };
    }
    case 'SQLITE_CONSTRAINT_NOTNULL': {
      const f = fields();
      return { kind: 'NullConstraintViolation', constraint: f !== undefined ? { fields: f } : undefined };
    }
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
    case 'SQLITE_CONSTRAINT_TRIGGER':
      return { kind: 'ForeignKeyConstraintViolation', constraint: { foreignKey: {} } };
  }
  if (message.startsWith('no such table')) return { kind: 'TableDoesNotExist', table: message.split(': ').at(1) };
  if (message.startsWith('no such column')) return { kind: 'ColumnNotFound', column: message.split(': ').at(1) };
  if (message.includes('has no column named ')) return { kind: 'ColumnNotFound', column: message.split('has no column named ').at(1) };
  return null;
}
