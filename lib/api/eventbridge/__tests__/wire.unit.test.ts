/**
 * SPEC §14 wire rules: validation from the AWS model in Coral wording, routes, and the mapping of
 * EventBridge schedules onto the product's fields (the cadence seam included).
 */
import { describe, expect, it } from 'vitest';
import type { GroupSchedule } from '../groups/group-schedules';
import { AwsError } from '../errors';
import { routeRequest } from '../router';
import { toDomainSchedule, toWireSchedule } from '../schedule-mapping';
import { validateInput } from '../validate';
import { decodeNextToken, encodeNextToken, type EventBridgeContext, type WireScheduleInput } from '../wire';

const ctx = { region: 'eu-west-1', accountId: '123456789012' } as EventBridgeContext;
const ROLE = 'arn:aws:iam::123456789012:role/r';

function thrown(f: () => unknown): { code: string; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof AwsError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected a refusal');
}

const wire = (over: Partial<WireScheduleInput> = {}): WireScheduleInput => ({
  Name: 'n1',
  ScheduleExpression: 'cron(0 8 * * ? *)',
  FlexibleTimeWindow: { Mode: 'OFF' },
  Target: { Arn: 'arn:aws:scheduler:eu-west-1:123456789012:workflow/acme-corp/procedures/default/nightly-batch/triage', RoleArn: ROLE },
  ...over,
});

describe('validation from the AWS model (Coral wording)', () => {
  it('every missing required member, in model order', () => {
    expect(thrown(() => validateInput('CreateSchedule', { Name: 'x' }))).toEqual({
      code: 'ValidationException',
      message:
        "3 validation errors detected: Value null at 'flexibleTimeWindow' failed to satisfy constraint: Member must not be null; " +
        "Value null at 'scheduleExpression' failed to satisfy constraint: Member must not be null; " +
        "Value null at 'target' failed to satisfy constraint: Member must not be null",
    });
  });

  it('lengths, enums, ranges and nested list members', () => {
    expect(thrown(() => validateInput('CreateSchedule', { ...wire(), State: 'ON', Description: 'x'.repeat(513) })).message).toBe(
      `2 validation errors detected: Value '${'x'.repeat(513)}' at 'description' failed to satisfy constraint: Member must have length less than or equal to 512; ` +
        "Value 'ON' at 'state' failed to satisfy constraint: Member must satisfy enum value set: [ENABLED, DISABLED]",
    );
    expect(thrown(() => validateInput('ListSchedules', { MaxResults: 0 })).message).toBe(
      "1 validation error detected: Value '0' at 'maxResults' failed to satisfy constraint: Member must have value greater than or equal to 1",
    );
    expect(thrown(() => validateInput('CreateScheduleGroup', { Name: 'g', Tags: [{ Key: 'k' }] })).message).toBe(
      "1 validation error detected: Value null at 'tags.1.member.value' failed to satisfy constraint: Member must not be null",
    );
    expect(thrown(() => validateInput('CreateSchedule', { ...wire(), Target: { ...wire().Target, EventBridgeParameters: { DetailType: 'd', Source: 'aws.events' } } })).message).toMatch(
      /^1 validation error detected: Value 'aws\.events' at 'target\.eventBridgeParameters\.source' failed to satisfy constraint: Member must satisfy regular expression pattern/,
    );
    expect(() => validateInput('CreateSchedule', { ...wire(), Target: { ...wire().Target, EventBridgeParameters: { DetailType: 'd', Source: 'my.app' } } })).not.toThrow();
  });

  it('a value of the wrong JSON type is a SerializationException', () => {
    expect(thrown(() => validateInput('CreateSchedule', { ...wire(), FlexibleTimeWindow: { Mode: 'FLEXIBLE', MaximumWindowInMinutes: '5' } })).code).toBe('SerializationException');
  });

  it('a timestamp no Date can hold is a SerializationException, not a server error', () => {
    for (const StartDate of [1e20, -1e15, 8.64e12 + 1]) {
      expect(thrown(() => validateInput('CreateSchedule', { ...wire(), StartDate } as never))).toEqual({
        code: 'SerializationException',
        message: `Value '${JSON.stringify(StartDate)}' at 'startDate' must be a timestamp (epoch seconds)`,
      });
    }
    expect(() => validateInput('CreateSchedule', { ...wire(), StartDate: 8.64e12, EndDate: -8.64e12 } as never)).not.toThrow();
  });
});

