/**
 * The answer of every server action the web app calls (the server-action contract): `{ok: true, …}`
 * or `{ok: false, error: {code, message, path?}}` with the SPEC error code and, when one field is at
 * fault, its dotted path (`cron_expression`, `invocation_target.target.session`). Universal: types only.
 */
import type { ErrorCode } from '@/lib/errors';

export interface ActionError {
  code: ErrorCode;
  message: string;
  /** Dotted field path, when one field is at fault. */
  path?: string;
}

export type ActionResult<T extends object = object> = ({ ok: true } & T) | { ok: false; error: ActionError };
