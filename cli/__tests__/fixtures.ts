/** Shared fixtures for the CLI unit tests: a manifest text and deployed schedules as the API returns them. */
import type { Schedule, ScheduleWritableField, WorkflowSchedule } from '../../lib/schedules/contract';

export const PINNED_REVISION = '11111111-2222-4333-8444-555555555555';
export const SESSION_ID = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

/** Line numbers matter: tests name them. */
export const MANIFEST = `# ops schedules
scheduler:
  org: acme-corp
  blob: ops-scheduler
schedules:
  nightly-report:            # line 6
    description: Nightly report
    repeat: recurring_cron
    cron_expression: "0 2 * * ? *"
    timezone: Europe/Berlin
    start_date: 2026-01-01T00:00:00+01:00
    invocation_target:
      target: {org: acme-corp, blob: procedures, revision: default, session: nightly-batch}
      workflow: {definition: daily-report}
  pinned-triage:             # line 15
    repeat: recurring_cron
    cron_expression: "30 6 ? * MON-FRI *"
    timezone: UTC
    invocation_target:
      target:
        org: acme-corp
        blob: procedures
        revision: ${PINNED_REVISION}
        session: nightly-batch
      workflow: {definition: triage}
      input_data:
        - alias: ticket_window
          value: {hours: 24, scope: all}
`;

/** A deployed schedule with the given writable fields (defaults: a following daily-report target). */
export function deployed(fields: Partial<WorkflowSchedule> & { alias?: string }): WorkflowSchedule {
  const id = fields.id ?? '99999999-0000-4000-8000-000000000001';
  return {
    id,
    name: fields.alias ?? id,
    repeat: 'recurring_cron',
    timezone: 'UTC',
    enabled: true,
    state: 'active',
    invocation_target_type: 'workflow',
    invocation_target: {
      target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
      workflow: { definition: 'daily-report' },
      input_data: [],
    },
    next_fire_at: '2026-12-01T01:00:00.000Z',
    created_by: { type: 'org', id: 'org-1' },
    skipped_occurrences: 0,
    version: 1,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    ...fields,
  };
}

/** The two MANIFEST entries as the server would store them (pinned session rewritten to its id). */
export function deployedManifest(): WorkflowSchedule[] {
  return [
    deployed({
      id: '99999999-0000-4000-8000-000000000001',
      alias: 'nightly-report',
      description: 'Nightly report',
      cron_expression: '0 2 * * ? *',
      timezone: 'Europe/Berlin',
      start_date: '2025-12-31T23:00:00.000Z',
    }),
    deployed({
      id: '99999999-0000-4000-8000-000000000002',
      alias: 'pinned-triage',
      cron_expression: '30 6 ? * MON-FRI *',
      invocation_target: {
        target: { org: 'acme-corp', blob: 'procedures', revision: PINNED_REVISION, session: SESSION_ID },
        workflow: { definition: 'triage' },
        input_data: [{ alias: 'ticket_window', value: { scope: 'all', hours: 24 } }],
      },
    }),
  ];
}

/** Resolves `nightly-batch` in the pinned revision to SESSION_ID, as the target check would. */
export const resolvePinned = (revision: string, ref: string, storedId: string) => revision === PINNED_REVISION && ref === 'nightly-batch' && storedId === SESSION_ID;

/**
 * One schedule of each cadence (SPEC §5.1, §12.1) and target type (SPEC §6, §13: workflow, http, aws
 * with sqs / eventbridge / ecs parameters), every delivery field set (SPEC §12.2–§12.5), as
 * `create_schedule` takes them (without `alias`: the key) and in the form the API answers them (a
 * `retry_policy` with both fields), so a manifest holding these equals what the server stores.
 * Shared by the unit tests and the integration test against the real API.
 */
