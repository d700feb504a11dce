/**
 * The schedule form's own values (strings as the inputs hold them), its field names and labels, and
 * the values a form starts from: a stored schedule (edit) or the defaults of a new one (create).
 * `request-body.ts` turns these values into the request body of SPEC §5.1.
 */
import {
  ECS_TASK_COUNT,
  FLEXIBLE_WINDOW_MINUTES,
  HTTP_TIMEOUT_SECONDS,
  PAUSE_AFTER_FAILURES,
  RETRY_BOUNDS,
  type AfterCompletionAction,
  type ECS_ASSIGN_PUBLIC_IP,
  type ECS_LAUNCH_TYPES,
  type HttpMethod,
  type InvocationTargetType,
  type Repeat,
  type EcsParameters,
  type Schedule,
  type TargetOptions,
} from '@/lib/schedules/contract';

/** The form's own values: strings as the inputs hold them. `toRequestBody` makes the API body. */
export interface ScheduleFormValues {
  alias: string;
  description: string;
  repeat: Repeat;
  cron_expression: string;
  /** `<value> <unit>` (SPEC §12.1). */
  rate_expression: string;
  /** `<input type="datetime-local">`: `YYYY-MM-DDTHH:mm[:ss]`, wall time in `timezone`. */
  invocation_time: string;
  timezone: string;
  /** `<input type="datetime-local">` read as UTC. */
  start_date: string;
  end_date: string;
  enabled: boolean;
  /** SPEC §12.5 `paused.note`: sent only while the schedule is (or becomes) disabled. */
  paused: { note: string };
  /** SPEC §12.2. `mode` is the form's own: `off` sends no policy (one attempt), `retry` sends both numbers. */
  retry_policy: { mode: 'off' | 'retry'; maximum_retry_attempts: string; maximum_event_age_seconds: string };
  /** SPEC §12.3: blank for none. */
  dead_letter: { arn: string };
  /** SPEC §12.4. */
  flexible_time_window: { mode: 'off' | 'flexible'; maximum_window_minutes: string };
  /** SPEC §12.5. */
  action_after_completion: AfterCompletionAction;
  /** SPEC §12.5: blank for never. */
  pause_after_failures: string;
  /** SPEC §6, §13: which of the target's fields below are sent. */
  invocation_target_type: InvocationTargetType;
  /**
   * Every target type's fields side by side, each at its request path (`invocation_target.url`), so
   * switching the type keeps what was typed; `toRequestBody` sends the chosen type's only.
   */
  invocation_target: {
    target: { org: string; blob: string; revision: string; session: string };
    workflow: { org: string; blob: string; revision: string; definition: string };
    /** JSON text of the `input_data` array. */
    input_data: string;
    /** Webhook (SPEC §13.1). */
    url: string;
    method: HttpMethod;
    /** One row per header; rows with a blank name are left out. */
    headers: { name: string; value: string }[];
    /** JSON text of the body; blank: the default event (SPEC §13.3). */
    body: string;
    /** Blank: the default, 10 s. */
    timeout_seconds: string;
    /** AWS service (SPEC §13.2). */
    arn: string;
    role_arn: string;
    /** Sent as written; blank: the default event. */
    input: string;
    sqs_parameters: { message_group_id: string };
    eventbridge_parameters: { detail_type: string; source: string };
    /**
     * An ECS cluster's RunTask (SPEC §13.2 `ecs_parameters`): blank optional fields are left out; the
     * subnets and security groups are lists typed with commas, spaces or one per line.
     */
    ecs_parameters: {
      task_definition_arn: string;
      task_count: string;
      launch_type: '' | (typeof ECS_LAUNCH_TYPES)[number];
      platform_version: string;
      group: string;
      network_configuration: { awsvpc_configuration: { subnets: string; security_groups: string; assign_public_ip: '' | (typeof ECS_ASSIGN_PUBLIC_IP)[number] } };
    };
  };
}

