/**
 * One error type and one table from code to HTTP status (STYLE §2.5). No throw site picks a status.
 * Codes are the stable codes of SPEC §3, §5.2 and the workflow catalog.
 */
export const ERROR_STATUS = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  schedule_not_found: 404,
  session_not_found: 404,
  definition_not_found: 404,
  execution_not_found: 404,
  unknown_command: 400,
  method_not_allowed: 405,
  invalid_request_body: 400,
  invalid_cron_expression: 400,
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
  limit_exceeded: 429,
  /** A name already used in its scope: a schedule's name in its scheduler, a schedule group's name in its org (SPEC §14). */
  name_taken: 409,
  /** The org's `default` schedule group is never deleted (SPEC §14). */
  default_group_protected: 400,
  /** The org already holds the most schedule groups allowed (SPEC §14). */
  group_limit_reached: 409,
  /** Too many failed login attempts (lib/auth/login-rate-limit.ts). */
  rate_limited: 429,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

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

/** The wire shape of every error (SPEC §3): `{"error": {"code", "message", "path"?}}`. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; path?: string };
}

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
