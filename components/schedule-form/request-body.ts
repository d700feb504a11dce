/**
 * The form's values → the request body of SPEC §5.1 and §12: datetime inputs become wall time
 * (invocation time, in `timezone`) or ISO UTC (start and end dates), the input-data text becomes
 * JSON, number inputs become numbers, and blank optional fields are left out (create) or sent as
 * `null` (edit, which clears them). Delivery settings at their defaults are left out of a create.
 */
import { CADENCE_FIELD } from '@/lib/schedules/contract';
import { numberOf } from '../targets/form-text';
import { targetBody } from '../targets';
import type { TextProblems } from '../targets/types';
import { toWallTime, type ScheduleFormValues } from './values';

export type { TextProblems } from '../targets/types';

/**
 * The request body of SPEC §5.1 for these values. In `create` mode empty optional fields are left
 * out; in `edit` mode they are sent as `null`, which clears them. `problems` names text that is not
 * JSON (input data, a webhook body) or a header given twice; the body then leaves that value out.
 */
export function toRequestBody(v: ScheduleFormValues, mode: 'create' | 'edit'): { body: Record<string, unknown>; problems: TextProblems } {
  const cleared = mode === 'edit' ? null : undefined;
  const problems: TextProblems = {};
  const body: Record<string, unknown> = {
    alias: v.alias.trim() === '' ? cleared : v.alias.trim(),
    description: v.description === '' ? cleared : v.description,
    repeat: v.repeat,
    [CADENCE_FIELD[v.repeat]]: v.repeat === 'one_time' ? toWallTime(v.invocation_time) : v[CADENCE_FIELD[v.repeat]].trim(),
    timezone: v.timezone.trim(),
    start_date: v.start_date.trim() === '' ? cleared : `${toWallTime(v.start_date)}Z`,
    end_date: v.end_date.trim() === '' ? cleared : `${toWallTime(v.end_date)}Z`,
    enabled: v.enabled,
    ...deliveryBody(v, mode),
    invocation_target_type: v.invocation_target_type,
    invocation_target: targetBody(v.invocation_target_type, v.invocation_target, problems),
  };
  return { body: stripUndefined(body) as Record<string, unknown>, problems };
}

/**
 * The SPEC §12 fields. Create: each at its default (no retry, no dead letter, window off, keep after
 * completion, never pause) is left out. Edit: `null` clears the retry policy, dead letter and pause
 * threshold, and the window is sent as `{mode: "off"}` (it has no null). `paused.note` goes only with a
 * disabled schedule (the server refuses it otherwise, SPEC §12.5); a blank one clears it in edit.
 */
function deliveryBody(v: ScheduleFormValues, mode: 'create' | 'edit'): Record<string, unknown> {
  const cleared = mode === 'edit' ? null : undefined;
  const r = v.retry_policy;
  const w = v.flexible_time_window;
  const note = v.paused.note.trim();
  return {
    paused: v.enabled ? undefined : note !== '' ? { note } : mode === 'edit' ? { note: null } : undefined,
    retry_policy: r.mode === 'retry' ? { maximum_retry_attempts: numberOf(r.maximum_retry_attempts), maximum_event_age_seconds: numberOf(r.maximum_event_age_seconds) } : cleared,
    dead_letter: v.dead_letter.arn.trim() !== '' ? { arn: v.dead_letter.arn.trim() } : cleared,
    flexible_time_window: w.mode === 'flexible' ? { mode: 'flexible', maximum_window_minutes: numberOf(w.maximum_window_minutes) } : mode === 'edit' ? { mode: 'off' } : undefined,
    action_after_completion: v.action_after_completion !== 'none' || mode === 'edit' ? v.action_after_completion : undefined,
    pause_after_failures: v.pause_after_failures.trim() === '' ? cleared : numberOf(v.pause_after_failures),
    completion: v.completion.expect_within_seconds.trim() === '' ? cleared : { expect_within_seconds: numberOf(v.completion.expect_within_seconds) },
    // SPEC §16.2: the policy matters only with a completion; without one it goes back to the default.
    overlap_policy: v.completion.expect_within_seconds.trim() !== '' && v.overlap_policy !== 'allow_all' ? v.overlap_policy : mode === 'edit' ? 'allow_all' : undefined,
    // SPEC §18.2: `default` sends none (edit: null clears it); `max_burst` only with `all`, blank for no cap.
    catch_up:
      v.catch_up.mode === 'default'
        ? cleared
        : {
            window_seconds: numberOf(v.catch_up.window_seconds),
            mode: v.catch_up.mode,
            ...(v.catch_up.mode === 'all' && v.catch_up.max_burst.trim() !== '' ? { max_burst: numberOf(v.catch_up.max_burst) } : {}),
          },
  };
}

function stripUndefined(v: unknown): unknown {
  if (Array.isArray(v) || v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = stripUndefined(x);
  return out;
}

/** True when react-hook-form's `dirtyFields` node marks anything dirty (a `true` leaf anywhere in it). */
function anyDirty(node: unknown): boolean {
  if (node === true) return true;
  if (Array.isArray(node)) return node.some(anyDirty);
  return node !== null && typeof node === 'object' && Object.values(node).some(anyDirty);
}

/**
 * The part of `body` the user changed, by top-level request field: edit sends only those (SPEC §3.1
 * "only fields sent change"). A changed cadence sends its time field along with it; a field left out
 * of `body` (a pause note of a schedule being enabled) is not sent.
 */
export function changedBody(body: Record<string, unknown>, dirty: Partial<Record<keyof ScheduleFormValues, unknown>>, values: ScheduleFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const isDirty = (k: keyof ScheduleFormValues) => anyDirty(dirty[k]);
  for (const k of [
    'alias',
    'description',
    'timezone',
    'start_date',
    'end_date',
    'enabled',
    'paused',
    'retry_policy',
    'dead_letter',
    'flexible_time_window',
    'action_after_completion',
    'pause_after_failures',
    'completion',
    'overlap_policy',
    'catch_up',
    'invocation_target',
  ] as const) {
    if (isDirty(k) && k in body) out[k] = body[k];
  }
  // A target travels with its type (an update's target otherwise keeps the stored type, SPEC §3.1).
  if (isDirty('invocation_target_type') || isDirty('invocation_target')) {
    out.invocation_target_type = body.invocation_target_type;
    out.invocation_target = body.invocation_target;
  }
  if (isDirty('repeat')) out.repeat = body.repeat;
  const timeField = CADENCE_FIELD[values.repeat];
  if (isDirty('repeat') || isDirty(timeField)) out[timeField] = body[timeField];
  return out;
}
