/**
 * The answer of every server action the web app calls (the server-action contract): `{ok: true, …}`
 * or `{ok: false, error: {code, message, path?}}` with the SPEC error code and, when one field is at
 * fault, its dotted path (`cron_expression`, `invocation_target.target.session`). Universal: types only.
 */
import type { ErrorCode } from '@/lib/errors';
import type { Schedule } from '@/lib/schedules/contract';

export interface ActionError {
  code: ErrorCode;
  message: string;
  /** Dotted field path, when one field is at fault. */
  path?: string;
}

export type ActionResult<T extends object = object> = ({ ok: true } & T) | { ok: false; error: ActionError };

/**
 * The answer of a schedule form's save: `ActionResult<{id}>`, and on `409 version_conflict` (SPEC §15)
 * the schedule as it is saved now, so the form can show what changed and offer Reload or Overwrite.
 */
export type SaveResult = ActionResult<{ id: string }> | { ok: false; error: ActionError; current: Schedule };

/** What a schedule form's save sends beside the body (SPEC §15): the create's token, the edit's version. */
export interface SaveMeta {
  clientToken?: string;
  expectedVersion?: number;
}