describe('routes', () => {
  it('labels, query members (ScheduleGroup, repeated TagKeys) and the body', () => {
    expect(routeRequest('GET', '/schedules', 'ScheduleGroup=g1&NamePrefix=a&MaxResults=5', '')).toEqual({ op: 'ListSchedules', input: { GroupName: 'g1', NamePrefix: 'a', MaxResults: 5 } });
    expect(routeRequest('DELETE', '/tags/arn%3Aaws%3Ascheduler%3Aeu-west-1%3A123456789012%3Aschedule-group%2Fg', 'TagKeys=a&TagKeys=b', '')).toEqual({
      op: 'UntagResource',
      input: { ResourceArn: 'arn:aws:scheduler:eu-west-1:123456789012:schedule-group/g', TagKeys: ['a', 'b'] },
    });
    expect(routeRequest('PUT', '/schedules/n1', '', '{"GroupName":"g","Unknown":1}')).toEqual({ op: 'UpdateSchedule', input: { Name: 'n1', GroupName: 'g' } });
    expect(thrown(() => routeRequest('PATCH', '/schedules/n1', '', '')).code).toBe('UnknownOperationException');
    expect(thrown(() => routeRequest('POST', '/schedules/n1', '', '{not json')).code).toBe('SerializationException');
  });
});

