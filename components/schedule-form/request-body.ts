/**
 * The form's values → the request body of SPEC §5.1 and §12: datetime inputs become wall time
 * (invocation time, in `timezone`) or ISO UTC (start and end dates), the input-data text becomes
 * JSON, number inputs become numbers, and blank optional fields are left out (create) or sent as
 * `null` (edit, which clears them). Delivery settings at their defaults are left out of a create.
 */
import { CADENCE_FIELD } from '@/lib/schedules/contract';
import { toWallTime, type ScheduleFormValues } from './values';

/**
 * The request body of SPEC §5.1 for these values. In `create` mode empty optional fields are left
 * out; in `edit` mode they are sent as `null`, which clears them. `inputDataError` is set when the
 * input-data text is not JSON (the body then carries `[]` in its place).
 */
export function toRequestBody(v: ScheduleFormValues, mode: 'create' | 'edit'): { body: Record<string, unknown>; inputDataError: string | null } {
  const cleared = mode === 'edit' ? null : undefined;
  const opt = (s: string) => (s.trim() === '' ? undefined : s.trim());
  const t = v.invocation_target;
  let inputData: unknown = [];
  let inputDataError: string | null = null;
  if (t.input_data.trim() !== '') {
    try {
      inputData = JSON.parse(t.input_data);
    } catch (e) {
      inputDataError = `Not valid JSON: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
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
    invocation_target: {
      target: { org: opt(t.target.org), blob: t.target.blob.trim(), revision: t.target.revision.trim(), session: t.target.session.trim() },
      workflow: { org: opt(t.workflow.org), blob: opt(t.workflow.blob), revision: opt(t.workflow.revision), definition: t.workflow.definition.trim() },
      input_data: inputData,
    },
  };
  return { body: stripUndefined(body) as Record<string, unknown>, inputDataError };
}

/**
 * A number input's text as the request sends it: a decimal number as a number, anything else (blank,
 * `1e3`, `ten`) as the text, which the contract then refuses at its field.
 */
function numberOf(text: string): number | string {
  const s = text.trim();
  return /^[+-]?\d+(\.\d+)?$/.test(s) ? Number(s) : s;
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
    'invocation_target',
  ] as const) {
    if (isDirty(k) && k in body) out[k] = body[k];
  }
  if (isDirty('repeat')) out.repeat = body.repeat;
  const timeField = CADENCE_FIELD[values.repeat];
  if (isDirty('repeat') || isDirty(timeField)) out[timeField] = body[timeField];
  return out;
}
