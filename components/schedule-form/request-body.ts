/**
 * The form's values → the request body of SPEC §5.1 and §12: datetime inputs become wall time
 * (invocation time, in `timezone`) or ISO UTC (start and end dates), the input-data text becomes
 * JSON, number inputs become numbers, and blank optional fields are left out (create) or sent as
 * `null` (edit, which clears them). Delivery settings at their defaults are left out of a create.
 */
import { CADENCE_FIELD, parseTargetArn } from '@/lib/schedules/contract';
import { toWallTime, type ScheduleFormValues } from './values';

/** Problems the values have before any schema sees them: JSON text that does not parse, a header named twice. */
export type TextProblems = Partial<Record<'invocation_target.input_data' | 'invocation_target.body' | 'invocation_target.headers', string>>;

/** JSON text → its value, or the problem in words. */
function parseJsonText(text: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    return { problem: `Not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
}

const opt = (s: string) => (s.trim() === '' ? undefined : s.trim());

/**
 * The `invocation_target` of the chosen type (SPEC §6, §13) from the form's values, and the text
 * problems found on the way. Webhook: header rows with a blank name are left out, a blank body or
 * timeout is left out (the default event, 10 s). AWS: the message group id is sent for SQS and SNS
 * ARNs, the detail type and source for EventBridge buses, `ecs_parameters` (and no input) for ECS
 * clusters, each only when the ARN names that service.
 */
function targetBody(v: ScheduleFormValues, problems: TextProblems): unknown {
  const t = v.invocation_target;
  switch (v.invocation_target_type) {
    case 'http': {
      const rows = t.headers.filter((h) => h.name.trim() !== '');
      const headers: Record<string, string> = {};
      for (const h of rows) {
        const name = h.name.trim();
        if (Object.hasOwn(headers, name)) problems['invocation_target.headers'] = `Header "${name}" is given twice.`;
        headers[name] = h.value;
      }
      let body: unknown;
      if (t.body.trim() !== '') {
        const parsed = parseJsonText(t.body);
        if ('problem' in parsed) problems['invocation_target.body'] = parsed.problem;
        else body = parsed.value;
      }
      return {
        url: t.url.trim(),
        method: t.method,
        headers: rows.length ? headers : undefined,
        body,
        timeout_seconds: t.timeout_seconds.trim() === '' ? undefined : numberOf(t.timeout_seconds),
      };
    }
    case 'aws': {
      const arn = t.arn.trim();
      const parsed = parseTargetArn(arn);
      const service = 'problem' in parsed ? null : parsed.service;
      const group = t.sqs_parameters.message_group_id.trim();
      const bus = t.eventbridge_parameters;
      return {
        arn,
        role_arn: opt(t.role_arn),
        // RunTask takes no input (SPEC §13.2): an ECS cluster's form shows no Input field.
        input: t.input.trim() === '' || service === 'ecs' ? undefined : t.input,
        sqs_parameters: (service === 'sqs' || service === 'sns') && group !== '' ? { message_group_id: group } : undefined,
        eventbridge_parameters: service === 'events' && (bus.detail_type.trim() !== '' || bus.source.trim() !== '') ? { detail_type: bus.detail_type.trim(), source: bus.source.trim() } : undefined,
        ecs_parameters: service === 'ecs' ? ecsBody(t.ecs_parameters) : undefined,
      };
    }
    case 'workflow': {
      let inputData: unknown = [];
      if (t.input_data.trim() !== '') {
        const parsed = parseJsonText(t.input_data);
        if ('problem' in parsed) problems['invocation_target.input_data'] = parsed.problem;
        else inputData = parsed.value;
      }
      return {
        target: { org: opt(t.target.org), blob: t.target.blob.trim(), revision: t.target.revision.trim(), session: t.target.session.trim() },
        workflow: { org: opt(t.workflow.org), blob: opt(t.workflow.blob), revision: opt(t.workflow.revision), definition: t.workflow.definition.trim() },
        input_data: inputData,
      };
    }
    default:
      return v.invocation_target_type satisfies never;
  }
}

/** Subnet or security group ids typed with commas, spaces or one per line → the list. */
const listOf = (text: string) => text.split(/[\s,]+/).filter((x) => x !== '');

/**
 * `ecs_parameters` (SPEC §13.2) from the ECS fields: the task definition always (blank, the contract
 * says it is required), the other fields when filled; `network_configuration` when any of its three
 * fields is (its subnets are then required).
 */
function ecsBody(e: ScheduleFormValues['invocation_target']['ecs_parameters']): Record<string, unknown> {
  const vpc = e.network_configuration.awsvpc_configuration;
  const networked = vpc.subnets.trim() !== '' || vpc.security_groups.trim() !== '' || vpc.assign_public_ip !== '';
  return {
    task_definition_arn: e.task_definition_arn.trim(),
    task_count: e.task_count.trim() === '' ? undefined : numberOf(e.task_count),
    launch_type: e.launch_type === '' ? undefined : e.launch_type,
    platform_version: opt(e.platform_version),
    group: opt(e.group),
    network_configuration: networked
      ? {
          awsvpc_configuration: {
            subnets: listOf(vpc.subnets),
            security_groups: vpc.security_groups.trim() === '' ? undefined : listOf(vpc.security_groups),
            assign_public_ip: vpc.assign_public_ip === '' ? undefined : vpc.assign_public_ip,
          },
        }
      : undefined,
  };
}

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
    invocation_target: targetBody(v, problems),
  };
  return { body: stripUndefined(body) as Record<string, unknown>, problems };
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