describe('EventBridge schedule → product fields (SPEC §14)', () => {
  it('cron, timezone default UTC, State, dates in epoch seconds, Input as input_data', () => {
    const d = toDomainSchedule(wire({ StartDate: 1796137501.204, State: 'DISABLED', Target: { ...wire().Target, Input: '{"hours":24}' } }), ctx, 'default');
    expect(d.input).toEqual({
      repeat: 'recurring_cron',
      cron_expression: '0 8 * * ? *',
      timezone: 'UTC',
      description: null,
      start_date: '2026-12-01T15:05:01.204Z',
      end_date: null,
      enabled: false,
      flexible_time_window: { mode: 'off' },
      retry_policy: { maximum_retry_attempts: 185, maximum_event_age_seconds: 86400 },
      dead_letter: null,
      action_after_completion: 'none',
      invocation_target_type: 'workflow',
      invocation_target: {
        target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
        workflow: { definition: 'triage' },
        input_data: [{ alias: 'input', value: { hours: 24 } }],
      },
    });
    expect(d.eventbridge.defaultEvent).toBeUndefined();
  });

  it('an Input that is already [{alias, value}] is the input_data; no Input means the default event', () => {
    const given = toDomainSchedule(wire({ Target: { ...wire().Target, Input: '[{"alias":"a","value":[1]}]' } }), ctx, 'g');
    expect((given.input.invocation_target as { input_data: unknown }).input_data).toEqual([{ alias: 'a', value: [1] }]);
    expect(toDomainSchedule(wire(), ctx, 'g').eventbridge.defaultEvent).toEqual({ arn: 'arn:aws:scheduler:eu-west-1:123456789012:schedule/g/n1', region: 'eu-west-1', account: '123456789012' });
    expect(thrown(() => toDomainSchedule(wire({ Target: { ...wire().Target, Input: 'not json' } }), ctx, 'g')).code).toBe('ValidationException');
  });

  it('at() → one_time; http(s) URLs → http targets (Input: the JSON value, or the text); other ARNs → aws targets', () => {
    const target = (t: Parameters<typeof wire>[0]) => {
      const { invocation_target_type, invocation_target } = toDomainSchedule(wire(t), ctx, 'g').input;
      return { invocation_target_type, invocation_target };
    };
    expect(toDomainSchedule(wire({ ScheduleExpression: 'at(2027-01-01T09:30:00)' }), ctx, 'g').input).toMatchObject({ repeat: 'one_time', invocation_time: '2027-01-01T09:30:00' });
    expect(target({ Target: { Arn: 'https://example.com/hook', RoleArn: ROLE, Input: 'hi' } })).toEqual({ invocation_target_type: 'http', invocation_target: { url: 'https://example.com/hook', body: 'hi' } });
    expect(target({ Target: { Arn: 'https://example.com/hook', RoleArn: ROLE, Input: '{"n":1,"tags":["a"]}' } })).toEqual({
      invocation_target_type: 'http',
      invocation_target: { url: 'https://example.com/hook', body: { n: 1, tags: ['a'] } },
    });
    expect(target({ Target: { Arn: 'http://example.com/', RoleArn: ROLE } })).toEqual({ invocation_target_type: 'http', invocation_target: { url: 'http://example.com/' } });
    expect(target({ Target: { Arn: 'arn:aws:sqs:eu-west-1:123456789012:q.fifo', RoleArn: ROLE, SqsParameters: { MessageGroupId: 'g' } } })).toEqual({
      invocation_target_type: 'aws',
      invocation_target: { arn: 'arn:aws:sqs:eu-west-1:123456789012:q.fifo', role_arn: ROLE, sqs_parameters: { message_group_id: 'g' } },
    });
    expect(
      target({
        Target: {
          Arn: 'arn:aws:ecs:eu-west-1:123456789012:cluster/c',
          RoleArn: ROLE,
          EcsParameters: { TaskDefinitionArn: 'arn:aws:ecs:eu-west-1:123456789012:task-definition/t:1', TaskCount: 2, LaunchType: 'FARGATE', NetworkConfiguration: { awsvpcConfiguration: { Subnets: ['s-1'] } } },
        },
      }).invocation_target,
    ).toEqual({
      arn: 'arn:aws:ecs:eu-west-1:123456789012:cluster/c',
      role_arn: ROLE,
      ecs_parameters: { task_definition_arn: 'arn:aws:ecs:eu-west-1:123456789012:task-definition/t:1', task_count: 2, launch_type: 'FARGATE', network_configuration: { awsvpc_configuration: { subnets: ['s-1'] } } },
    });
  });

  it('the cadence seam: rate() is a recurring_rate; the window, retry policy, dead letter and after-completion map onto SPEC §12', () => {
    const input = (over: Parameters<typeof wire>[0] = {}) => toDomainSchedule(wire(over), ctx, 'g').input;
    expect(input({ ScheduleExpression: 'rate(7 minutes)' })).toMatchObject({ repeat: 'recurring_rate', rate_expression: '7 minutes' });
    expect(input({ ScheduleExpression: 'rate(1 minute)' }).rate_expression).toBe('1 minute');
    expect(input({ ScheduleExpression: 'rate(7 minutes)' }).cron_expression).toBeUndefined();
    expect(thrown(() => input({ ScheduleExpression: 'rate(10 minutess)' }))).toEqual({ code: 'ValidationException', message: 'Invalid Schedule Expression rate(10 minutess).' });
    // Nothing sent: AWS's defaults (185 retries within a day), no dead letter, window off, after completion none.
    expect(input()).toMatchObject({
      flexible_time_window: { mode: 'off' },
      retry_policy: { maximum_retry_attempts: 185, maximum_event_age_seconds: 86400 },
      dead_letter: null,
      action_after_completion: 'none',
    });
    const dlq = 'arn:aws:sqs:eu-west-1:123456789012:dlq';
    expect(
      input({
        FlexibleTimeWindow: { Mode: 'FLEXIBLE', MaximumWindowInMinutes: 10 },
        Target: { ...wire().Target, RetryPolicy: { MaximumRetryAttempts: 2 }, DeadLetterConfig: { Arn: dlq } },
        ActionAfterCompletion: 'DELETE',
      }),
    ).toMatchObject({
      flexible_time_window: { mode: 'flexible', maximum_window_minutes: 10 },
      retry_policy: { maximum_retry_attempts: 2, maximum_event_age_seconds: 86400 },
      dead_letter: { arn: dlq },
      action_after_completion: 'delete',
    });
    expect(thrown(() => toDomainSchedule(wire({ FlexibleTimeWindow: { Mode: 'FLEXIBLE' } }), ctx, 'g')).message).toBe(
      "1 validation error detected: Value null at 'flexibleTimeWindow.maximumWindowInMinutes' failed to satisfy constraint: Member must not be null when flexibleTimeWindow.mode is FLEXIBLE",
    );
  });

  it('a schedule made through the product API is answered with its own cadence fields and a derived workflow Target', () => {
    const gs: GroupSchedule = {
      groupName: 'ops-scheduler',
      eventbridge: null,
      schedule: {
        id: '6f1c2e9a-4a3b-4c59-9f7e-0d3c1b2a4e5f',
        name: 'nightly-triage',
        alias: 'nightly-triage',
        repeat: 'recurring_cron',
        cron_expression: '0 2 * * ? *',
        timezone: 'Europe/Berlin',
        enabled: false,
        state: 'active',
        invocation_target_type: 'workflow',
        invocation_target: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' }, input_data: [{ alias: 'w', value: 1 }] },
        next_fire_at: null,
        created_by: { type: 'user', id: 'u' },
        skipped_occurrences: 0,
        version: 1,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-02T00:00:00.500Z',
      },
    };
    expect(toWireSchedule(gs, ctx)).toEqual({
      ActionAfterCompletion: 'NONE',
      Arn: 'arn:aws:scheduler:eu-west-1:123456789012:schedule/ops-scheduler/nightly-triage',
      CreationDate: 1767225600,
      FlexibleTimeWindow: { Mode: 'OFF' },
      GroupName: 'ops-scheduler',
      LastModificationDate: 1767312000.5,
      Name: 'nightly-triage',
      ScheduleExpression: 'cron(0 2 * * ? *)',
      ScheduleExpressionTimezone: 'Europe/Berlin',
      State: 'DISABLED',
      Target: {
        Arn: 'arn:aws:scheduler:eu-west-1:123456789012:workflow/acme-corp/procedures/default/nightly-batch/triage',
        Input: '[{"alias":"w","value":1}]',
        RoleArn: 'arn:aws:iam::123456789012:role/scheduler-product-api',
        // No retry_policy in the product means one attempt (SPEC §12.2): no retries, not AWS's 185.
        RetryPolicy: { MaximumEventAgeInSeconds: 86400, MaximumRetryAttempts: 0 },
      },
    });
    // A rate schedule with a window, retries, a dead letter and delete-after-completion, set in the web app.
    const dlq = 'arn:aws:sqs:eu-west-1:123456789012:ops-dlq';
    const rated: GroupSchedule = {
      ...gs,
      schedule: {
        ...gs.schedule,
        repeat: 'recurring_rate',
        cron_expression: undefined,
        rate_expression: '15 minutes',
        flexible_time_window: { mode: 'flexible', maximum_window_minutes: 10 },
        retry_policy: { maximum_retry_attempts: 3, maximum_event_age_seconds: 3600 },
        dead_letter: { arn: dlq },
        action_after_completion: 'delete',
      },
    };
    expect(toWireSchedule(rated, ctx)).toMatchObject({
      ActionAfterCompletion: 'DELETE',
      FlexibleTimeWindow: { Mode: 'FLEXIBLE', MaximumWindowInMinutes: 10 },
      ScheduleExpression: 'rate(15 minutes)',
      Target: { RetryPolicy: { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 3 }, DeadLetterConfig: { Arn: dlq } },
    });
  });
});

describe('NextToken cursors (SPEC §14: a forged one is a ValidationException, never a 500)', () => {
  const isCursor = (c: Record<string, unknown>): c is { t: number; id: string } & Record<string, unknown> => typeof c.t === 'number' && typeof c.id === 'string';
  const forged = (t: number) => Buffer.from(JSON.stringify({ v: 1, t, id: '', n: '' })).toString('base64url');
  it('a token this server made decodes; instants before 1970 or after year 9999 are refused', () => {
    const t = Date.UTC(2026, 11, 4);
    expect(decodeNextToken(encodeNextToken({ t, id: 'x' }), isCursor)).toMatchObject({ t, id: 'x' });
    expect(decodeNextToken(forged(Date.UTC(9999, 11, 31, 23, 59, 59, 999)), isCursor).t).toBe(253402300799999);
    // The fuzz's token: year 143,855, inside a Date's range but not PostgreSQL's timestamps.
    for (const t of [4477596320553966, 253402300800000, -1, 8.64e15]) {
      expect(() => decodeNextToken(forged(t), isCursor), String(t)).toThrow(expect.objectContaining({ code: 'ValidationException', message: 'The NextToken is not valid.' }));
    }
  });
});
