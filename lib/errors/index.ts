/**
 * One error type and one table from code to HTTP status (STYLE §2.5). No throw site picks a status.
 * Codes are the stable codes of SPEC §3, §5.2 and the workflow catalog. Universal (zod only): the
 * error body's schema is part of the API contract and of the OpenAPI document.
 */
import { z } from 'zod';

export const ERROR_STATUS = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  schedule_not_found: 404,
  session_not_found: 404,
  definition_not_found: 404,
  execution_not_found: 404,
  /** A dead letter the scheduler does not hold (SPEC §12.3). */
  dead_letter_not_found: 404,
  /** A backfill the scheduler does not hold (SPEC §18.1). */
  backfill_not_found: 404,
  /** A backfill range that selects more than 10,000 occurrences (SPEC §18.1). Nothing was written. */
  backfill_too_large: 400,
  /** A backfill range that is empty, reversed or reaches past now (SPEC §18.1). */
  invalid_backfill_range: 400,
  unknown_command: 400,
  method_not_allowed: 405,
  invalid_request_body: 400,
  invalid_cron_expression: 400,
  /** A `rate_expression` broken against SPEC §12.1. */
  invalid_rate_expression: 400,
  invalid_timezone: 400,
  invalid_invocation_time: 400,
  invalid_date_window: 400,
  interval_too_short: 400,
  invalid_alias: 400,
  invalid_invocation_target: 400,
  invalid_workflow_reference: 400,
  invalid_revision_state: 409,
  /** A write (session, definition, execution) aimed at a revision that is not a draft (workflow catalog). */
  revision_not_writable: 409,
  schedule_limit_reached: 409,
  alias_taken: 409,
  schedule_completed: 409,
  session_not_open: 409,
  /** Adding a user who is already a member of the org (account screens). */
  already_member: 409,
  /** Demoting or removing an org's only admin (account screens). */
  last_admin: 409,
  /** Deleting an alert channel that rules still name (SPEC §17, decision 340): the message names the rules. Nothing was deleted. */
  channel_in_use: 409,
  /** Creating (or updating into) an alert rule identical to another of the same scope: same schedule or scheduler-wide, events, channels, failure_tolerance and silence_seconds (SPEC §17, decision 345). Nothing was written. */
  duplicate_alert_rule: 409,
  limit_exceeded: 429,
  /** `expected_version` is not the schedule's `version`: someone changed it since (SPEC §15). Nothing was written. */
  version_conflict: 409,
  /** A create's `client_token` was used within 24 h with another body (SPEC §15). Nothing was created. */
  client_token_reused: 409,
  /** A name already used in its scope: a schedule's name in its scheduler, a schedule group's name in its org (SPEC §14). */
  name_taken: 409,
  /** The org's default scheduler (its `default` schedule group) is never deleted, from any surface (SPEC §14). */
  default_scheduler_protected: 400,
  /** The org already holds the most schedule groups allowed (SPEC §14). */
  group_limit_reached: 409,
  /** Too many failed login attempts (lib/auth/login-rate-limit.ts). */
  rate_limited: 429,
  /** The request body is larger than the endpoint accepts (API: 1 MiB; server actions: 1 MiB). */
  request_too_large: 413,
  /** A server-action post without Content-Length (its size cannot be checked before it is read). */
  length_required: 411,
  internal_error: 500,
  /** The database's disk is full: nothing was written; reads still work (`conditionError` below). */
  storage_full: 503,
  /** The database is read-only (file, mount, or a PostgreSQL standby): nothing was written. */
  storage_read_only: 503,
  /** The database could not be reached (refused, unknown host, no connection to be had): the request did not run (`conditionError` below). */
  database_unavailable: 503,
  /** The connection to the database broke while the request ran: a change it was making may or may not have been saved (`conditionError` below). */
  database_connection_lost: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Every stable error code, in table order. */
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** A refusal with a SPEC code, a human message, and the field path at fault when there is one. */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly path: string | undefined;
  constructor(code: ErrorCode, message: string, opts: { path?: string; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.name = 'DomainError';
    this.code = code;
    this.path = opts.path;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** The wire shape of every error (SPEC §3): `{"error": {"code", "message", "path"?}}`; `path` only when one field is at fault. */
export const ErrorBodySchema = z.strictObject({
  error: z.strictObject({ code: z.enum(ERROR_CODES), message: z.string(), path: z.string().optional() }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export function toErrorBody(err: DomainError): ErrorBody {
  return { error: { code: err.code, message: err.message, ...(err.path ? { path: err.path } : {}) } };
}

/** Turn anything thrown into an Error (STYLE §1.5). */
export function toError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  return new Error(typeof thrown === 'string' ? thrown : JSON.stringify(thrown));
}

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError;
}

/** The refusal a failed parse answers with: a SPEC code, a message naming the field, its dotted path. */
export interface IssueError {
  code: ErrorCode;
  message: string;
  path?: string;
}

/** Dotted path of an issue: `invocation_target.target.session`, `input_data.0.alias`. */
export function issuePath(path: readonly PropertyKey[]): string | undefined {
  return path.length ? path.map(String).join('.') : undefined;
}

/** The SPEC code a contract rule put on its custom issue (`params.code`), if any. */
function codeOf(issue: z.core.$ZodIssue): ErrorCode | undefined {
  return issue.code === 'custom' ? (issue.params as { code?: ErrorCode } | undefined)?.code : undefined;
}

/**
 * The one error to answer for a failed parse with a contract schema (STYLE §2.3, §2.5): the first
 * structural issue (wrong type, unknown key, missing field: `400 invalid_request_body`, its message
 * prefixed with the field's path), else the first coded rule (a custom issue carrying a SPEC code in
 * `params.code`, whose message names its field itself). An unknown key names itself: path
 * `invocation_target.target.region`, message `unknown field "region"`; a top-level key listed in
 * `readOnly` (a schedule's info fields, SPEC §5.1) is refused alike but named `field "state" is read-only`.
 */
export function firstIssueError(error: z.ZodError, readOnly: readonly string[] = []): IssueError {
  const structural = error.issues.find((i) => !codeOf(i));
  const issue = structural ?? error.issues[0];
  const code = structural ? 'invalid_request_body' : (codeOf(issue) ?? 'invalid_request_body');
  let path = issuePath(issue.path);
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0];
    path = issuePath([...issue.path, key]);
    // SPEC §5.1: the info fields are refused in requests like unknown keys, but named as read-only.
    message = issue.path.length === 0 && readOnly.includes(key) ? `field "${key}" is read-only` : `unknown field "${String(key).slice(0, 64)}"`;
  } else if (path && structural) {
    // Coded rules write their own field-naming messages ("day-of-week: `8` is outside 1–7 …").
    message = `${path}: ${message}`;
  }
  return path ? { code, message, path } : { code, message };
}

/**
 * `input` parsed by `schema`, or the refusal of `firstIssueError` (with its `readOnly` keys) thrown as
 * a DomainError: the one way every edge (commands, server actions, the login form) turns a contract
 * schema's verdict into a SPEC error.
 */
export function parseOrRefuse<S extends z.ZodType>(schema: S, input: unknown, readOnly: readonly string[] = []): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const e = firstIssueError(parsed.error, readOnly);
  throw new DomainError(e.code, e.message, e.path ? { path: e.path } : {});
}

