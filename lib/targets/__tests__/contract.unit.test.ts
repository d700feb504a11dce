import { describe, expect, it } from 'vitest';
import { firstIssueError } from '../../schedules/contract';
import { AwsInvocationTargetSchema, awsTargetLabel, DeadLetterConfigSchema, HttpInvocationTargetSchema, isOtherServiceArn, parseTargetArn, parseUniversalArn, PAYLOAD_MAX_BYTES, StoredAwsInvocationTargetSchema } from '../contract';

/** The error the API answers for `target` (the schedule contract's picking rule). */
function refusal(schema: typeof HttpInvocationTargetSchema | typeof AwsInvocationTargetSchema, target: unknown) {
  const r = schema.safeParse(target);
  if (r.success) return null;
  return firstIssueError(r.error);
}

describe('§13.1 http target contract', () => {
  it('accepts the full shape and leaves the defaults to the delivery', () => {
    const t = { url: 'https://hooks.example.com/in?x=1', method: 'PUT', headers: { Authorization: 'Bearer t', 'X-Env': 'prod' }, body: { a: [1, null] }, timeout_seconds: 30 };
    expect(HttpInvocationTargetSchema.parse(t)).toEqual(t);
    expect(HttpInvocationTargetSchema.parse({ url: 'http://hooks.example.com' })).toEqual({ url: 'http://hooks.example.com' });
  });

  it.each([
    [{ url: 'ftp://example.com/x' }, 'invalid_invocation_target', 'url', 'url must use http or https, not ftp'],
    [{ url: ' http://example.com/x' }, 'invalid_invocation_target', 'url', 'url must not begin or end with spaces'],
    [{ url: 'not a url' }, 'invalid_invocation_target', 'url', 'url must be an absolute http:// or https:// URL'],
    [{ url: 'https://user:pw@example.com/' }, 'invalid_invocation_target', 'url', 'url must not carry a user name or password; send credentials in headers'],
    [{ url: `https://example.com/${'a'.repeat(2030)}` }, 'invalid_request_body', 'url', 'url: url must be at most 2048 characters'],
    [{ url: 'https://example.com', method: 'GET' }, 'invalid_request_body', 'method', undefined],
    [{ url: 'https://example.com', timeout_seconds: 0 }, 'invalid_request_body', 'timeout_seconds', undefined],
    [{ url: 'https://example.com', timeout_seconds: 31 }, 'invalid_request_body', 'timeout_seconds', undefined],
    [{ url: 'https://example.com', timeout_seconds: 2.5 }, 'invalid_request_body', 'timeout_seconds', undefined],
    [{ url: 'https://example.com', extra: 1 }, 'invalid_request_body', 'extra', 'unknown field "extra"'],
    [{ url: 'https://example.com', headers: { 'Webhook-Signature': 'v1,x' } }, 'invalid_request_body', 'headers.Webhook-Signature', 'headers.Webhook-Signature: header "Webhook-Signature" is set by the delivery and cannot be configured'],
    [{ url: 'https://example.com', headers: { Host: 'evil' } }, 'invalid_request_body', 'headers.Host', undefined],
    [{ url: 'https://example.com', headers: { 'Bad Name': 'x' } }, 'invalid_request_body', 'headers.Bad Name', undefined],
    [{ url: 'https://example.com', headers: { 'X-A': 'a\r\nX-B: b' } }, 'invalid_request_body', 'headers.X-A', 'headers.X-A: a header value must not contain CR, LF or NUL'],
    [{ url: 'https://example.com', headers: { 'x-a': '1', 'X-A': '2' } }, 'invalid_request_body', 'headers.X-A', undefined],
    [{ url: 'https://example.com', body: 'x'.repeat(PAYLOAD_MAX_BYTES) }, 'invalid_request_body', 'body', 'body: body must be at most 256 KiB serialized'],
  ])('refuses %j with %s at %s', (target, code, path, message) => {
    const e = refusal(HttpInvocationTargetSchema, target);
    expect(e?.code).toBe(code);
    expect(e?.path).toBe(path);
    if (message) expect(e?.message).toBe(message);
  });
});

