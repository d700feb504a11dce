/**
 * SPEC §13.2, §13.3 and §12.3 against moto's server on loopback (a real emulator, reached through the
 * standard AWS SDK environment only): SQS (standard and FIFO), SNS (observed through a subscribed
 * queue), Lambda (asynchronous invoke), Step Functions (the started execution described),
 * EventBridge (a rule forwarding to a queue), ECS RunTask; a queue that does not exist, retried per
 * the policy and, exhausted, dead-lettered with every attribute.
 */
import { randomUUID } from 'node:crypto';
import { CreateClusterCommand, DescribeTasksCommand, ECSClient, RegisterTaskDefinitionCommand } from '@aws-sdk/client-ecs';
import { EventBridgeClient, PutRuleCommand, PutTargetsCommand } from '@aws-sdk/client-eventbridge';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { CreateFunctionCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { CreateStateMachineCommand, DescribeExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import { CreateTopicCommand, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SetQueueAttributesCommand, SQSClient, SQSServiceException, type Message } from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { afterFailedAttempt, type RetryPolicy } from '../../../schedules';
import { testFire, TEST_ACCOUNT as ACCOUNT } from '../../../testing/fire-context';
import { requireMoto } from '../../../testing/moto';
import { classifyAwsError, createDeliveryPool, DEAD_LETTER_ATTRIBUTES, deadLetterError, deliver, occurrenceId, sendDeadLetter, type AwsResult, type AwsSentRequest, type DeliveryOutcome, type FireContext } from '../..';

const REGION = 'us-east-1';
const suffix = randomUUID().slice(0, 8);
let sqs: SQSClient;
/** One pool for the file, as a process has (SCHEDULER_DELIVERY_CONCURRENCY's default). */
const pool = createDeliveryPool(64);

beforeAll(async () => {
  await requireMoto();
  sqs = new SQSClient({ region: REGION });
});

const fire = (overrides: Partial<FireContext> = {}) => testFire(REGION, new Date('2026-06-01T08:30:00.000Z'), overrides);

async function createQueue(name: string, attributes: Record<string, string> = {}): Promise<{ url: string; arn: string }> {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
  const attrs = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
  return { url: QueueUrl!, arn: attrs.Attributes!.QueueArn! };
}

/** Every message the queue holds within `waitSeconds` (received, not deleted). */
async function receiveAll(url: string, expected: number, waitSeconds = 5): Promise<Message[]> {
  const messages: Message[] = [];
  const deadline = Date.now() + waitSeconds * 1000;
  while (messages.length < expected && Date.now() < deadline) {
    const res = await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, MessageAttributeNames: ['All'], MessageSystemAttributeNames: ['All'] }));
    messages.push(...(res.Messages ?? []));
  }
  return messages;
}

