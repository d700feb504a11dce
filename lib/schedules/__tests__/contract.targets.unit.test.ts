/**
 * SPEC §13: one contract per target type. The schedule contract's `http` and `aws` variants are the
 * delivery layer's schemas (the same objects, not copies); a request picks its variant with
 * `invocation_target_type` (left out: `workflow`); bad URLs, headers and ARNs are refused with the
 * SPEC code and the path of the field at fault; rows stored in older shapes still read.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { AwsInvocationTargetSchema as DeliveryAws, HttpInvocationTargetSchema as DeliveryHttp } from '../../targets/contract';
import {
  AwsInvocationTargetSchema,
  firstIssueError,
  HttpInvocationTargetSchema,
  RunSchema,
  ScheduleCreateInput,
  ScheduleSchema,
  ScheduleUpdateInput,
  StoredTargetScheduleInput,
  TARGET_INPUT_SCHEMAS,
  type IssueError,
  type Schedule,
  type ScheduleInfo,
} from '../contract';

type Body = Record<string, unknown>;
const cron = { repeat: 'recurring_cron', cron_expression: '0 9 ? * MON-FRI *', timezone: 'UTC' };
const http = (t: Body, extra: Body = {}): Body => ({ ...cron, invocation_target_type: 'http', invocation_target: t, ...extra });
const aws = (t: Body, extra: Body = {}): Body => ({ ...cron, invocation_target_type: 'aws', invocation_target: t, ...extra });
const SQS = 'arn:aws:sqs:eu-west-1:123456789012:orders';

function refusal(body: unknown, schema: z.ZodType = ScheduleCreateInput): IssueError | null {
  const r = schema.safeParse(body);
  return r.success ? null : firstIssueError(r.error);
}

describe('one declaration per target type', () => {
  it('the schedule contract re-exports the delivery schemas themselves', () => {
    expect(HttpInvocationTargetSchema).toBe(DeliveryHttp);
    expect(AwsInvocationTargetSchema).toBe(DeliveryAws);
    expect(TARGET_INPUT_SCHEMAS.http).toBe(DeliveryHttp);
    expect(TARGET_INPUT_SCHEMAS.aws).toBe(DeliveryAws);
  });

  it('STYLE §3.5 for every type: a Schedule without its info fields is a ScheduleCreateInput', () => {
    expectTypeOf<Omit<Extract<Schedule, { invocation_target_type: 'http' }>, keyof ScheduleInfo>>().toExtend<z.input<typeof ScheduleCreateInput>>();
    expectTypeOf<Omit<Extract<Schedule, { invocation_target_type: 'aws' }>, keyof ScheduleInfo>>().toExtend<z.input<typeof ScheduleCreateInput>>();
  });
});

describe('§13.1 http targets in a schedule', () => {
  it('are accepted with every field, and parse to exactly what was sent', () => {
    const t = { url: 'https://hooks.example.com/in?x=1', method: 'PUT', headers: { Authorization: 'Bearer t' }, body: { report: 'daily', n: [1, 2] }, timeout_seconds: 30 };
    expect(ScheduleCreateInput.parse(http(t))).toEqual(http(t));
    expect(ScheduleCreateInput.parse(http({ url: 'http://hooks.example.com' }))).toEqual(http({ url: 'http://hooks.example.com' }));
  });

  it.each([
    [{ url: 'ftp://hooks.example.com/' }, 'invalid_invocation_target', 'invocation_target.url', 'url must use http or https, not ftp'],
    [{ url: 'not a url' }, 'invalid_invocation_target', 'invocation_target.url', 'url must be an absolute http:// or https:// URL'],
    [{ url: 'https://user:pw@hooks.example.com/' }, 'invalid_invocation_target', 'invocation_target.url', 'url must not carry a user name or password; send credentials in headers'],
    [{ url: `https://hooks.example.com/${'a'.repeat(2040)}` }, 'invalid_request_body', 'invocation_target.url', 'invocation_target.url: url must be at most 2048 characters'],
    [{ url: 'https://hooks.example.com/', method: 'GET' }, 'invalid_request_body', 'invocation_target.method', undefined],
    [{ url: 'https://hooks.example.com/', timeout_seconds: 31 }, 'invalid_request_body', 'invocation_target.timeout_seconds', undefined],
    [{ url: 'https://hooks.example.com/', headers: { 'Webhook-Id': 'x' } }, 'invalid_request_body', 'invocation_target.headers.Webhook-Id', 'invocation_target.headers.Webhook-Id: header "Webhook-Id" is set by the delivery and cannot be configured'],
    [{ url: 'https://hooks.example.com/', headers: { 'Scheduler-Checkin-Url': 'http://elsewhere.example/' } }, 'invalid_request_body', 'invocation_target.headers.Scheduler-Checkin-Url', 'invocation_target.headers.Scheduler-Checkin-Url: header "Scheduler-Checkin-Url" is set by the delivery and cannot be configured'],
    [{ url: 'https://hooks.example.com/', headers: { 'Bad Name': 'x' } }, 'invalid_request_body', 'invocation_target.headers.Bad Name', 'invocation_target.headers.Bad Name: "Bad Name" is not a valid header name'],
    [{ url: 'https://hooks.example.com/', headers: { 'X-A': 'a\r\nX-B: b' } }, 'invalid_request_body', 'invocation_target.headers.X-A', 'invocation_target.headers.X-A: a header value must not contain CR, LF or NUL'],
    [{ url: 'https://hooks.example.com/', arn: SQS }, 'invalid_request_body', 'invocation_target.arn', 'unknown field "arn"'],
  ])('%j is refused: %s at %s', (target, code, path, message) => {
    const e = refusal(http(target));
    expect(e).toMatchObject({ code, path });
    if (message) expect(e?.message).toBe(message);
  });

  it('a target of another type than invocation_target_type says is refused at the field the type expects', () => {
    expect(refusal(http({ target: { blob: 'b', revision: 'default', session: 's' }, workflow: { definition: 'd' } }))).toMatchObject({ code: 'invalid_request_body', path: 'invocation_target.url' });
    expect(refusal({ ...cron, invocation_target_type: 'ftp', invocation_target: {} })).toMatchObject({ code: 'invalid_request_body', path: 'invocation_target_type' });
  });
});

describe('§13.2 aws targets in a schedule', () => {
  it('are accepted: SQS with a role and input, FIFO with its group, an EventBridge bus with its parameters', () => {
    const sqs = { arn: SQS, role_arn: 'arn:aws:iam::123456789012:role/scheduler', input: 'hello' };
    expect(ScheduleCreateInput.parse(aws(sqs))).toEqual(aws(sqs));
    const fifo = { arn: `${SQS}.fifo`, sqs_parameters: { message_group_id: 'orders-1' } };
    expect(ScheduleCreateInput.parse(aws(fifo))).toEqual(aws(fifo));
    const bus = { arn: 'arn:aws:events:eu-west-1:123456789012:event-bus/default', input: '{"a":1}', eventbridge_parameters: { detail_type: 'Report', source: 'com.example' } };
    expect(ScheduleCreateInput.parse(aws(bus))).toEqual(aws(bus));
  });

  it.each([
    [{ arn: 'arn:aws:kinesis:eu-west-1:123456789012:stream/s' }, 'invalid_invocation_target', 'invocation_target.arn', '"kinesis" ARNs are not a supported target; use one of sqs, sns, lambda, states, events, ecs'],
    [{ arn: 'https://hooks.example.com/' }, 'invalid_invocation_target', 'invocation_target.arn', 'arn must look like arn:aws:<service>:<region>:<12-digit account>:<resource>'],
    [{ arn: 'arn:aws:sqs:eu-west-1:123456789012:bad/queue' }, 'invalid_invocation_target', 'invocation_target.arn', 'a sqs target ARN looks like arn:aws:sqs:<region>:<account>:<queue name>'],
    [{ arn: `${SQS}.fifo` }, 'invalid_invocation_target', 'invocation_target.sqs_parameters', 'a FIFO queue needs sqs_parameters.message_group_id'],
    [{ arn: 'arn:aws:lambda:eu-west-1:123456789012:function:f', input: 'not json' }, 'invalid_invocation_target', 'invocation_target.input', 'a lambda target needs JSON input'],
    [{ arn: 'arn:aws:events:eu-west-1:123456789012:event-bus/default' }, 'invalid_invocation_target', 'invocation_target.eventbridge_parameters', 'an EventBridge target needs eventbridge_parameters {detail_type, source}'],
    [{ arn: SQS, role_arn: 'admin' }, 'invalid_request_body', 'invocation_target.role_arn', 'invocation_target.role_arn: role_arn must be an IAM role ARN: arn:aws:iam::<account>:role/<name>'],
  ])('%j is refused: %s at %s', (target, code, path, message) => {
    expect(refusal(aws(target))).toEqual({ code, path, message });
  });

  it('the EventBridge API stores an ARN of another service unchanged (SPEC §14); the supported services and universal targets keep their rules there', () => {
    const kinesis = { arn: 'arn:aws:kinesis:eu-west-1:123456789012:stream/s', role_arn: 'arn:aws:iam::123456789012:role/scheduler', input: 'plain' };
    expect(StoredTargetScheduleInput.parse(aws(kinesis))).toEqual(aws(kinesis));
    // A universal target is stored with its parameters; without them it is refused in both APIs (decision 313).
    const universal = { arn: 'arn:aws:scheduler:::aws-sdk:sqs:sendMessage', input: '{"QueueUrl":"q","MessageBody":"b"}' };
    expect(StoredTargetScheduleInput.parse(aws(universal))).toEqual(aws(universal));
    expect(refusal(aws({ arn: universal.arn }), StoredTargetScheduleInput)).toEqual({ code: 'invalid_invocation_target', path: 'invocation_target.input', message: 'a universal target needs input: the parameters of aws-sdk:sqs:sendMessage as a JSON object' });
    expect(refusal(aws({ arn: `${SQS}.fifo` }), StoredTargetScheduleInput)).toMatchObject({ code: 'invalid_invocation_target', path: 'invocation_target.sqs_parameters' });
  });
});

describe('update patches and stored rows', () => {
  it('a patch target is checked against its type: the one sent, else the one its keys say', () => {
    expect(refusal({ invocation_target: { url: 'ftp://x/' } }, ScheduleUpdateInput)).toMatchObject({ code: 'invalid_invocation_target', path: 'invocation_target.url' });
    expect(refusal({ invocation_target_type: 'aws', invocation_target: { arn: 'arn:aws:kinesis:eu-west-1:123456789012:stream/s' } }, ScheduleUpdateInput)).toMatchObject({
      code: 'invalid_invocation_target',
      path: 'invocation_target.arn',
    });
    expect(refusal({ invocation_target: { target: { blob: 'b', revision: 'default', session: 's', state: 1 }, workflow: { definition: 'd' } } }, ScheduleUpdateInput)).toMatchObject({
      path: 'invocation_target.target.state',
    });
    expect(refusal({ invocation_target_type: 'http', invocation_target: { url: 'https://hooks.example.com/' } }, ScheduleUpdateInput)).toBeNull();
  });

  const info = { id: '8f14e45f-cee4-4b0b-8f8a-8e3b1a2c3d4e', name: 'n', state: 'active', next_fire_at: null, created_by: { type: 'org', id: 'o' }, skipped_occurrences: 0, version: 1, created_at: '2026-03-08T12:00:00.000Z', updated_at: '2026-03-08T12:00:00.000Z' };

  it('a webhook row the EventBridge API stored as {url, body: <text>} still reads as an http schedule', () => {
    const stored = { ...cron, enabled: true, invocation_target_type: 'http', invocation_target: { url: 'https://hooks.example.com/', body: 'plain text' }, ...info };
    expect(ScheduleSchema.parse(stored)).toEqual(stored);
    const { id: _id, name: _n, state: _s, next_fire_at: _f, created_by: _c, skipped_occurrences: _k, version: _v, created_at: _a, updated_at: _u, ...writable } = stored;
    expect(refusal(writable)).toBeNull();
  });

  it('runs record webhook and AWS results (SPEC §13.1, §13.2)', () => {
    const run = { id: info.id, schedule_id: info.id, scheduled_for: info.created_at, trigger: 'schedule', created_at: info.created_at, invocation_target_type: 'http', invocation_target: { url: 'https://hooks.example.com/' }, attempt: 1 };
    for (const [status, result] of [
      ['success', { http_status: 200, response_excerpt: 'ok' }],
      ['invocation_error', { error: 'http_error', message: 'HTTP 500', http_status: 500, response_excerpt: 'boom' }],
      ['invocation_error', { error: 'destination_refused', message: '10.0.0.1 is a private address' }],
      ['success', { service: 'sqs', message_id: '1234-abcd', request_id: 'r-1' }],
      ['invocation_error', { error: 'QueueDoesNotExist', message: 'The specified queue does not exist.' }],
    ] as const) {
      expect(RunSchema.safeParse({ ...run, status, result }).success, JSON.stringify(result)).toBe(true);
    }
    expect(RunSchema.safeParse({ ...run, status: 'success', result: { http_status: '200' } }).success).toBe(false);
  });
});