describe('§13.2 aws target ARNs', () => {
  it.each([
    ['arn:aws:sqs:us-east-1:123456789012:orders', { service: 'sqs', region: 'us-east-1', account: '123456789012', name: 'orders', fifo: false }],
    ['arn:aws:sqs:eu-west-1:123456789012:orders.fifo', { service: 'sqs', name: 'orders.fifo', fifo: true }],
    ['arn:aws:sns:us-east-1:123456789012:alerts', { service: 'sns', name: 'alerts', fifo: false }],
    ['arn:aws:lambda:us-east-1:123456789012:function:resize:prod', { service: 'lambda', name: 'resize:prod' }],
    ['arn:aws:states:us-gov-west-1:123456789012:stateMachine:nightly', { service: 'states', region: 'us-gov-west-1', name: 'nightly' }],
    ['arn:aws:events:us-east-1:123456789012:event-bus/default', { service: 'events', name: 'default' }],
    ['arn:aws:ecs:us-east-1:123456789012:cluster/batch', { service: 'ecs', name: 'batch' }],
  ])('%s', (arn, expected) => {
    expect(parseTargetArn(arn)).toMatchObject(expected);
  });

  it.each([
    ['arn:aws:kinesis:us-east-1:123456789012:stream/s', '"kinesis" ARNs are not a supported target; use one of sqs, sns, lambda, states, events, ecs'],
    ['arn:aws:sqs:us-east-1:12345:q', 'arn must look like arn:aws:<service>:<region>:<12-digit account>:<resource>'],
    ['arn:aws:lambda:us-east-1:123456789012:resize', 'a lambda target ARN looks like arn:aws:lambda:<region>:<account>:function:<name>[:<version or alias>]'],
    ['https://example.com', 'arn must look like arn:aws:<service>:<region>:<12-digit account>:<resource>'],
  ])('refuses %s: %s', (arn, problem) => {
    expect(parseTargetArn(arn)).toEqual({ problem });
    expect(refusal(AwsInvocationTargetSchema, { arn })).toEqual({ code: 'invalid_invocation_target', message: problem, path: 'arn' });
  });
});