describe('§13.2 SQS', () => {
  it('a one-time schedule\'s SQS target receives the default event, field by field, resources = the schedule ARN', async () => {
    const q = await createQueue(`orders-${suffix}`);
    const f = fire();
    const outcome = await deliver({ type: 'aws', pool, target: { arn: q.arn }, fire: f });
    expect(outcome.status).toBe('success');
    expect(outcome.result).toEqual({ service: 'sqs', request_id: expect.any(String), message_id: expect.any(String) });
    const [m] = await receiveAll(q.url, 1);
    expect(m.MessageId).toBe((outcome.result as { message_id: string }).message_id);
    const event = JSON.parse(m.Body!);
    expect(event.version).toBe('0');
    expect(event.id).toBe(occurrenceId(f));
    expect(event['detail-type']).toBe('Scheduled Event');
    expect(event.source).toBe('aws.scheduler');
    expect(event.account).toBe(ACCOUNT);
    expect(event.time).toBe('2026-06-01T08:30:00Z');
    expect(event.region).toBe(REGION);
    expect(event.resources).toEqual([f.scheduleArn]);
    expect(event.detail).toBe('{}');
    expect(Object.keys(event)).toHaveLength(9);
    expect(outcome.request).toEqual({ type: 'aws', service: 'sqs', operation: 'SendMessage', region: REGION, params: { QueueUrl: q.url, MessageBody: m.Body } });
  });

  it('a FIFO queue gets MessageGroupId from sqs_parameters and the delivery id as deduplication id: a repeated attempt is one message', async () => {
    const q = await createQueue(`orders-${suffix}.fifo`, { FifoQueue: 'true' });
    const f = fire();
    const target = { arn: q.arn, input: 'close the books', sqs_parameters: { message_group_id: 'ledger' } };
    const first = await deliver({ type: 'aws', pool, target, fire: f });
    const again = await deliver({ type: 'aws', pool, target, fire: { ...f, attempt: 2 } });
    expect(first.status).toBe('success');
    expect(again.status).toBe('success');
    const messages = await receiveAll(q.url, 2, 3);
    expect(messages).toHaveLength(1);
    expect(messages[0].Body).toBe('close the books');
    expect(messages[0].Attributes?.MessageGroupId).toBe('ledger');
    expect(messages[0].Attributes?.MessageDeduplicationId).toBe(occurrenceId(f));
  });

  it('a queue that does not exist is QueueDoesNotExist, not retryable by nature', async () => {
    const outcome = await deliver({ type: 'aws', pool, target: { arn: `arn:aws:sqs:${REGION}:${ACCOUNT}:missing-${suffix}` }, fire: fire() });
    expect(outcome.status).toBe('invocation_error');
    expect(outcome.result).toEqual({ error: 'QueueDoesNotExist', message: 'The specified queue does not exist.', request_id: expect.any(String) });
    expect(outcome.retryable).toBe(false);
  });
});

describe('§13.2 SNS', () => {
  it('publishes the input; a subscribed queue receives it', async () => {
    const sns = new SNSClient({ region: REGION });
    const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: `alerts-${suffix}` }));
    const q = await createQueue(`alerts-inbox-${suffix}`);
    await sns.send(new SubscribeCommand({ TopicArn, Protocol: 'sqs', Endpoint: q.arn, Attributes: { RawMessageDelivery: 'true' } }));
    const outcome = await deliver({ type: 'aws', pool, target: { arn: TopicArn!, input: 'disk almost full' }, fire: fire() });
    expect(outcome.status).toBe('success');
    expect(outcome.result).toEqual({ service: 'sns', request_id: expect.any(String), message_id: expect.any(String) });
    const [m] = await receiveAll(q.url, 1);
    expect(m.Body).toBe('disk almost full');
  });

  it('a topic that does not exist is NotFound', async () => {
    const outcome = await deliver({ type: 'aws', pool, target: { arn: `arn:aws:sns:${REGION}:${ACCOUNT}:nope-${suffix}`, input: 'x' }, fire: fire() });
    expect(outcome.status).toBe('invocation_error');
    expect((outcome.result as { error: string }).error).toBe('NotFoundException');
    expect(outcome.retryable).toBe(false);
  });
});

describe('§13.2 Step Functions', () => {
  it('starts an execution named by the delivery id with the default event as input', async () => {
    const sfn = new SFNClient({ region: REGION });
    const { stateMachineArn } = await sfn.send(
      new CreateStateMachineCommand({ name: `nightly-${suffix}`, roleArn: `arn:aws:iam::${ACCOUNT}:role/sfn`, definition: JSON.stringify({ StartAt: 'Done', States: { Done: { Type: 'Pass', End: true } } }) }),
    );
    const f = fire();
    const outcome = await deliver({ type: 'aws', pool, target: { arn: stateMachineArn! }, fire: f });
    expect(outcome.status).toBe('success');
    const executionArn = (outcome.result as { execution_arn: string }).execution_arn;
    expect(executionArn).toBe(`arn:aws:states:${REGION}:${ACCOUNT}:execution:nightly-${suffix}:${occurrenceId(f)}`);
    const described = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    expect(described.stateMachineArn).toBe(stateMachineArn);
    expect(described.name).toBe(occurrenceId(f));
    expect(JSON.parse(described.input!)).toMatchObject({ id: occurrenceId(f), source: 'aws.scheduler', resources: [f.scheduleArn] });
  });
});

