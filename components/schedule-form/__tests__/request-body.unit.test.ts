/**
 * The form's values → the request body of SPEC §5.1: a create leaves blank optional fields out, an
 * edit sends them as null (clearing them) and sends only the fields changed (SPEC §3.1).
 */
import { describe, expect, it } from 'vitest';
import { changedBody, toRequestBody } from '../request-body';
import type { Schedule } from '@/lib/schedules/contract';
import { defaultValues, toWallTime, utcOrNull, valuesFromSchedule, type ScheduleFormValues } from '../values';

const defaults = defaultValues({ orgs: [], blobs: [], sessions: [], definitions: [] });
const values: ScheduleFormValues = {
  ...defaults,
  alias: ' nightly-report ',
  cron_expression: ' 0 9 ? * MON-FRI * ',
  invocation_time: '2026-05-01T09:00',
  timezone: 'Europe/Berlin',
  start_date: '2026-01-01T00:00',
  invocation_target: { ...defaults.invocation_target, input_data: '[{"alias": "ticket_window", "value": {"hours": 24}}]' },
};

describe('toRequestBody', () => {
  it('create: trims, leaves blank optional fields out, reads start and end dates as UTC', () => {
    expect(toRequestBody(values, 'create')).toEqual({
      body: {
        alias: 'nightly-report',
        repeat: 'recurring_cron',
        cron_expression: '0 9 ? * MON-FRI *',
        timezone: 'Europe/Berlin',
        start_date: '2026-01-01T00:00:00Z',
        enabled: true,
        invocation_target_type: 'workflow',
        invocation_target: {
          target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
          workflow: { definition: 'triage' },
          input_data: [{ alias: 'ticket_window', value: { hours: 24 } }],
        },
      },
      problems: {},
    });
  });

  it('edit: a blank optional field is sent as null, which clears it', () => {
    const { body } = toRequestBody({ ...values, alias: '  ' }, 'edit');
    expect(body.alias).toBeNull();
    expect(body.description).toBeNull();
    expect(body.end_date).toBeNull();
  });

  it('one-time: sends the invocation time as wall time with seconds, and no cron expression', () => {
    const { body } = toRequestBody({ ...values, repeat: 'one_time' }, 'create');
    expect(body.invocation_time).toBe('2026-05-01T09:00:00');
    expect('cron_expression' in body).toBe(false);
  });

  it('input data that is not JSON is reported, and [] is sent in its place', () => {
    const r = toRequestBody({ ...values, invocation_target: { ...values.invocation_target, input_data: '[{' } }, 'create');
    expect(r.problems['invocation_target.input_data']).toMatch(/^Not valid JSON: /);
    expect((r.body.invocation_target as { input_data: unknown }).input_data).toEqual([]);
  });
});

describe('toRequestBody: delivery (SPEC §12)', () => {
  const delivery: ScheduleFormValues = {
    ...values,
    repeat: 'recurring_rate',
    rate_expression: ' 5 minutes ',
    retry_policy: { mode: 'retry', maximum_retry_attempts: '2', maximum_event_age_seconds: ' 3600 ' },
    dead_letter: { arn: ' arn:aws:sqs:us-east-1:123456789012:dlq ' },
    flexible_time_window: { mode: 'flexible', maximum_window_minutes: '10' },
    action_after_completion: 'delete',
    pause_after_failures: '3',
  };

  it('create: sends each setting as the contract names it, numbers as numbers', () => {
    const { body } = toRequestBody(delivery, 'create');
    expect(body).toMatchObject({
      repeat: 'recurring_rate',
      rate_expression: '5 minutes',
      retry_policy: { maximum_retry_attempts: 2, maximum_event_age_seconds: 3600 },
      dead_letter: { arn: 'arn:aws:sqs:us-east-1:123456789012:dlq' },
      flexible_time_window: { mode: 'flexible', maximum_window_minutes: 10 },
      action_after_completion: 'delete',
      pause_after_failures: 3,
    });
    expect('cron_expression' in body).toBe(false);
    expect('paused' in body).toBe(false);
  });

  it('create: settings at their defaults are left out', () => {
    const { body } = toRequestBody(values, 'create');
    for (const k of ['retry_policy', 'dead_letter', 'flexible_time_window', 'action_after_completion', 'pause_after_failures', 'paused']) expect(k in body, k).toBe(false);
  });

  it('edit: off clears the policy, the dead letter and the pause threshold (null) and turns the window off', () => {
    const { body } = toRequestBody(values, 'edit');
    expect(body).toMatchObject({ retry_policy: null, dead_letter: null, flexible_time_window: { mode: 'off' }, action_after_completion: 'none', pause_after_failures: null });
  });

  it('a number that is not a decimal number is sent as typed, for the contract to refuse at its field', () => {
    const { body } = toRequestBody({ ...delivery, retry_policy: { ...delivery.retry_policy, maximum_retry_attempts: '1e3' }, pause_after_failures: '2.5' }, 'create');
    expect(body.retry_policy).toEqual({ maximum_retry_attempts: '1e3', maximum_event_age_seconds: 3600 });
    expect(body.pause_after_failures).toBe(2.5);
  });

  it('§12.5: the pause note goes only with a disabled schedule; blank clears it in edit', () => {
    expect(toRequestBody({ ...values, enabled: true, paused: { note: 'maintenance' } }, 'create').body.paused).toBeUndefined();
    expect(toRequestBody({ ...values, enabled: false, paused: { note: ' maintenance ' } }, 'create').body.paused).toEqual({ note: 'maintenance' });
    expect(toRequestBody({ ...values, enabled: false, paused: { note: '' } }, 'create').body.paused).toBeUndefined();
    expect(toRequestBody({ ...values, enabled: false, paused: { note: '' } }, 'edit').body.paused).toEqual({ note: null });
  });
});