/**
 * **Storage faults**: the database cannot take writes because its disk is full or it is read-only
 * (a read-only file or mount, a PostgreSQL hot standby or `default_transaction_read_only`). They are
 * conditions of the installation, not of the request, so the HTTP edge answers them with `503` and a
 * stable code (`storage_full`, `storage_read_only`) instead of a generic 500, and never with the
 * driver's raw text. Reads keep working, and writes work again as soon as the condition ends: nothing
 * here holds state that needs a restart (see `lib/db/client.ts` for why a failed write no longer
 * wedges SQLite's transaction lock).
 *
 * Pure, like the rest of lib/errors: a thrown driver error (or Prisma's wrapper of one) → its SPEC
 * error, as `parseOrRefuse` maps a failed parse. What this process last met (for `/api/health`) is
 * kept by the HTTP edge, lib/api/storage-health.ts.
 */
export type StorageFaultCode = 'storage_full' | 'storage_read_only';

/** SQLite result codes and PostgreSQL SQLSTATEs of each fault. */
const CODES: Record<string, StorageFaultCode> = {
  SQLITE_FULL: 'storage_full',
  SQLITE_READONLY: 'storage_read_only',
  SQLITE_READONLY_RECOVERY: 'storage_read_only',
  SQLITE_READONLY_CANTLOCK: 'storage_read_only',
  SQLITE_READONLY_CANTINIT: 'storage_read_only',
  SQLITE_READONLY_ROLLBACK: 'storage_read_only',
  SQLITE_READONLY_DBMOVED: 'storage_read_only',
  SQLITE_READONLY_DIRECTORY: 'storage_read_only',
  /** PostgreSQL `disk_full`. */
  '53100': 'storage_full',
  /** PostgreSQL `read_only_sql_transaction` (hot standby, `default_transaction_read_only`). */
  '25006': 'storage_read_only',
};

