/**
 * SPEC §14 universal targets end to end, on a real database (SQLite, or PostgreSQL with
 * TEST_DATABASE=postgresql) and moto's server: saved through the EventBridge API (boto3 and the AWS
 * SDK for JavaScript v3 over real HTTP) and through the product API, fired by the worker's engine,
 * delivered with the org's credentials; Input validated at save (ValidationException /
 * `400 invalid_invocation_target`), context attributes substituted, AWS's error as the attempt's
 * result, an unknown action `UnknownOperationException`, an unknown service `unsupported_target`.
 */
import { CreateScheduleCommand, GetScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { CreateTableCommand, DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { CreateStateMachineCommand, ListExecutionsCommand, SFNClient } from '@aws-sdk/client-sfn';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../../prisma/seed';
import { childEnv, loadConfig, type Limits } from '../../../config';
import { sdkRegion } from '../../../targets';
import { fireDueAndDeliver } from '../../../testing/fire-and-deliver';
import { requireMoto } from '../../../testing/moto';
import { serveProductApi } from '../../../testing/product-api';
import { sdkRefusal } from '../../../testing/sdk-refusal';
import { serveFetch, type FetchServer } from '../../../testing/serve-fetch';
import { createTestDb, type TestDb } from '../../../testing/test-db';
import { handleEventBridgeRequest } from '../index';

const BOOT = { accessKeyId: 'AKIAUNIVERSALBOOT001', secretAccessKey: 'universal-boot-secret-0123456789' };
const API_KEY = 'universal-api-key-0123456789abcdef';
const REGION = 'eu-west-1';
const ROLE = 'arn:aws:iam::123456789012:role/scheduler';
const suffix = randomUUID().slice(0, 8);
const limits: Limits = { ...loadConfig().limits };

let t: TestDb;
let eb: FetchServer;
let api: FetchServer;
let seeded: Awaited<ReturnType<typeof seed>>;
/** The same table name in the EventBridge API's region and in the worker's (the product API's schedules call there). */
const table = `runs-${suffix}`;
let workerRegion: string;

const sdk = () => new SchedulerClient({ endpoint: eb.url, region: REGION, credentials: BOOT, maxAttempts: 1 });
const universal = (service: string, action: string) => `arn:aws:scheduler:::aws-sdk:${service}:${action}`;
/** An `at()` 30 s ago: the EventBridge API accepts it and the worker fires it at once (SPEC §14). */
const justNow = () => `at(${new Date(Date.now() - 30_000).toISOString().slice(0, 19)})`;

async function runsOf(name: string): Promise<{ status: string; result: unknown }[]> {
  const s = await t.db.schedule.findFirstOrThrow({ where: { name } });
  const runs = await t.db.run.findMany({ where: { scheduleId: s.id }, orderBy: { createdAt: 'asc' } });
  return runs.map((r) => ({ status: r.status, result: r.result }));
}

async function items(region: string): Promise<Record<string, string>[]> {
  const res = await new DynamoDBClient({ region }).send(new ScanCommand({ TableName: table }));
  return (res.Items ?? []).map((i) => Object.fromEntries(Object.entries(i).map(([k, v]) => [k, v.S ?? v.N ?? '']))).sort((a, b) => (a.note < b.note ? -1 : 1));
}

async function productCommand(body: Record<string, unknown>): Promise<{ status: number; json: Record<string, any> }> {
  const res = await fetch(`${api.url}/api/v1/revisions/${seeded.schedulerRevisionId}/data`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
    body: JSON.stringify({ engine: 'scheduler_blobhub', ...body }),
  });
  return { status: res.status, json: await res.json() };
}

function python(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('python3', ['-c', script], { timeout: 60_000, env: childEnv({ ...env, AWS_MAX_ATTEMPTS: '1' }) }, (error, stdout, stderr) =>
      resolve({ code: error ? 1 : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  await requireMoto();
  // The worker's AWS SDK region (AWS_REGION): where a schedule saved through the product API calls.
  workerRegion = await sdkRegion();
  t = await createTestDb();
  seeded = await seed(t.db, API_KEY, 'universal-password-0123', BOOT);
  const runtime = { db: t.db, limits, homeRegion: REGION };
  eb = await serveFetch((req) => handleEventBridgeRequest(req, { runtime }));
  api = await serveProductApi({ db: t.db, limits });
  for (const region of new Set([REGION, workerRegion])) {
    await new DynamoDBClient({ region }).send(
      new CreateTableCommand({ TableName: table, KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }], BillingMode: 'PAY_PER_REQUEST' }),
    );
  }
});

afterAll(async () => {
  await eb?.close();
  await api?.close();
  await t?.cleanup();
});

describe('§14 universal targets through the EventBridge API', () => {
  it('boto3 create_schedule with aws-sdk:dynamodb:putItem: the worker writes the item, context attributes substituted; GetSchedule answers the Target as sent', async () => {
    const input = JSON.stringify({ TableName: table, Item: { pk: { S: '<aws.scheduler.execution-id>' }, note: { S: 'boto3' }, at: { S: '<aws.scheduler.scheduled-time>' }, n: { N: '<aws.scheduler.attempt-number>' } } });
    const script = String.raw`
import json, os, boto3
c = boto3.client("scheduler", endpoint_url=os.environ["BASE"], region_name=os.environ["REGION"], aws_access_key_id=os.environ["KEY"], aws_secret_access_key=os.environ["SECRET"])
arn = c.create_schedule(Name="put-item", ScheduleExpression=os.environ["EXPR"], FlexibleTimeWindow={"Mode": "OFF"},
    Target={"Arn": "arn:aws:scheduler:::aws-sdk:dynamodb:putItem", "RoleArn": os.environ["ROLE"], "Input": os.environ["INPUT"]})["ScheduleArn"]
print(json.dumps({"arn": arn, "target": c.get_schedule(Name="put-item")["Target"]}))
`;
    const expr = justNow();
    const py = await python(script, { BASE: eb.url, REGION, KEY: BOOT.accessKeyId, SECRET: BOOT.secretAccessKey, EXPR: expr, ROLE, INPUT: input });
    expect(py.code, py.stderr).toBe(0);
    const out = JSON.parse(py.stdout);
    expect(out.target).toEqual({ Arn: universal('dynamodb', 'putItem'), RoleArn: ROLE, Input: input, RetryPolicy: { MaximumEventAgeInSeconds: 86400, MaximumRetryAttempts: 185 } });
    await fireDueAndDeliver({ db: t.db, now: new Date(), limits });
    const runs = await runsOf('put-item');
    expect(runs).toEqual([{ status: 'success', result: { service: 'aws-sdk:dynamodb', operation: 'PutItem', request_id: expect.any(String) } }]);
    const [item] = (await items(REGION)).filter((i) => i.note === 'boto3');
    expect(item.pk).toMatch(/^[a-z0-9]{16}$/);
    expect(item).toEqual({ pk: item.pk, note: 'boto3', at: `${expr.slice(3, -1)}Z`, n: '1' });
  });

  it('SDK v3 with aws-sdk:sqs:sendMessage: the queue receives the message', async () => {
    const sqs = new SQSClient({ region: REGION });
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `universal-${suffix}` }));
    await sdk().send(new CreateScheduleCommand({ Name: 'send-message', ScheduleExpression: justNow(), FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: universal('sqs', 'sendMessage'), RoleArn: ROLE, Input: JSON.stringify({ QueueUrl, MessageBody: 'from <aws.scheduler.schedule-arn>' }) } }));
    await fireDueAndDeliver({ db: t.db, now: new Date(), limits });
    const [run] = await runsOf('send-message');
    expect(run).toMatchObject({ status: 'success', result: { service: 'aws-sdk:sqs', operation: 'SendMessage' } });
    const got = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 2 }));
    const arn = (await sdk().send(new GetScheduleCommand({ Name: 'send-message' }))).Arn;
    expect(got.Messages?.map((m) => m.Body)).toEqual([`from ${arn}`]);
  });

  it("an unknown action is a failed attempt UnknownOperationException; AWS's own refusal is the attempt's result; an unknown service is unsupported_target", async () => {
    const base = { ScheduleExpression: justNow(), FlexibleTimeWindow: { Mode: 'OFF' as const } };
    await sdk().send(new CreateScheduleCommand({ ...base, Name: 'unknown-action', Target: { Arn: universal('dynamodb', 'putItems'), RoleArn: ROLE, Input: JSON.stringify({ TableName: table }) } }));
    await sdk().send(new CreateScheduleCommand({ ...base, Name: 'missing-table', Target: { Arn: universal('dynamodb', 'putItem'), RoleArn: ROLE, Input: JSON.stringify({ TableName: `gone-${suffix}`, Item: { pk: { S: 'x' } } }) } }));
    await sdk().send(new CreateScheduleCommand({ ...base, Name: 'unknown-service', Target: { Arn: universal('s3', 'putObject'), RoleArn: ROLE, Input: '{"Bucket":"b","Key":"k"}' } }));
    await fireDueAndDeliver({ db: t.db, now: new Date(), limits });
    expect((await runsOf('unknown-action'))[0]).toEqual({
      status: 'invocation_error',
      result: { error: 'UnknownOperationException', message: 'putItems is not an operation of dynamodb: the AWS SDK for JavaScript v3 client of dynamodb has no PutItemsCommand' },
    });
    expect((await runsOf('missing-table'))[0]).toEqual({ status: 'invocation_error', result: { error: 'ResourceNotFoundException', message: 'Requested resource not found', request_id: expect.any(String) } });
    expect((await runsOf('unknown-service'))[0]).toEqual({
      status: 'invocation_error',
      result: { error: 'unsupported_target', message: 'this aws target cannot be delivered: universal targets call sqs, sns, lambda, sfn, eventbridge, ecs, dynamodb, kinesis, firehose, cloudwatchlogs, ses; "s3" is not one of them' },
    });
  });

  it('Input that is not a JSON object, no Input, and a read-only action are ValidationExceptions naming the target', async () => {
    const create = (Arn: string, Input?: string) => sdk().send(new CreateScheduleCommand({ Name: 'refused', ScheduleExpression: 'rate(1 hour)', FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn, RoleArn: ROLE, ...(Input !== undefined ? { Input } : {}) } }));
    const put = universal('dynamodb', 'putItem');
    expect(await sdkRefusal(create(put, 'TableName=x'))).toEqual({ name: 'ValidationException', status: 400, message: `Invalid target ${put}: input must be well-formed JSON: the parameters of aws-sdk:dynamodb:putItem as a JSON object.` });
    expect((await sdkRefusal(create(put, '["x"]'))).message).toBe(`Invalid target ${put}: input must be a JSON object: the parameters of aws-sdk:dynamodb:putItem.`);
    expect((await sdkRefusal(create(put))).message).toBe(`Invalid target ${put}: a universal target needs input: the parameters of aws-sdk:dynamodb:putItem as a JSON object.`);
    const get = universal('sqs', 'getQueueURL');
    expect((await sdkRefusal(create(get, '{"QueueName":"q"}'))).message).toBe(`Invalid target ${get}: getQueueURL is a read-only action (it begins with "get"), which EventBridge Scheduler does not call.`);
    expect(await t.db.schedule.count({ where: { name: 'refused' } })).toBe(0);
  });
});