/** Each input's label, by its field name: the dotted path of the request body it fills. */
export const LABELS = {
  alias: 'Alias',
  description: 'Description',
  repeat: 'Occurrence',
  cron_expression: 'Cron expression',
  rate_expression: 'Rate',
  invocation_time: 'Invocation time',
  timezone: 'Timezone',
  start_date: 'Start date (UTC)',
  end_date: 'End date (UTC)',
  enabled: 'Enabled',
  'paused.note': 'Pause note',
  'retry_policy.mode': 'Retries',
  'retry_policy.maximum_retry_attempts': 'Maximum retry attempts',
  'retry_policy.maximum_event_age_seconds': 'Maximum event age (seconds)',
  'dead_letter.arn': 'Dead-letter queue ARN',
  'flexible_time_window.mode': 'Flexible time window',
  'flexible_time_window.maximum_window_minutes': 'Window (minutes)',
  action_after_completion: 'After completion',
  pause_after_failures: 'Pause after consecutive failed occurrences',
  'invocation_target.target.org': 'Target org',
  'invocation_target.target.blob': 'Target blob',
  'invocation_target.target.revision': 'Target revision',
  'invocation_target.target.session': 'Session',
  'invocation_target.workflow.org': 'Workflow org',
  'invocation_target.workflow.blob': 'Workflow blob',
  'invocation_target.workflow.revision': 'Workflow revision',
  'invocation_target.workflow.definition': 'Definition',
  'invocation_target.input_data': 'Input data (JSON)',
  invocation_target_type: 'Target type',
  'invocation_target.url': 'URL',
  'invocation_target.method': 'Method',
  'invocation_target.headers': 'Headers',
  'invocation_target.body': 'Body (JSON)',
  'invocation_target.timeout_seconds': 'Timeout (seconds)',
  'invocation_target.arn': 'Target ARN',
  'invocation_target.role_arn': 'Role ARN',
  'invocation_target.input': 'Input',
  'invocation_target.sqs_parameters.message_group_id': 'Message group id',
  'invocation_target.eventbridge_parameters.detail_type': 'Detail type',
  'invocation_target.eventbridge_parameters.source': 'Source',
  'invocation_target.ecs_parameters.task_definition_arn': 'Task definition ARN',
  'invocation_target.ecs_parameters.task_count': 'Task count',
  'invocation_target.ecs_parameters.launch_type': 'Launch type',
  'invocation_target.ecs_parameters.platform_version': 'Platform version',
  'invocation_target.ecs_parameters.group': 'Task group',
  'invocation_target.ecs_parameters.network_configuration.awsvpc_configuration.subnets': 'Subnets',
  'invocation_target.ecs_parameters.network_configuration.awsvpc_configuration.security_groups': 'Security groups',
  'invocation_target.ecs_parameters.network_configuration.awsvpc_configuration.assign_public_ip': 'Assign public IP',
} as const;

/** A form field: the dotted request path its input fills (`invocation_target.target.session`). */
export type FieldName = keyof typeof LABELS;
export const FIELDS = Object.keys(LABELS) as FieldName[];

/**
 * The whole-number fields and their inclusive bounds, taken from the contract (never re-declared):
 * the inputs' min/max, their hints and the form's "must be a whole number from … to …" all read these.
 */
export const NUMBER_BOUNDS = {
  'retry_policy.maximum_retry_attempts': RETRY_BOUNDS.maximumRetryAttempts,
  'retry_policy.maximum_event_age_seconds': RETRY_BOUNDS.maximumEventAgeSeconds,
  'flexible_time_window.maximum_window_minutes': FLEXIBLE_WINDOW_MINUTES,
  pause_after_failures: PAUSE_AFTER_FAILURES,
  'invocation_target.timeout_seconds': [HTTP_TIMEOUT_SECONDS.min, HTTP_TIMEOUT_SECONDS.max],
  'invocation_target.ecs_parameters.task_count': ECS_TASK_COUNT,
} as const satisfies Partial<Record<FieldName, readonly [number, number]>>;
export type NumberField = keyof typeof NUMBER_BOUNDS;

/** What a new retry policy, window or pause threshold starts at once switched on. */
const DELIVERY_DEFAULTS = { maximumRetryAttempts: '3', maximumEventAgeSeconds: '3600', windowMinutes: '15' } as const;