export const FULL_SCHEDULES = {
  'once-workflow': {
    description: 'One time, workflow target, disabled with a note',
    repeat: 'one_time',
    invocation_time: '2031-03-01T09:30:00',
    timezone: 'Europe/Berlin',
    start_date: '2030-01-01T00:00:00.000Z',
    end_date: '2032-01-01T00:00:00.000Z',
    flexible_time_window: { mode: 'flexible', maximum_window_minutes: 15 },
    enabled: false,
    paused: { note: 'waiting for the migration' },
    retry_policy: { maximum_retry_attempts: 3, maximum_event_age_seconds: 3600 },
    dead_letter: { arn: 'arn:aws:sqs:us-east-1:123456789012:scheduler-dlq' },
    action_after_completion: 'delete',
    pause_after_failures: 5,
    invocation_target: {
      target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
      workflow: { definition: 'triage' },
      input_data: [{ alias: 'ticket_window', value: { hours: 24, tags: ['a', 'b'] } }],
    },
  },
  'cron-webhook': {
    description: 'Cron, webhook target',
    repeat: 'recurring_cron',
    cron_expression: '0 9 ? * MON-FRI *',
    timezone: 'America/New_York',
    start_date: '2030-02-01T00:00:00.000Z',
    flexible_time_window: { mode: 'flexible', maximum_window_minutes: 30 },
    retry_policy: { maximum_retry_attempts: 10, maximum_event_age_seconds: 7200 },
    dead_letter: { arn: 'arn:aws:sqs:us-east-1:123456789012:webhook-dlq' },
    pause_after_failures: 3,
    completion: { expect_within_seconds: 900 },
    overlap_policy: 'buffer_one',
    invocation_target_type: 'http',
    invocation_target: { url: 'http://127.0.0.1:9/hook', method: 'PUT', headers: { 'X-Team': 'ops', Authorization: 'Bearer abc' }, body: { kind: 'report', items: [] }, timeout_seconds: 20 },
  },
  'rate-sqs': {
    description: 'Rate, SQS FIFO target',
    repeat: 'recurring_rate',
    rate_expression: '10 minutes',
    timezone: 'UTC',
    end_date: '2033-01-01T00:00:00.000Z',
    flexible_time_window: { mode: 'flexible', maximum_window_minutes: 5 },
    retry_policy: { maximum_retry_attempts: 0, maximum_event_age_seconds: 60 },
    dead_letter: { arn: 'arn:aws:sqs:us-east-1:123456789012:sqs-dlq' },
    action_after_completion: 'delete',
    pause_after_failures: 1000,
    catch_up: { window_seconds: 600, mode: 'all', max_burst: 10 },
    invocation_target_type: 'aws',
    invocation_target: { arn: 'arn:aws:sqs:us-east-1:123456789012:jobs.fifo', role_arn: 'arn:aws:iam::123456789012:role/scheduler', input: 'run the job', sqs_parameters: { message_group_id: 'group-1' } },
  },
  'rate-eventbridge': {
    repeat: 'recurring_rate',
    rate_expression: '2 hours',
    timezone: 'Asia/Kolkata',
    retry_policy: { maximum_retry_attempts: 185, maximum_event_age_seconds: 86400 },
    dead_letter: { arn: 'arn:aws:sqs:us-east-1:123456789012:events-dlq' },
    pause_after_failures: 2,
    invocation_target_type: 'aws',
    invocation_target: {
      arn: 'arn:aws:events:us-east-1:123456789012:event-bus/default',
      role_arn: 'arn:aws:iam::123456789012:role/scheduler',
      input: '{"detail":{"n":1}}',
      eventbridge_parameters: { detail_type: 'Scheduled Report', source: 'acme.reports' },
    },
  },
  'cron-ecs': {
    description: 'Cron, ECS target',
    repeat: 'recurring_cron',
    cron_expression: '30 2 * * ? *',
    timezone: 'Australia/Sydney',
    flexible_time_window: { mode: 'flexible', maximum_window_minutes: 60 },
    retry_policy: { maximum_retry_attempts: 2, maximum_event_age_seconds: 600 },
    dead_letter: { arn: 'arn:aws:sqs:us-east-1:123456789012:ecs-dlq' },
    pause_after_failures: 10,
    invocation_target_type: 'aws',
    invocation_target: {
      arn: 'arn:aws:ecs:us-east-1:123456789012:cluster/main',
      role_arn: 'arn:aws:iam::123456789012:role/scheduler',
      ecs_parameters: {
        task_definition_arn: 'arn:aws:ecs:us-east-1:123456789012:task-definition/nightly:3',
        task_count: 2,
        launch_type: 'FARGATE',
        platform_version: '1.4.0',
        group: 'batch',
        network_configuration: { awsvpc_configuration: { subnets: ['subnet-0a1b2c'], security_groups: ['sg-0d1e2f'], assign_public_ip: 'DISABLED' } },
      },
    },
  },
} as const satisfies Record<string, Record<string, unknown>>;
export type FullAlias = keyof typeof FULL_SCHEDULES;

/** A `FULL_SCHEDULES` entry as the API answers it (info fields added; `paused` with who and when). */
export function deployedFull(alias: FullAlias, index = 0): Schedule {
  const input = FULL_SCHEDULES[alias] as Record<string, unknown>;
  const id = `99999999-0000-4000-8000-1000000000${String(index).padStart(2, '0')}`;
  const paused = input.paused as { note: string } | undefined;
  return {
    id,
    alias,
    name: alias,
    state: 'active',
    enabled: true,
    invocation_target_type: 'workflow',
    ...input,
    ...(paused ? { paused: { by: { type: 'org', id: 'org-1' }, at: '2026-11-01T00:00:00.000Z', note: paused.note } } : {}),
    next_fire_at: null,
    created_by: { type: 'org', id: 'org-1' },
    skipped_occurrences: 0,
    version: 1,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
  } as unknown as Schedule;
}