describe('§13.2 EventBridge', () => {
  it('PutEvents with the parameters\' source and detail type; a rule forwards the event to a queue', async () => {
    const events = new EventBridgeClient({ region: REGION });
    const source = `my.app.${suffix}`;
    const q = await createQueue(`events-inbox-${suffix}`);
    await events.send(new PutRuleCommand({ Name: `fwd-${suffix}`, EventPattern: JSON.stringify({ source: [source] }) }));
    await events.send(new PutTargetsCommand({ Rule: `fwd-${suffix}`, Targets: [{ Id: 'q', Arn: q.arn }] }));
    const f = fire();
    const outcome = await deliver({
      pool,
      type: 'aws',
      target: { arn: `arn:aws:events:${REGION}:${ACCOUNT}:event-bus/default`, input: '{"report":"daily"}', eventbridge_parameters: { detail_type: 'Report Due', source } },
      fire: f,
    });
    expect(outcome.status).toBe('success');
    const eventId = (outcome.result as { event_id: string }).event_id;
    expect(eventId).toMatch(/^[0-9a-f-]{36}$/);
    const [m] = await receiveAll(q.url, 1);
    const forwarded = JSON.parse(m.Body!);
    expect(forwarded).toMatchObject({ id: eventId, source, 'detail-type': 'Report Due', detail: { report: 'daily' }, resources: [f.scheduleArn], time: '2026-06-01T08:30:00Z' });
  });
});

