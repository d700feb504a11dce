/**
 * PostgreSQL prepared statements for the statements of lib/db/sql that run on node-postgres directly
 * (the fire path's statements on a transaction's connection, the API's hot reads on the pool:
 * lib/db/client.ts `postgresConnection`, `directReader`; docs/decisions.md 429).
 *
 * A statement sent without a name is parsed and planned by PostgreSQL at every execution. With a
 * name, node-postgres parses it once per connection and afterwards sends only Bind/Execute, and
 * PostgreSQL reuses the parse and, once its plan cache decides so, the plan: PostgreSQL's CPU a
 * `get_schedule` fell from ~1.2–1.7 ms to ~0.35–0.45 ms, a fire's from ~215 to ~180 µs
 * (docs/performance.md).
 *
 * - One name per statement text (a hash of it), so the same text is the same prepared statement on
 *   every connection and a name never stands for two texts (node-postgres refuses that).
 * - At most `PREPARED_TEXTS_LIMIT` texts a process: a statement built with a list of values (an IN
 *   list of N ids) has one text per N, and each named text stays prepared on each connection for the
 *   connection's life. Texts beyond the limit run unnamed, as before.
 * - A prepared statement a schema change outdated (`cached plan must not change result type`, a
 *   column added to a table a `SELECT *` reads, while this process ran) or one the server no longer
 *   has (`prepared statement … does not exist`: a pooler in front of PostgreSQL that does not keep
 *   them) gets a new name, so the next execution prepares it again. Outside a transaction the
 *   statement is retried once at once; inside one the error stands (PostgreSQL has aborted the
 *   transaction) and the caller's transaction rolls back as for any failed statement.
 * - `DATABASE_PREPARED_STATEMENTS=off` (lib/config) sends every statement unnamed: for a pooler in
 *   transaction mode that cannot keep prepared statements (docs/ops.md).
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { dropConnection, isReadTimeout } from './postgres-adapter';

/** Most distinct statement texts a process names (each is prepared once per connection that runs it). */
export const PREPARED_TEXTS_LIMIT = 256;

const names = new Map<string, string>();
let renamed = 0;

/**
 * The prepared statement name for `text` (`s_` + 24 hex chars of its SHA-256, plus a suffix once
 * renamed), or undefined when `PREPARED_TEXTS_LIMIT` other texts hold names already.
 */
export function preparedName(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined) return known;
  if (names.size >= PREPARED_TEXTS_LIMIT) return undefined;
  const name = `s_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  names.set(text, name);
  return name;
}

/**
 * True for PostgreSQL's answers that a prepared statement is outdated or gone: SQLSTATE 0A000
 * `cached plan must not change result type` (a schema change since it was prepared) and 26000
 * `invalid_sql_statement_name` (the server does not have it).
 */
function isLostPreparedStatement(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown };
  return err.code === '26000' || (err.code === '0A000' && typeof err.message === 'string' && err.message.includes('cached plan must not change result type'));
}

/**
 * Run `config` on `pool` (autocommit, any idle connection), prepared under `preparedName(config.text)`
 * when `prepare` and a name is free, else unnamed. A statement PostgreSQL answers as outdated or gone
 * is renamed and retried once at once (see the header). Errors are node-postgres'.
 */
export function queryOnPool(pool: pg.Pool, config: QueryConfig, prepare: boolean): Promise<pg.QueryResult> {
  return run(pool, config, prepare, true);
}

/**
 * Run `config` on `conn`, a connection inside an open transaction, prepared as `queryOnPool` does. A
 * statement PostgreSQL answers as outdated or gone is renamed for its next execution, but not
 * retried: PostgreSQL has aborted the transaction, and the error rolls it back (see the header). A
 * statement without an answer within `query_timeout` drops the connection (`dropConnection`).
 */
export async function queryInTransaction(conn: pg.PoolClient, config: QueryConfig, prepare: boolean): Promise<pg.QueryResult> {
  try {
    return await run(conn, config, prepare, false);
  } catch (e) {
    // No answer in time: the connection is dropped now, not after its ROLLBACK waited as long again.
    if (isReadTimeout(e)) dropConnection(conn, e as Error);
    throw e;
  }
}

type QueryConfig = pg.QueryConfig & { rowMode?: 'array' };

async function run(runner: pg.Pool | pg.PoolClient, config: QueryConfig, prepare: boolean, retry: boolean): Promise<pg.QueryResult> {
  const name = prepare ? preparedName(config.text) : undefined;
  if (name === undefined) return runner.query(config);
  try {
    return await runner.query({ ...config, name });
  } catch (e) {
    if (!isLostPreparedStatement(e)) throw e;
    // A new name: node-postgres then parses the text again on every connection (the old name may
    // stay prepared on other connections until they close; it is never used again).
    const fresh = `${name.slice(0, 26)}_${++renamed}`;
    names.set(config.text, fresh);
    if (!retry) throw e;
    return runner.query({ ...config, name: fresh });
  }
}