describe('changedBody', () => {
  it('§3.1: edit sends only the fields changed; a changed cadence brings its time field', () => {
    const { body } = toRequestBody(values, 'edit');
    expect(changedBody(body, { description: true }, values)).toEqual({ description: null });
    expect(changedBody(body, { cron_expression: true }, values)).toEqual({ cron_expression: '0 9 ? * MON-FRI *' });
    const oneTime = { ...values, repeat: 'one_time' as const };
    expect(changedBody(toRequestBody(oneTime, 'edit').body, { repeat: true }, oneTime)).toEqual({ repeat: 'one_time', invocation_time: '2026-05-01T09:00:00' });
    expect(changedBody(body, {}, values)).toEqual({});
  });

  it('§3.1: a changed delivery setting sends its whole field; a dirty note of a schedule being enabled is not sent', () => {
    const v: ScheduleFormValues = { ...values, retry_policy: { mode: 'retry', maximum_retry_attempts: '4', maximum_event_age_seconds: '600' }, paused: { note: 'n' } };
    const { body } = toRequestBody(v, 'edit');
    expect(changedBody(body, { retry_policy: { maximum_retry_attempts: true } }, v)).toEqual({ retry_policy: { maximum_retry_attempts: 4, maximum_event_age_seconds: 600 } });
    // react-hook-form may keep a node whose leaves went back to clean: nothing is sent for it.
    expect(changedBody(body, { retry_policy: { maximum_retry_attempts: false }, flexible_time_window: {} }, v)).toEqual({});
    expect(changedBody(body, { paused: { note: true } }, v)).toEqual({});
    const disabled = { ...v, enabled: false };
    expect(changedBody(toRequestBody(disabled, 'edit').body, { enabled: true, paused: { note: true } }, disabled)).toEqual({ enabled: false, paused: { note: 'n' } });
  });
});

describe('datetime inputs', () => {
  it('toWallTime adds the seconds the input drops and cuts fractions', () => {
    expect(toWallTime('2026-03-08T02:30')).toBe('2026-03-08T02:30:00');
    expect(toWallTime('2026-03-08T02:30:15.250')).toBe('2026-03-08T02:30:15');
    expect(toWallTime(' 2026-03-08T02:30:15 ')).toBe('2026-03-08T02:30:15');
  });

  it('utcOrNull reads the input as a UTC instant', () => {
    expect(utcOrNull('2026-01-01T00:00')).toBe('2026-01-01T00:00:00.000Z');
    expect(utcOrNull('')).toBeNull();
    expect(utcOrNull('not a date')).toBeNull();
  });
});