/**
 * One edit of a manifest entry: set (or, with `undefined`, remove) each path. `check` is where and
 * what the API then answers, when that is not the first path and its value as set (an instant
 * normalized, a default the answer omits, a note removed with its `paused`).
 */
export interface FieldEdit {
  alias: FullAlias;
  set: [path: string[], value: unknown][];
  check?: [path: string[], answered: unknown];
}

/**
 * For every writable field but `alias`, the edits that change it, to make in turn on `FULL_SCHEDULES`
 * (in this order, each on the result of the ones before). Typed against the contract's field list, so a
 * field added to the contract fails to compile here until it has edits (and the CLI is checked on it).
 */
export const FIELD_EDITS: Record<Exclude<ScheduleWritableField, 'alias'>, FieldEdit[]> = {
  description: [
    { alias: 'once-workflow', set: [[['description'], 'One time, renamed']] },
    { alias: 'rate-eventbridge', set: [[['description'], 'Rate, EventBridge target']] },
    { alias: 'cron-webhook', set: [[['description'], undefined]] },
  ],
  invocation_time: [{ alias: 'once-workflow', set: [[['invocation_time'], '2031-04-01T10:00:00']] }],
  cron_expression: [{ alias: 'cron-webhook', set: [[['cron_expression'], '15 8 ? * MON-FRI *']] }],
  rate_expression: [{ alias: 'rate-sqs', set: [[['rate_expression'], '20 minutes']] }],
  timezone: [{ alias: 'cron-webhook', set: [[['timezone'], 'Europe/Paris']] }],
  start_date: [
    { alias: 'rate-sqs', set: [[['start_date'], '2030-05-01T02:00:00+02:00']], check: [['start_date'], '2030-05-01T00:00:00.000Z'] },
    { alias: 'cron-webhook', set: [[['start_date'], undefined]] },
  ],
  end_date: [
    { alias: 'cron-ecs', set: [[['end_date'], '2034-06-30T12:00:00Z']], check: [['end_date'], '2034-06-30T12:00:00.000Z'] },
    { alias: 'rate-sqs', set: [[['end_date'], undefined]] },
  ],
  flexible_time_window: [
    { alias: 'rate-eventbridge', set: [[['flexible_time_window'], { mode: 'flexible', maximum_window_minutes: 90 }]] },
    { alias: 'cron-webhook', set: [[['flexible_time_window', 'maximum_window_minutes'], 45]] },
    { alias: 'cron-ecs', set: [[['flexible_time_window'], { mode: 'off' }]], check: [['flexible_time_window'], undefined] },
  ],
  paused: [
    { alias: 'once-workflow', set: [[['paused', 'note'], 'migration done, still paused']] },
    { alias: 'once-workflow', set: [[['paused'], undefined]], check: [['paused', 'note'], undefined] },
  ],
  enabled: [
    { alias: 'rate-sqs', set: [[['enabled'], false]] },
    // Enabling ends the pause (SPEC §12.5): the manifest drops `paused` with it.
    { alias: 'once-workflow', set: [[['enabled'], undefined], [['paused'], undefined]], check: [['enabled'], true] },
  ],
  retry_policy: [
    { alias: 'cron-ecs', set: [[['retry_policy', 'maximum_retry_attempts'], 4]] },
    { alias: 'rate-sqs', set: [[['retry_policy', 'maximum_event_age_seconds'], 900]] },
    { alias: 'rate-eventbridge', set: [[['retry_policy'], undefined]] },
  ],
  dead_letter: [
    { alias: 'cron-webhook', set: [[['dead_letter', 'arn'], 'arn:aws:sqs:eu-west-1:123456789012:other-dlq']] },
    { alias: 'cron-ecs', set: [[['dead_letter'], undefined]] },
  ],
  action_after_completion: [
    { alias: 'cron-webhook', set: [[['action_after_completion'], 'delete']] },
    { alias: 'rate-sqs', set: [[['action_after_completion'], 'none']], check: [['action_after_completion'], undefined] },
  ],
  pause_after_failures: [
    { alias: 'rate-eventbridge', set: [[['pause_after_failures'], 7]] },
    { alias: 'cron-ecs', set: [[['pause_after_failures'], undefined]] },
  ],
  completion: [
    { alias: 'rate-sqs', set: [[['completion'], { expect_within_seconds: 120 }]] },
    { alias: 'cron-webhook', set: [[['completion', 'expect_within_seconds'], 3600]] },
    { alias: 'cron-webhook', set: [[['completion'], undefined]] },
  ],
  overlap_policy: [
    { alias: 'cron-webhook', set: [[['overlap_policy'], 'skip']] },
    { alias: 'cron-ecs', set: [[['overlap_policy'], 'buffer_one']] },
    { alias: 'cron-webhook', set: [[['overlap_policy'], 'allow_all']], check: [['overlap_policy'], undefined] },
  ],
  catch_up: [
    { alias: 'cron-webhook', set: [[['catch_up'], { window_seconds: 3600, mode: 'latest' }]] },
    { alias: 'rate-sqs', set: [[['catch_up', 'max_burst'], 3]] },
    { alias: 'rate-sqs', set: [[['catch_up', 'mode'], 'none']] },
    { alias: 'rate-sqs', set: [[['catch_up'], undefined]] },
  ],
  invocation_target: [
    { alias: 'once-workflow', set: [[['invocation_target', 'workflow', 'definition'], 'daily-report']] },
    { alias: 'once-workflow', set: [[['invocation_target', 'input_data'], [{ alias: 'ticket_window', value: { hours: 48 } }]]] },
    { alias: 'cron-webhook', set: [[['invocation_target', 'url'], 'http://127.0.0.1:9/hook/v2']] },
    { alias: 'cron-webhook', set: [[['invocation_target', 'method'], 'POST']] },
    // Header values are write-only (SPEC §13.5): a header removed or added is a change; a value, answered "••••", is not.
    { alias: 'cron-webhook', set: [[['invocation_target', 'headers', 'X-Team'], undefined]] },
    { alias: 'cron-webhook', set: [[['invocation_target', 'headers', 'X-Trace'], 'on']], check: [['invocation_target', 'headers', 'X-Trace'], '••••'] },
    { alias: 'cron-webhook', set: [[['invocation_target', 'body'], { kind: 'report', items: [1] }]] },
    { alias: 'cron-webhook', set: [[['invocation_target', 'timeout_seconds'], 5]] },
    { alias: 'rate-sqs', set: [[['invocation_target', 'input'], 'run the other job']] },
    { alias: 'rate-sqs', set: [[['invocation_target', 'role_arn'], 'arn:aws:iam::123456789012:role/other']] },
    { alias: 'rate-sqs', set: [[['invocation_target', 'sqs_parameters', 'message_group_id'], 'group-2']] },
    { alias: 'rate-eventbridge', set: [[['invocation_target', 'eventbridge_parameters', 'detail_type'], 'Hourly Report']] },
    { alias: 'rate-eventbridge', set: [[['invocation_target', 'eventbridge_parameters', 'source'], 'acme.hourly']] },
    { alias: 'rate-eventbridge', set: [[['invocation_target', 'input'], '{"detail":{"n":2}}']] },
    { alias: 'cron-ecs', set: [[['invocation_target', 'ecs_parameters', 'task_count'], 3]] },
    { alias: 'cron-ecs', set: [[['invocation_target', 'ecs_parameters', 'launch_type'], 'EC2']] },
    { alias: 'cron-ecs', set: [[['invocation_target', 'ecs_parameters', 'network_configuration', 'awsvpc_configuration', 'subnets'], ['subnet-0a1b2c', 'subnet-3d4e5f']]] },
    { alias: 'cron-ecs', set: [[['invocation_target', 'ecs_parameters', 'network_configuration', 'awsvpc_configuration', 'assign_public_ip'], 'ENABLED']] },
  ],
  // Last: these change what the edits above address.
  repeat: [
    { alias: 'cron-ecs', set: [[['repeat'], 'recurring_rate'], [['cron_expression'], undefined], [['rate_expression'], '45 minutes']] },
    { alias: 'rate-sqs', set: [[['repeat'], 'recurring_cron'], [['rate_expression'], undefined], [['cron_expression'], '0 6 * * ? *']] },
  ],
  invocation_target_type: [
    { alias: 'rate-eventbridge', set: [[['invocation_target_type'], 'http'], [['invocation_target'], { url: 'http://127.0.0.1:9/events', headers: { 'X-Source': 'scheduler' } }]] },
    { alias: 'cron-webhook', set: [[['invocation_target_type'], undefined], [['invocation_target'], FULL_SCHEDULES['once-workflow'].invocation_target]], check: [['invocation_target_type'], 'workflow'] },
  ],
};

/** `FIELD_EDITS` flattened in the order they are made, with the field each one is about. */
export function editsInOrder(): { field: string; edit: FieldEdit }[] {
  return Object.entries(FIELD_EDITS).flatMap(([field, edits]) => edits.map((edit) => ({ field, edit })));
}
