/**
 * The form's values → the request body of SPEC §5.1: datetime inputs become wall time (invocation
 * time, in `timezone`) or ISO UTC (start and end dates), the input-data text becomes JSON, and blank
 * optional fields are left out (create) or sent as `null` (edit, which clears them).
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
    invocation_target: {
      target: { org: opt(t.target.org), blob: t.target.blob.trim(), revision: t.target.revision.trim(), session: t.target.session.trim() },
      workflow: { org: opt(t.workflow.org), blob: opt(t.workflow.blob), revision: opt(t.workflow.revision), definition: t.workflow.definition.trim() },
      input_data: inputData,
    },
  };
  return { body: stripUndefined(body) as Record<string, unknown>, inputDataError };
}

function stripUndefined(v: unknown): unknown {
  if (Array.isArray(v) || v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = stripUndefined(x);
  return out;
}

/**
 * The part of `body` the user changed, by top-level request field: edit sends only those (SPEC §3.1
 * "only fields sent change"). A changed cadence sends its time field along with it.
 */
export function changedBody(body: Record<string, unknown>, dirty: Partial<Record<keyof ScheduleFormValues, unknown>>, values: ScheduleFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const isDirty = (k: keyof ScheduleFormValues) => Boolean(dirty[k]);
  for (const k of ['alias', 'description', 'timezone', 'start_date', 'end_date', 'enabled', 'invocation_target'] as const) {
    if (isDirty(k) && k in body) out[k] = body[k];
  }
  if (isDirty('repeat')) out.repeat = body.repeat;
  const timeField = CADENCE_FIELD[values.repeat];
  if (isDirty('repeat') || isDirty(timeField)) out[timeField] = body[timeField];
  return out;
}