/** The same faults by message, for wrappers that keep only the text (driver and Prisma wordings). */
const MESSAGES: [RegExp, StorageFaultCode][] = [
  [/database or disk is full|no space left on device|ENOSPC|could not extend file/i, 'storage_full'],
  [/attempt to write a readonly database|read-only file system|EROFS|read-only transaction/i, 'storage_read_only'],
];

const TEXT: Record<StorageFaultCode, string> = {
  storage_full: 'the database storage is full: nothing was written; reads still work, and writes work again once space is freed',
  storage_read_only: 'the database is read-only: nothing was written; reads still work, and writes work again once it is writable',
};

/**
 * The first fault of `codes` / `messages` found in `thrown`: a driver error, Prisma's wrapper of one
 * (`meta.driverAdapterError`, whose `cause` holds the driver's `code` or `kind`), or an error whose
 * `cause` chain holds one. Codes are read from `code`, `originalCode` and `kind`; texts from
 * `message` and `originalMessage`.
 */
function faultIn<C extends string>(thrown: unknown, codes: Record<string, C>, messages: [RegExp, C][]): C | null {
  const seen = new Set<unknown>();
  const stack: unknown[] = [thrown];
  while (stack.length > 0) {
    const e = stack.pop();
    if (typeof e !== 'object' || e === null || seen.has(e)) continue;
    seen.add(e);
    const rec = e as Record<string, unknown>;
    for (const key of ['code', 'originalCode', 'kind']) {
      const code = rec[key];
      if (typeof code === 'string' && Object.hasOwn(codes, code)) return codes[code];
    }
    for (const key of ['message', 'originalMessage']) {
      const text = rec[key];
      if (typeof text === 'string') for (const [re, code] of messages) if (re.test(text)) return code;
    }
    stack.push(rec.cause, rec.meta, rec.driverAdapterError);
  }
  return null;
}

/**
 * The storage fault behind `thrown` (a driver error, Prisma's wrapper of one, or an error whose
 * `cause` chain holds one), or null for any other error.
 */
export function storageFaultOf(thrown: unknown): StorageFaultCode | null {
  return faultIn(thrown, CODES, MESSAGES);
}

/**
 * **Database faults**: the database cannot be reached, or the connection to it broke while a request
 * ran (PostgreSQL restarted or failed over, the network cut, the server out of connections). Like the
 * storage faults, they are conditions of the installation, so the HTTP edge answers `503` with a
 * stable code and a sentence that says what the caller may do, never the driver's text:
 * - `database_unavailable`: no connection could be had, so the request did not run: retrying is safe.
 * - `database_connection_lost`: the connection broke mid-request. PostgreSQL rolls back a transaction
 *   whose connection is gone, unless its COMMIT had already reached the server, and the answer to the
 *   COMMIT is what was lost: the change may or may not have been saved. Read it back before retrying;
 *   a create with the same `client_token` is safe to retry (SPEC §15).
 * The pool drops a broken connection, so the next request opens a new one: nothing needs a restart.
 * SQLite (one file, no connection) never raises these.
 */
export type DatabaseFaultCode = 'database_unavailable' | 'database_connection_lost';