describe('§13.2 aws target contract', () => {
  const queue = 'arn:aws:sqs:us-east-1:123456789012:orders';
  it('accepts each service with its parameters', () => {
    for (const t of [
      { arn: queue, input: 'plain text', role_arn: 'arn:aws:iam::123456789012:role/scheduler' },
      { arn: 'arn:aws:sqs:us-east-1:123456789012:orders.fifo', sqs_parameters: { message_group_id: 'g-1' } },
      { arn: 'arn:aws:lambda:us-east-1:123456789012:function:f', input: '{"a":1}' },
      { arn: 'arn:aws:events:us-east-1:123456789012:event-bus/b', input: '{"a":1}', eventbridge_parameters: { detail_type: 'Tick', source: 'my.app' } },
      { arn: 'arn:aws:ecs:us-east-1:123456789012:cluster/c', ecs_parameters: { task_definition_arn: 'arn:aws:ecs:us-east-1:123456789012:task-definition/t:1', task_count: 10, launch_type: 'FARGATE', network_configuration: { awsvpc_configuration: { subnets: ['subnet-1'], assign_public_ip: 'DISABLED' } } } },
    ]) {
      expect(AwsInvocationTargetSchema.parse(t)).toEqual(t);
    }
  });

  it.each([
    [{ arn: 'arn:aws:sqs:us-east-1:123456789012:orders.fifo' }, 'sqs_parameters', 'a FIFO queue needs sqs_parameters.message_group_id'],
    [{ arn: queue, eventbridge_parameters: { detail_type: 'x', source: 'y' } }, 'eventbridge_parameters', 'eventbridge_parameters apply to EventBridge event buses only'],
    [{ arn: 'arn:aws:sns:us-east-1:123456789012:t', sqs_parameters: { message_group_id: 'g' } }, 'sqs_parameters', 'sqs_parameters apply to SQS queues (and FIFO SNS topics) only'],
    [{ arn: 'arn:aws:events:us-east-1:123456789012:event-bus/b' }, 'eventbridge_parameters', 'an EventBridge target needs eventbridge_parameters {detail_type, source}'],
    [{ arn: 'arn:aws:events:us-east-1:123456789012:event-bus/b', input: '[1]', eventbridge_parameters: { detail_type: 'x', source: 'y' } }, 'input', 'an EventBridge target needs a JSON object as input (it becomes the event detail)'],
    [{ arn: 'arn:aws:lambda:us-east-1:123456789012:function:f', input: 'not json' }, 'input', 'a lambda target needs JSON input'],
    [{ arn: 'arn:aws:states:us-east-1:123456789012:stateMachine:m', input: '{"a":1} trailing' }, 'input', 'a states target needs JSON input'],
    [{ arn: 'arn:aws:ecs:us-east-1:123456789012:cluster/c' }, 'ecs_parameters', 'an ECS target needs ecs_parameters {task_definition_arn, …}'],
    [{ arn: 'arn:aws:ecs:us-east-1:123456789012:cluster/c', input: 'x', ecs_parameters: { task_definition_arn: 't' } }, 'input', 'an ECS target takes no input: RunTask starts the task definition as registered'],
  ])('refuses %j at %s', (target, path, message) => {
    expect(refusal(AwsInvocationTargetSchema, target)).toEqual({ code: 'invalid_invocation_target', message, path });
  });

  it.each([
    [{ arn: queue, input: '' }, 'input'],
    [{ arn: queue, role_arn: 'arn:aws:iam::1:role/x' }, 'role_arn'],
    [{ arn: queue, sqs_parameters: { message_group_id: '' } }, 'sqs_parameters.message_group_id'],
    [{ arn: queue, sqs_parameters: { message_group_id: 'g'.repeat(129) } }, 'sqs_parameters.message_group_id'],
    [{ arn: 'arn:aws:events:us-east-1:123456789012:event-bus/b', eventbridge_parameters: { detail_type: 'x', source: 'aws.scheduler' } }, 'eventbridge_parameters.source'],
    [{ arn: 'arn:aws:events:us-east-1:123456789012:event-bus/b', eventbridge_parameters: { detail_type: 'x'.repeat(129), source: 'a' } }, 'eventbridge_parameters.detail_type'],
    [{ arn: 'arn:aws:ecs:us-east-1:123456789012:cluster/c', ecs_parameters: { task_definition_arn: 't', task_count: 11 } }, 'ecs_parameters.task_count'],
    [{ arn: queue, input: 'x'.repeat(PAYLOAD_MAX_BYTES + 1) }, 'input'],
    [{ arn: queue, unknown: true }, 'unknown'],
  ])('bounds: %j is invalid_request_body at %s', (target, path) => {
    const e = refusal(AwsInvocationTargetSchema, target);
    expect(e?.code).toBe('invalid_request_body');
    expect(e?.path).toBe(path);
  });
});

