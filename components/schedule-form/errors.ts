/**
 * Where an error shows on the schedule form. Every error carries the dotted path of the request field
 * at fault (`invocation_target.target.session`, `invocation_target.input_data.0.alias`), from the
 * contract's zod issues in the browser and from the server action's answer alike (STYLE §2.5); the
 * path picks the form field, and a message already shown beside its label loses the `path: ` prefix.
 * A target refusal (SPEC §6.3) names no single field: it shows once, above the target fields.
 */
import { CADENCE_FIELD } from '@/lib/schedules/contract';
import type { FieldErrors } from 'react-hook-form';
import type { ActionError } from '../action-result';
import { FIELDS, LABELS, type FieldName, type ScheduleFormValues } from './values';

/** What the form says when the server action cannot be reached at all. */
export const NETWORK_ERROR_MESSAGE = 'The save may or may not have been made. Save again: a repeated save never makes a second schedule nor overwrites a newer change.';

/**
 * Paths of a whole object the form shows as one of its inputs: a FIFO target without its
 * `sqs_parameters`, an event bus without its `eventbridge_parameters`, an ECS cluster without its
 * `ecs_parameters` or its network configuration's subnets (SPEC §13.2).
 */
const OBJECT_FIELDS: Record<string, FieldName> = {
  'invocation_target.sqs_parameters': 'invocation_target.sqs_parameters.message_group_id',
  'invocation_target.eventbridge_parameters': 'invocation_target.eventbridge_parameters.detail_type',
  'invocation_target.ecs_parameters': 'invocation_target.ecs_parameters.task_definition_arn',
  'invocation_target.ecs_parameters.network_configuration': 'invocation_target.ecs_parameters.network_configuration.awsvpc_configuration.subnets',
  'invocation_target.ecs_parameters.network_configuration.awsvpc_configuration': 'invocation_target.ecs_parameters.network_configuration.awsvpc_configuration.subnets',
};

/** The form field an error path (`invocation_target.input_data.0.alias`) belongs to, or null. */
export function fieldForPath(path: string | undefined): FieldName | null {
  if (!path) return null;
  if (Object.hasOwn(OBJECT_FIELDS, path)) return OBJECT_FIELDS[path];
  let best: FieldName | null = null;
  for (const f of FIELDS) if ((path === f || path.startsWith(`${f}.`)) && (!best || f.length > best.length)) best = f;
  return best;
}

/** Every `{message}` in a nested FieldErrors object, by dotted path. */
export function flattenErrors(errors: FieldErrors, prefix = ''): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, node] of Object.entries(errors as Record<string, unknown>)) {
    if (!node || typeof node !== 'object' || key === 'ref') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    const n = node as { message?: unknown };
    if (typeof n.message === 'string') out.push([path, n.message]);
    for (const [k, child] of Object.entries(node as Record<string, unknown>)) {
      if (['ref', 'message', 'type', 'types', 'root'].includes(k) || !child || typeof child !== 'object') continue;
      out.push(...flattenErrors({ [k]: child } as FieldErrors, path));
    }
  }
  return out;
}

/** Sets `value` at a dotted path of `target`, creating the objects on the way. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const k of keys.slice(0, -1)) node = (node[k] ??= {}) as Record<string, unknown>;
  node[keys[keys.length - 1]] = value;
}

/** The value at a dotted path of `source`, or undefined. */
export function getPath(source: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((n, k) => (n && typeof n === 'object' ? (n as Record<string, unknown>)[k] : undefined), source);
}

/** Required text fields (for the current repeat): a blank one says so in plain words. */
export function isBlankRequired(field: FieldName, v: ScheduleFormValues): boolean {
  const target: Record<ScheduleFormValues['invocation_target_type'], FieldName[]> = {
    workflow: ['invocation_target.target.blob', 'invocation_target.target.revision', 'invocation_target.target.session', 'invocation_target.workflow.definition'],
    http: ['invocation_target.url'],
    aws: [
      'invocation_target.arn',
      'invocation_target.eventbridge_parameters.detail_type',
      'invocation_target.eventbridge_parameters.source',
      'invocation_target.ecs_parameters.task_definition_arn',
      'invocation_target.ecs_parameters.network_configuration.awsvpc_configuration.subnets',
    ],
  };
  const required: FieldName[] = [
    'timezone',
    ...target[v.invocation_target_type],
    CADENCE_FIELD[v.repeat],
    ...(v.retry_policy.mode === 'retry' ? (['retry_policy.maximum_retry_attempts', 'retry_policy.maximum_event_age_seconds'] as const) : []),
    ...(v.flexible_time_window.mode === 'flexible' ? (['flexible_time_window.maximum_window_minutes'] as const) : []),
  ];
  return required.includes(field) && String(getPath(v, field) ?? '').trim() === '';
}

/**
 * A server message as shown at its field, whose label already names it: a leading `path: ` or
 * `path ` is dropped (`cron_expression "0 9 …" never fires…` → `"0 9 …" never fires…`).
 */
export function fieldMessage(message: string, path: string | undefined): string {
  if (!path) return message;
  if (message.startsWith(`${path}: `)) return message.slice(path.length + 2);
  if (message.startsWith(`${path} `)) return message.slice(path.length + 1);
  // The contract's rules name the target's own field (`url: …` under `invocation_target.url`).
  const leaf = path.split('.').pop()!;
  if (leaf !== path && message.startsWith(`${leaf}: `)) return message.slice(leaf.length + 2);
  return message;
}

/** A target refusal (SPEC §6.3) in operator words: the API field name becomes "The target". */
export function targetMessage(message: string): string {
  return message.startsWith('invocation_target ') ? `The target ${message.slice('invocation_target '.length)}` : message;
}

/**
 * Where a refused save shows:
 * - `field`: at the input its `path` names (`message`), and in the alert above the form (`summary`,
 *   the field's label first);
 * - `target`: a target refusal, in the alert above the target fields;
 * - `form`: no field at fault (`not_found`, `internal_error`, …), in the alert above the form.
 */
export type Refusal =
  | { kind: 'field'; field: FieldName; code: string; message: string; summary: string }
  | { kind: 'target'; message: string }
  | { kind: 'form'; code: string; message: string };

/** The place and the words of a server action's refusal. */
export function placeRefusal(error: ActionError): Refusal {
  const field = fieldForPath(error.path);
  if (field) {
    const message = fieldMessage(error.message, error.path);
    return { kind: 'field', field, code: error.code, message, summary: `${LABELS[field]}: ${message}` };
  }
  // SPEC §6.3: one message for every target refusal, so it names no single field.
  if (error.path?.startsWith('invocation_target')) return { kind: 'target', message: targetMessage(error.message) };
  return { kind: 'form', code: error.code, message: error.message };
}