describe('toRequestBody: webhook and AWS targets (SPEC §13)', () => {
  const t = defaults.invocation_target;
  it('a webhook sends its URL, method, named header rows, JSON body and timeout; blanks are left out', () => {
    const v: ScheduleFormValues = {
      ...values,
      invocation_target_type: 'http',
      invocation_target: { ...t, url: ' https://example.com/hook ', method: 'PUT', headers: [{ name: 'Authorization', value: 'Bearer x' }, { name: ' ', value: 'dropped' }], body: '{"a": [1]}', timeout_seconds: '5' },
    };
    const r = toRequestBody(v, 'create');
    expect(r.problems).toEqual({});
    expect(r.body.invocation_target_type).toBe('http');
    expect(r.body.invocation_target).toEqual({ url: 'https://example.com/hook', method: 'PUT', headers: { Authorization: 'Bearer x' }, body: { a: [1] }, timeout_seconds: 5 });
    const bare = toRequestBody({ ...v, invocation_target: { ...v.invocation_target, headers: [], body: ' ', timeout_seconds: '' } }, 'create');
    expect(bare.body.invocation_target).toEqual({ url: 'https://example.com/hook', method: 'PUT' });
  });

  it('a webhook body that is not JSON and a header named twice are reported at their fields', () => {
    const v: ScheduleFormValues = { ...values, invocation_target_type: 'http', invocation_target: { ...t, url: 'https://e.example/', body: '{', headers: [{ name: 'X', value: '1' }, { name: 'X', value: '2' }] } };
    const { problems } = toRequestBody(v, 'create');
    expect(problems['invocation_target.body']).toMatch(/^Not valid JSON: /);
    expect(problems['invocation_target.headers']).toBe('Header "X" is given twice.');
  });

  it('an AWS target sends the message group id for SQS and the detail type and source for an event bus, each only for its service', () => {
    const v = (over: Partial<ScheduleFormValues['invocation_target']>): ScheduleFormValues => ({ ...values, invocation_target_type: 'aws', invocation_target: { ...t, ...over } });
    const sqs = toRequestBody(v({ arn: 'arn:aws:sqs:eu-west-1:123456789012:o.fifo', sqs_parameters: { message_group_id: 'g1' }, eventbridge_parameters: { detail_type: 'ignored', source: 'x' } }), 'create');
    expect(sqs.body.invocation_target).toEqual({ arn: 'arn:aws:sqs:eu-west-1:123456789012:o.fifo', sqs_parameters: { message_group_id: 'g1' } });
    const bus = toRequestBody(v({ arn: 'arn:aws:events:eu-west-1:123456789012:event-bus/default', role_arn: ' arn:aws:iam::123456789012:role/r ', input: '{"a":1}', eventbridge_parameters: { detail_type: 'Report', source: 'com.example' } }), 'create');
    expect(bus.body.invocation_target).toEqual({ arn: 'arn:aws:events:eu-west-1:123456789012:event-bus/default', role_arn: 'arn:aws:iam::123456789012:role/r', input: '{"a":1}', eventbridge_parameters: { detail_type: 'Report', source: 'com.example' } });
  });

  it('§13.2 an ECS cluster sends ecs_parameters (lists split on commas, spaces and lines; blanks left out) and no input', () => {
    const cluster = 'arn:aws:ecs:eu-west-1:123456789012:cluster/reports';
    const ecs = t.ecs_parameters;
    const v: ScheduleFormValues = {
      ...values,
      invocation_target_type: 'aws',
      invocation_target: {
        ...t,
        arn: cluster,
        role_arn: 'arn:aws:iam::123456789012:role/r',
        input: '{"left": "out"}',
        ecs_parameters: {
          ...ecs,
          task_definition_arn: ' arn:aws:ecs:eu-west-1:123456789012:task-definition/report:3 ',
          task_count: '2',
          launch_type: 'FARGATE',
          network_configuration: { awsvpc_configuration: { subnets: 'subnet-1, subnet-2\nsubnet-3', security_groups: ' sg-1 ', assign_public_ip: 'ENABLED' } },
        },
      },
    };
    expect(toRequestBody(v, 'create').body.invocation_target).toEqual({
      arn: cluster,
      role_arn: 'arn:aws:iam::123456789012:role/r',
      ecs_parameters: {
        task_definition_arn: 'arn:aws:ecs:eu-west-1:123456789012:task-definition/report:3',
        task_count: 2,
        launch_type: 'FARGATE',
        network_configuration: { awsvpc_configuration: { subnets: ['subnet-1', 'subnet-2', 'subnet-3'], security_groups: ['sg-1'], assign_public_ip: 'ENABLED' } },
      },
    });
    const bare = toRequestBody({ ...v, invocation_target: { ...v.invocation_target, ecs_parameters: { ...ecs, task_definition_arn: 'report:3' } } }, 'create');
    expect(bare.body.invocation_target).toEqual({ arn: cluster, role_arn: 'arn:aws:iam::123456789012:role/r', ecs_parameters: { task_definition_arn: 'report:3' } });
  });

  it('§13.2 a stored ECS target comes back as the same request (edit keeps every field of ecs_parameters)', () => {
    const ecsParameters = {
      task_definition_arn: 'report:3', task_count: 3, launch_type: 'EC2' as const, platform_version: '1.4.0', group: 'family:report',
      network_configuration: { awsvpc_configuration: { subnets: ['subnet-1', 'subnet-2'], security_groups: ['sg-1'], assign_public_ip: 'DISABLED' as const } },
    };
    const target = { arn: 'arn:aws:ecs:eu-west-1:123456789012:cluster/reports', role_arn: 'arn:aws:iam::123456789012:role/r', ecs_parameters: ecsParameters };
    const stored: Schedule = {
      id: '6f1c2e9a-4a3b-4c59-9f7e-0d3c1b2a4e5f', name: 'reports', repeat: 'recurring_cron', cron_expression: '0 6 * * ? *', timezone: 'UTC', enabled: true, state: 'active',
      invocation_target_type: 'aws', invocation_target: target, next_fire_at: null, created_by: { type: 'user', id: 'u' }, skipped_occurrences: 0, version: 1,
      created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z',
    };
    expect(toRequestBody(valuesFromSchedule(stored), 'edit').body.invocation_target).toEqual(target);
  });

  it('edit: a changed target is sent with its type', () => {
    const v: ScheduleFormValues = { ...values, invocation_target_type: 'http', invocation_target: { ...t, url: 'https://e.example/' } };
    const { body } = toRequestBody(v, 'edit');
    expect(changedBody(body, { invocation_target: { url: true } }, v)).toEqual({ invocation_target_type: 'http', invocation_target: { url: 'https://e.example/', method: 'POST' } });
    expect(changedBody(body, { description: true }, v)).toEqual({ description: null });
  });
});