/** `YYYY-MM-DDTHH:mm[:ss[.SSS]]` → `YYYY-MM-DDTHH:mm:ss` (the datetime input drops `:00` seconds). */
export function toWallTime(v: string): string {
  const s = v.trim();
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(s)) return `${s}:00`;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+$/.test(s)) return s.slice(0, 19);
  return s;
}

/** An ISO UTC instant → the `datetime-local` value that shows it in UTC. */
function isoToUtcInput(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 19);
}

/** A `datetime-local` value read as UTC → its ISO instant, or null when blank or not a date. */
export function utcOrNull(v: string | undefined): string | null {
  if (!v || !v.trim()) return null;
  const d = new Date(`${toWallTime(v)}Z`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** An ECS target's fields, blank. */
const BLANK_ECS = {
  task_definition_arn: '',
  task_count: '',
  launch_type: '',
  platform_version: '',
  group: '',
  network_configuration: { awsvpc_configuration: { subnets: '', security_groups: '', assign_public_ip: '' } },
} as const satisfies ScheduleFormValues['invocation_target']['ecs_parameters'];

/** Stored `ecs_parameters` as the form's values (lists one item a line). */
function ecsValues(p: EcsParameters | undefined): ScheduleFormValues['invocation_target']['ecs_parameters'] {
  if (!p) return { ...BLANK_ECS, network_configuration: { awsvpc_configuration: { ...BLANK_ECS.network_configuration.awsvpc_configuration } } };
  const vpc = p.network_configuration?.awsvpc_configuration;
  return {
    task_definition_arn: p.task_definition_arn,
    task_count: p.task_count !== undefined ? String(p.task_count) : '',
    launch_type: p.launch_type ?? '',
    platform_version: p.platform_version ?? '',
    group: p.group ?? '',
    network_configuration: {
      awsvpc_configuration: { subnets: (vpc?.subnets ?? []).join('\n'), security_groups: (vpc?.security_groups ?? []).join('\n'), assign_public_ip: vpc?.assign_public_ip ?? '' },
    },
  };
}

/** The fields of the target types a schedule does not have: blank, POST, no header. */
const BLANK_TARGETS = {
  target: { org: '', blob: '', revision: 'default', session: '' },
  workflow: { org: '', blob: '', revision: '', definition: '' },
  input_data: '',
  url: '',
  method: 'POST',
  headers: [],
  body: '',
  timeout_seconds: '',
  arn: '',
  role_arn: '',
  input: '',
  sqs_parameters: { message_group_id: '' },
  eventbridge_parameters: { detail_type: '', source: '' },
  ecs_parameters: BLANK_ECS,
} as const satisfies ScheduleFormValues['invocation_target'];

/** The stored target as form values: its own type's fields, the others blank. */
function targetValues(s: Schedule): ScheduleFormValues['invocation_target'] {
  const blank = { ...BLANK_TARGETS, headers: [], ecs_parameters: ecsValues(undefined) };
  switch (s.invocation_target_type) {
    case 'workflow': {
      const t = s.invocation_target;
      return {
        ...blank,
        target: { org: t.target.org ?? '', blob: t.target.blob, revision: t.target.revision, session: t.target.session },
        workflow: { org: t.workflow.org ?? '', blob: t.workflow.blob ?? '', revision: t.workflow.revision ?? '', definition: t.workflow.definition },
        input_data: t.input_data && t.input_data.length ? JSON.stringify(t.input_data, null, 2) : '',
      };
    }
    case 'http': {
      const t = s.invocation_target;
      return {
        ...blank,
        url: t.url,
        method: t.method ?? 'POST',
        headers: Object.entries(t.headers ?? {}).map(([name, value]) => ({ name, value })),
        body: t.body === undefined ? '' : JSON.stringify(t.body, null, 2),
        timeout_seconds: t.timeout_seconds !== undefined ? String(t.timeout_seconds) : '',
      };
    }
    case 'aws': {
      const t = s.invocation_target;
      return {
        ...blank,
        arn: t.arn,
        role_arn: t.role_arn ?? '',
        input: t.input ?? '',
        sqs_parameters: { message_group_id: t.sqs_parameters?.message_group_id ?? '' },
        eventbridge_parameters: { detail_type: t.eventbridge_parameters?.detail_type ?? '', source: t.eventbridge_parameters?.source ?? '' },
        ecs_parameters: ecsValues(t.ecs_parameters),
      };
    }
    default:
      return s satisfies never;
  }
}

/** The stored schedule as form values (edit mode). */
export function valuesFromSchedule(s: Schedule): ScheduleFormValues {
  return {
    alias: s.alias ?? '',
    description: s.description ?? '',
    repeat: s.repeat,
    cron_expression: s.cron_expression ?? '',
    rate_expression: s.rate_expression ?? '',
    invocation_time: s.invocation_time ?? '',
    timezone: s.timezone,
    start_date: isoToUtcInput(s.start_date),
    end_date: isoToUtcInput(s.end_date),
    enabled: s.enabled,
    paused: { note: s.paused?.note ?? '' },
    retry_policy: s.retry_policy
      ? { mode: 'retry', maximum_retry_attempts: String(s.retry_policy.maximum_retry_attempts), maximum_event_age_seconds: String(s.retry_policy.maximum_event_age_seconds) }
      : { mode: 'off', maximum_retry_attempts: DELIVERY_DEFAULTS.maximumRetryAttempts, maximum_event_age_seconds: DELIVERY_DEFAULTS.maximumEventAgeSeconds },
    dead_letter: { arn: s.dead_letter?.arn ?? '' },
    flexible_time_window:
      s.flexible_time_window?.mode === 'flexible'
        ? { mode: 'flexible', maximum_window_minutes: String(s.flexible_time_window.maximum_window_minutes) }
        : { mode: 'off', maximum_window_minutes: DELIVERY_DEFAULTS.windowMinutes },
    action_after_completion: s.action_after_completion ?? 'none',
    pause_after_failures: s.pause_after_failures !== undefined ? String(s.pause_after_failures) : '',
    invocation_target_type: s.invocation_target_type,
    invocation_target: targetValues(s),
  };
}

/** Defaults of a new schedule: the seeded target when the catalog has it, else the first writable one. */
export function defaultValues(options: TargetOptions): ScheduleFormValues {
  const writable = options.blobs.filter((b) => b.role !== 'read');
  const blob = writable.find((b) => b.alias === 'procedures' && b.orgAlias === 'acme-corp') ?? writable[0];
  const sessions = blob ? options.sessions.filter((s) => s.revisionId === blob.defaultRevisionId && s.alias) : [];
  const session = sessions.find((s) => s.alias === 'nightly-batch') ?? sessions.find((s) => s.state === 'open') ?? sessions[0];
  const definitions = blob ? options.definitions.filter((d) => d.revisionId === blob.defaultRevisionId && d.alias) : [];
  const definition = definitions.find((d) => d.alias === 'triage') ?? definitions[0];
  return {
    alias: '',
    description: '',
    repeat: 'recurring_cron',
    cron_expression: '0 9 ? * MON-FRI *',
    rate_expression: '5 minutes',
    invocation_time: '',
    timezone: 'UTC',
    start_date: '',
    end_date: '',
    enabled: true,
    paused: { note: '' },
    retry_policy: { mode: 'off', maximum_retry_attempts: DELIVERY_DEFAULTS.maximumRetryAttempts, maximum_event_age_seconds: DELIVERY_DEFAULTS.maximumEventAgeSeconds },
    dead_letter: { arn: '' },
    flexible_time_window: { mode: 'off', maximum_window_minutes: DELIVERY_DEFAULTS.windowMinutes },
    action_after_completion: 'none',
    pause_after_failures: '',
    invocation_target_type: 'workflow',
    invocation_target: {
      ...BLANK_TARGETS,
      headers: [],
      ecs_parameters: ecsValues(undefined),
      target: {
        org: blob ? (blob.orgAlias ?? blob.orgId) : 'acme-corp',
        blob: blob ? (blob.alias ?? blob.id) : 'procedures',
        revision: 'default',
        session: session?.alias ?? 'nightly-batch',
      },
      workflow: { org: '', blob: '', revision: '', definition: definition?.alias ?? 'triage' },
      input_data: '',
    },
  };
}