describe('§14 universal targets through the product API', () => {
  it('create_schedule with a universal ARN fires into DynamoDB; Input that is not a JSON object is 400 invalid_invocation_target', async () => {
    const target = { arn: universal('dynamodb', 'putItem'), role_arn: ROLE, input: JSON.stringify({ TableName: table, Item: { pk: { S: '<scheduler.occurrence-id>' }, note: { S: 'product' } } }) };
    const made = await productCommand({ command: 'create_schedule', alias: 'universal-put', repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', invocation_target_type: 'aws', invocation_target: target });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    expect(made.json.schedule.invocation_target).toEqual(target);
    const refused = await productCommand({ command: 'create_schedule', alias: 'universal-bad', repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', invocation_target_type: 'aws', invocation_target: { ...target, input: '42' } });
    expect([refused.status, refused.json.error]).toEqual([400, { code: 'invalid_invocation_target', message: 'input must be a JSON object: the parameters of aws-sdk:dynamodb:putItem', path: 'invocation_target.input' }]);
    await fireDueAndDeliver({ db: t.db, now: new Date(made.json.schedule.next_fire_at), limits });
    const runs = await t.db.run.findMany({ where: { scheduleId: made.json.schedule.id } });
    expect(runs.map((r) => [r.status, r.result])).toEqual([['success', { service: 'aws-sdk:dynamodb', operation: 'PutItem', request_id: expect.any(String) }]]);
    const [item] = (await items(workerRegion)).filter((i) => i.note === 'product');
    expect(item.pk).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('§13.4 context attributes in AWS payloads on moto', () => {
  /** AWS's form of `<aws.scheduler.scheduled-time>`: ISO 8601 to the second, UTC. */
  const awsTime = (d: Date) => `${d.toISOString().slice(0, 19)}Z`;

  it('aws-sdk:sfn:startExecution named <aws.scheduler.execution-id>: one execution per fire, each with its own name', async () => {
    const sfn = new SFNClient({ region: REGION });
    const machine = await sfn.send(new CreateStateMachineCommand({ name: `named-${suffix}`, roleArn: ROLE, definition: JSON.stringify({ StartAt: 'Done', States: { Done: { Type: 'Succeed' } } }) }));
    const input = JSON.stringify({ stateMachineArn: machine.stateMachineArn, name: '<aws.scheduler.execution-id>', input: '{"attempt":"<aws.scheduler.attempt-number>"}' });
    await sdk().send(new CreateScheduleCommand({ Name: 'named-executions', ScheduleExpression: 'rate(1 minutes)', FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: universal('sfn', 'startExecution'), RoleArn: ROLE, Input: input } }));
    const row = await t.db.schedule.findFirstOrThrow({ where: { name: 'named-executions' } });
    // Three consecutive occurrences, each fired when it is due.
    for (let i = 0; i < 3; i++) await fireDueAndDeliver({ db: t.db, now: new Date(row.nextFireAt!.getTime() + i * 60_000), limits });
    const runs = await runsOf('named-executions');
    expect(runs.map((r) => r.status)).toEqual(['success', 'success', 'success']);
    const names = ((await sfn.send(new ListExecutionsCommand({ stateMachineArn: machine.stateMachineArn! }))).executions ?? []).map((e) => e.name!);
    expect(names).toHaveLength(3);
    for (const name of names) expect(name).toMatch(/^[a-z0-9]{16}$/);
    expect(new Set(names).size).toBe(3);
  });

  it("an SQS target's body carries the nominal time of a flexible-window occurrence; an unknown <aws.scheduler.foo> passes through", async () => {
    const sqs = new SQSClient({ region: REGION });
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `flexible-${suffix}` }));
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
    await sdk().send(
      new CreateScheduleCommand({
        Name: 'flexible-body',
        ScheduleExpression: 'cron(0/5 * * * ? *)',
        FlexibleTimeWindow: { Mode: 'FLEXIBLE', MaximumWindowInMinutes: 4 },
        Target: { Arn: Attributes!.QueueArn!, RoleArn: ROLE, Input: '{"at":"<aws.scheduler.scheduled-time>","unknown":"<aws.scheduler.foo>"}' },
      }),
    );
    const row = await t.db.schedule.findFirstOrThrow({ where: { name: 'flexible-body' } });
    // The row holds the nominal occurrence apart from the instant the window moved its fire to.
    const nominal = row.nextScheduledFor ?? row.nextFireAt!;
    expect(nominal.getUTCMinutes() % 5).toBe(0);
    expect(nominal.getUTCSeconds()).toBe(0);
    await fireDueAndDeliver({ db: t.db, now: row.nextFireAt!, limits });
    expect((await runsOf('flexible-body')).map((r) => r.status)).toEqual(['success']);
    const got = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 2 }));
    expect(got.Messages?.map((m) => JSON.parse(m.Body!))).toEqual([{ at: awsTime(nominal), unknown: '<aws.scheduler.foo>' }]);
  });
});