describe('§13.2 Lambda', () => {
  it('invokes asynchronously (InvocationType Event): accepted; a missing function is ResourceNotFoundException', async () => {
    const iam = new IAMClient({ region: REGION });
    const role = await iam.send(
      new CreateRoleCommand({ RoleName: `fn-${suffix}`, AssumeRolePolicyDocument: JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }] }) }),
    );
    const lambda = new LambdaClient({ region: REGION });
    // An empty zip: moto stores the function; running its code would need Docker, which an Event invoke does not wait for.
    const fn = await lambda.send(new CreateFunctionCommand({ FunctionName: `resize-${suffix}`, Runtime: 'python3.12', Role: role.Role!.Arn!, Handler: 'x.handler', Code: { ZipFile: Buffer.from('UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==', 'base64') } }));
    const outcome = await deliver({ type: 'aws', pool, target: { arn: fn.FunctionArn!, input: '{"size":"small"}' }, fire: fire() });
    expect(outcome).toMatchObject({ status: 'success', result: { service: 'lambda', request_id: expect.any(String) } });
    expect(outcome.request.params).toEqual({ FunctionName: fn.FunctionArn, InvocationType: 'Event', Payload: '{"size":"small"}' });
    const missing = await deliver({ type: 'aws', pool, target: { arn: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:none-${suffix}`, input: '{}' }, fire: fire() });
    expect(missing).toMatchObject({ status: 'invocation_error', retryable: false, result: { error: 'ResourceNotFoundException' } });
  });
});

describe('§13.2 ECS', () => {
  it('RunTask starts the task definition on the cluster, startedBy = the delivery id', async () => {
    const ecs = new ECSClient({ region: REGION });
    const cluster = await ecs.send(new CreateClusterCommand({ clusterName: `batch-${suffix}` }));
    const td = await ecs.send(new RegisterTaskDefinitionCommand({ family: `job-${suffix}`, containerDefinitions: [{ name: 'main', image: 'busybox', memory: 128 }] }));
    const f = fire();
    const outcome = await deliver({
      pool,
      type: 'aws',
      target: { arn: cluster.cluster!.clusterArn!, ecs_parameters: { task_definition_arn: td.taskDefinition!.taskDefinitionArn!, launch_type: 'FARGATE', network_configuration: { awsvpc_configuration: { subnets: ['subnet-12345678'] } } } },
      fire: f,
    });
    expect(outcome.status).toBe('success');
    const [taskArn] = (outcome.result as { task_arns: string[] }).task_arns;
    const tasks = await ecs.send(new DescribeTasksCommand({ cluster: cluster.cluster!.clusterArn!, tasks: [taskArn] }));
    expect(tasks.tasks?.[0]).toMatchObject({ startedBy: occurrenceId(f), taskDefinitionArn: td.taskDefinition!.taskDefinitionArn });
  });
});

describe('§13.2 error classification', () => {
  it('throttling and 5xx are retryable; client errors are not', () => {
    const make = (name: string, status: number, fault: 'client' | 'server') => new SQSServiceException({ name, message: `${name} happened`, $fault: fault, $metadata: { httpStatusCode: status, requestId: 'r-1' } });
    expect(classifyAwsError(make('ThrottlingException', 400, 'client'))).toEqual({ result: { error: 'ThrottlingException', message: 'ThrottlingException happened', request_id: 'r-1' }, retryable: true });
    expect(classifyAwsError(make('RequestThrottled', 403, 'client')).retryable).toBe(true);
    expect(classifyAwsError(make('SomethingSlow', 429, 'client')).retryable).toBe(true);
    expect(classifyAwsError(make('InternalError', 500, 'server')).retryable).toBe(true);
    expect(classifyAwsError(make('ServiceUnavailable', 503, 'server')).retryable).toBe(true);
    expect(classifyAwsError(make('AccessDenied', 403, 'client')).retryable).toBe(false);
    expect(classifyAwsError(make('QueueDoesNotExist', 400, 'client')).retryable).toBe(false);
    // No answer at all (connection refused, socket timeout): retryable, with Node's error code.
    expect(classifyAwsError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }))).toEqual({ result: { error: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:1' }, retryable: true });
  });
});

describe('§12.3 dead letters', () => {
  it('a queue that does not exist is retried per its policy and, exhausted, lands in the dead-letter queue with every attribute', async () => {
    const dlq = await createQueue(`dlq-${suffix}`);
    const target = { arn: `arn:aws:sqs:${REGION}:${ACCOUNT}:gone-${suffix}` };
    const policy: RetryPolicy = { maximumRetryAttempts: 2, maximumEventAgeSeconds: 86_400 };
    const f = fire();
    // The fire path's loop, compressed in time: attempt, decide (SPEC §12.2), attempt again…
    const outcomes: DeliveryOutcome<AwsResult, AwsSentRequest>[] = [];
    let attempt = 1;
    let failedAt = new Date(f.scheduledFor.getTime() + 1000);
    let verdict;
    for (;;) {
      outcomes.push(await deliver({ type: 'aws', pool, target, fire: { ...f, attempt } }));
      verdict = afterFailedAttempt(policy, attempt, f.scheduledFor, failedAt);
      if (verdict.kind === 'exhausted') break;
      attempt = verdict.attempt;
      failedAt = verdict.at;
    }
    expect(outcomes.map((o) => [o.status, (o.result as { error: string }).error])).toEqual([
      ['invocation_error', 'QueueDoesNotExist'],
      ['invocation_error', 'QueueDoesNotExist'],
      ['invocation_error', 'QueueDoesNotExist'],
    ]);
    expect(new Set(outcomes.map((o) => o.deliveryId)).size).toBe(1);
    expect(verdict).toEqual({ kind: 'exhausted', reason: 'maximum_retry_attempts' });

    const last = outcomes[2];
    const runId = randomUUID();
    const sent = await sendDeadLetter({
      pool,
      deadLetterArn: dlq.arn,
      request: last.request,
      ...deadLetterError(last.result),
      executionId: runId,
      exhausted: verdict.reason,
      retryAttempts: attempt - 1,
      scheduledFor: f.scheduledFor,
      scheduleArn: f.scheduleArn,
      targetArn: target.arn,
    });
    expect(sent).toEqual({ ok: true, messageId: expect.any(String), requestId: expect.any(String), truncated: false });
    const [m] = await receiveAll(dlq.url, 1);
    expect(JSON.parse(m.Body!)).toEqual(last.request);
    expect(JSON.parse(JSON.parse(m.Body!).params.MessageBody)).toMatchObject({ id: occurrenceId(f), resources: [f.scheduleArn] });
    const attr = (name: string) => m.MessageAttributes?.[name];
    expect(Object.keys(m.MessageAttributes ?? {}).sort()).toEqual([...DEAD_LETTER_ATTRIBUTES].sort());
    expect(DEAD_LETTER_ATTRIBUTES).toHaveLength(9);
    expect(attr('ERROR_CODE')).toMatchObject({ DataType: 'String', StringValue: 'QueueDoesNotExist' });
    expect(attr('ERROR_MESSAGE')).toMatchObject({ DataType: 'String', StringValue: 'The specified queue does not exist.' });
    expect(attr('EXECUTION_ID')).toMatchObject({ DataType: 'String', StringValue: runId });
    expect(attr('EXHAUSTED_RETRY_CONDITION')).toMatchObject({ DataType: 'String', StringValue: 'MaximumRetryAttempts' });
    expect(attr('IS_PAYLOAD_TRUNCATED')).toMatchObject({ DataType: 'String', StringValue: 'false' });
    expect(attr('RETRY_ATTEMPTS')).toMatchObject({ DataType: 'Number', StringValue: '2' });
    expect(attr('SCHEDULED_TIME')).toMatchObject({ DataType: 'String', StringValue: '2026-06-01T08:30:00Z' });
    expect(attr('SCHEDULE_ARN')).toMatchObject({ DataType: 'String', StringValue: f.scheduleArn });
    expect(attr('TARGET_ARN')).toMatchObject({ DataType: 'String', StringValue: target.arn });
  });

  it('a request over 256 KiB is cut to fit and IS_PAYLOAD_TRUNCATED says so', async () => {
    const dlq = await createQueue(`dlq-big-${suffix}`);
    await sqs.send(new SetQueueAttributesCommand({ QueueUrl: dlq.url, Attributes: { MaximumMessageSize: '262144' } }));
    const sent = await sendDeadLetter({
      pool,
      deadLetterArn: dlq.arn,
      request: { type: 'http', method: 'POST', url: 'https://hooks.example.com/', headers: {}, body: 'x'.repeat(300_000) },
      errorCode: 'timeout',
      errorMessage: 'no answer within 10 s',
      executionId: randomUUID(),
      exhausted: 'maximum_event_age',
      retryAttempts: 5,
      scheduledFor: new Date('2026-06-01T08:30:00.000Z'),
      scheduleArn: fire().scheduleArn,
      targetArn: 'https://hooks.example.com/',
    });
    expect(sent).toMatchObject({ ok: true, truncated: true });
    const [m] = await receiveAll(dlq.url, 1);
    expect(m.MessageAttributes?.IS_PAYLOAD_TRUNCATED?.StringValue).toBe('true');
    expect(m.MessageAttributes?.EXHAUSTED_RETRY_CONDITION?.StringValue).toBe('MaximumEventAgeInSeconds');
    expect(m.Body!.startsWith('{"type":"http","method":"POST"')).toBe(true);
    expect(Buffer.byteLength(m.Body!)).toBeGreaterThan(250_000);
    expect(Buffer.byteLength(m.Body!)).toBeLessThan(262_144);
  });

  it('a dead-letter queue that does not exist answers the AWS error, and throws nothing', async () => {
    const sent = await sendDeadLetter({
      pool,
      deadLetterArn: `arn:aws:sqs:${REGION}:${ACCOUNT}:no-dlq-${suffix}`,
      request: { type: 'aws' },
      errorCode: 'X',
      errorMessage: 'y',
      executionId: randomUUID(),
      exhausted: 'maximum_retry_attempts',
      retryAttempts: 0,
      scheduledFor: new Date(),
      scheduleArn: fire().scheduleArn,
      targetArn: 'arn:aws:sqs:us-east-1:123456789012:x',
    });
    expect(sent).toEqual({ ok: false, error: 'QueueDoesNotExist', message: 'The specified queue does not exist.', retryable: false });
  });
});