/** Error codes (Node's socket errors, PostgreSQL SQLSTATEs, Prisma's codes and adapter kinds) of each fault. */
const DATABASE_CODES: Record<string, DatabaseFaultCode> = {
  ECONNREFUSED: 'database_unavailable',
  ENOTFOUND: 'database_unavailable',
  EAI_AGAIN: 'database_unavailable',
  EHOSTUNREACH: 'database_unavailable',
  ENETUNREACH: 'database_unavailable',
  /** Prisma: can't reach the database server; timed out reaching it. */
  P1001: 'database_unavailable',
  P1002: 'database_unavailable',
  /** Prisma's driver-adapter kinds for the same. */
  DatabaseNotReachable: 'database_unavailable',
  TooManyConnections: 'database_unavailable',
  /** PostgreSQL `cannot_connect_now` (starting up, shutting down, recovering), `too_many_connections`, `sqlclient_unable_to_establish_sqlconnection`, `sqlserver_rejected_establishment_of_sqlconnection`. */
  '57P03': 'database_unavailable',
  '53300': 'database_unavailable',
  '08001': 'database_unavailable',
  '08004': 'database_unavailable',
  ECONNRESET: 'database_connection_lost',
  EPIPE: 'database_connection_lost',
  ETIMEDOUT: 'database_connection_lost',
  /** Prisma: the server closed the connection. */
  P1017: 'database_connection_lost',
  ConnectionClosed: 'database_connection_lost',
  /** PostgreSQL `admin_shutdown` (restart, `pg_terminate_backend`), `crash_shutdown`, `connection_failure`, `connection_does_not_exist`, `transaction_resolution_unknown`. */
  '57P01': 'database_connection_lost',
  '57P02': 'database_connection_lost',
  '08006': 'database_connection_lost',
  '08003': 'database_connection_lost',
  '08007': 'database_connection_lost',
};

/** The same faults by message: node-postgres reports a socket closed under it in words only. */
const DATABASE_MESSAGES: [RegExp, DatabaseFaultCode][] = [
  // Checked in this order: node-postgres words a connect timeout "Connection terminated due to connection timeout".
  [/Can't reach database server|timeout exceeded when trying to connect|due to connection timeout|the database system is (starting up|shutting down)/i, 'database_unavailable'],
  // "Query read timeout": no answer within DATABASE_QUERY_TIMEOUT_MS (lib/db `PostgresTimeouts`); the connection is dropped.
  [/Connection terminated|connection error and is not queryable|server closed the connection unexpectedly|Server has closed the connection|Query read timeout/i, 'database_connection_lost'],
];

const DATABASE_TEXT: Record<DatabaseFaultCode, string> = {
  database_unavailable: 'the database cannot be reached: the request did not run; try again once the database is back',
  database_connection_lost:
    'the connection to the database was lost while the request ran: a change it was making may or may not have been saved (a read changed nothing); read it back before trying again (a create with the same client_token is safe to retry)',
};

/** A condition of the installation, not of the request: a storage fault or a database fault. */
export type ConditionCode = StorageFaultCode | DatabaseFaultCode;

const CONDITION_TEXT: Record<ConditionCode, string> = { ...TEXT, ...DATABASE_TEXT };

/** True when `code` names a condition of the installation (`ConditionCode`): the edges answer it 503 with its sentence. */
export function isConditionCode(code: string): code is ConditionCode {
  return Object.hasOwn(CONDITION_TEXT, code);
}

/**
 * The condition behind `thrown`: its storage fault if it holds one, else its database fault, else
 * null. A storage fault wins (a read-only standby is not "unreachable"), and is looked for first, so
 * the error chain is walked at most twice.
 */
export function conditionOf(thrown: unknown): ConditionCode | null {
  return storageFaultOf(thrown) ?? faultIn(thrown, DATABASE_CODES, DATABASE_MESSAGES);
}

/** The database fault behind `thrown` (see `DatabaseFaultCode`), or null for any other error. A storage fault is never one. */
export function databaseFaultOf(thrown: unknown): DatabaseFaultCode | null {
  const code = conditionOf(thrown);
  return code === 'database_unavailable' || code === 'database_connection_lost' ? code : null;
}

/**
 * `thrown` as the SPEC-shaped refusal (`503`) of its condition (`conditionOf`), with the condition's
 * fixed sentence (never the driver's text), or null when it holds none.
 */
export function conditionError(thrown: unknown): (DomainError & { code: ConditionCode }) | null {
  const code = conditionOf(thrown);
  return code ? (new DomainError(code, CONDITION_TEXT[code], { cause: thrown }) as DomainError & { code: ConditionCode }) : null;
}