describe('§14 universal targets (arn:aws:scheduler:::aws-sdk:<service>:<apiAction>)', () => {
  const role = 'arn:aws:iam::123456789012:role/scheduler';
  it('parses the service and action; the IAM prefixes states, events and logs name sfn, eventbridge and cloudwatchlogs', () => {
    expect(parseUniversalArn('arn:aws:scheduler:::aws-sdk:dynamodb:putItem')).toEqual({ partition: 'aws', service: 'dynamodb', sdkService: 'dynamodb', action: 'putItem' });
    expect(parseUniversalArn('arn:aws-us-gov:scheduler:::aws-sdk:states:startExecution')).toEqual({ partition: 'aws-us-gov', service: 'states', sdkService: 'sfn', action: 'startExecution' });
    expect(parseUniversalArn('arn:aws:scheduler:::aws-sdk:logs:putLogEvents')?.sdkService).toBe('cloudwatchlogs');
    expect(parseUniversalArn('arn:aws:scheduler:::aws-sdk:s3:putObject')).toMatchObject({ service: 's3', sdkService: null });
    expect(parseUniversalArn('arn:aws:scheduler:us-east-1:123456789012:aws-sdk:sqs:sendMessage')).toBeNull();
    expect(parseUniversalArn('arn:aws:sqs:us-east-1:123456789012:q')).toBeNull();
  });

  it('takes a JSON object as input; a service it calls is delivered, another is stored by the EventBridge API only', () => {
    const t = { arn: 'arn:aws:scheduler:::aws-sdk:sqs:sendMessage', role_arn: role, input: '{"QueueUrl":"https://sqs.us-east-1.amazonaws.com/123456789012/q","MessageBody":"<aws.scheduler.execution-id>"}' };
    expect(AwsInvocationTargetSchema.parse(t)).toEqual(t);
    expect(isOtherServiceArn(t.arn)).toBe(false);
    expect(awsTargetLabel(t.arn)).toBe("AWS SDK call sqs:sendMessage (in the schedule's region)");
    const s3 = { arn: 'arn:aws:scheduler:::aws-sdk:s3:putObject', role_arn: role, input: '{}' };
    expect(refusal(AwsInvocationTargetSchema, s3)).toMatchObject({ code: 'invalid_invocation_target', path: 'arn', message: 'universal targets call sqs, sns, lambda, sfn, eventbridge, ecs, dynamodb, kinesis, firehose, cloudwatchlogs, ses; "s3" is not one of them' });
    expect(StoredAwsInvocationTargetSchema.parse(s3)).toEqual(s3);
    expect(isOtherServiceArn(s3.arn)).toBe(true);
  });

  it.each([
    [{}, 'input', 'a universal target needs input: the parameters of aws-sdk:dynamodb:putItem as a JSON object'],
    [{ input: 'TableName=t' }, 'input', 'input must be well-formed JSON: the parameters of aws-sdk:dynamodb:putItem as a JSON object'],
    [{ input: '[1]' }, 'input', 'input must be a JSON object: the parameters of aws-sdk:dynamodb:putItem'],
    [{ input: '"t"' }, 'input', 'input must be a JSON object: the parameters of aws-sdk:dynamodb:putItem'],
    [{ input: '{}', sqs_parameters: { message_group_id: 'g' } }, 'sqs_parameters', 'sqs_parameters apply to templated targets; a universal target takes its parameters in input'],
  ])('refuses %j (both APIs)', (extra, path, message) => {
    const t = { arn: 'arn:aws:scheduler:::aws-sdk:dynamodb:putItem', role_arn: role, ...extra };
    for (const schema of [AwsInvocationTargetSchema, StoredAwsInvocationTargetSchema]) {
      expect(refusal(schema, t)).toMatchObject({ code: 'invalid_invocation_target', path, message });
    }
  });

  it.each(['getQueueUrl', 'getQueueURL', 'listQueues', 'receiveMessage', 'batchGetItem', 'scan', 'query', 'describeTable'])('refuses the read-only action %s (AWS does not call them)', (action) => {
    const service = action.includes('Queue') || action === 'receiveMessage' ? 'sqs' : 'dynamodb';
    const e = refusal(StoredAwsInvocationTargetSchema, { arn: `arn:aws:scheduler:::aws-sdk:${service}:${action}`, role_arn: role, input: '{}' });
    expect(e).toMatchObject({ code: 'invalid_invocation_target', path: 'arn' });
    expect(e?.message).toMatch(new RegExp(`^${action} is a read-only action \\(it begins with "[A-Za-z]+"\\), which EventBridge Scheduler does not call$`));
  });
});

describe('§12.3 dead_letter', () => {
  it('takes a standard SQS queue ARN only', () => {
    expect(DeadLetterConfigSchema.safeParse({ arn: 'arn:aws:sqs:us-east-1:123456789012:dlq' }).success).toBe(true);
    expect(DeadLetterConfigSchema.safeParse({ arn: 'arn:aws:sqs:us-east-1:123456789012:dlq.fifo' }).success).toBe(false);
    expect(DeadLetterConfigSchema.safeParse({ arn: 'arn:aws:sns:us-east-1:123456789012:t' }).success).toBe(false);
  });
});
