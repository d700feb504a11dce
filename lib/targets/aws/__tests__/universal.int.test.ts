/**
 * SPEC §14 universal targets (`arn:aws:scheduler:::aws-sdk:<service>:<apiAction>`) against moto's
 * server on loopback: the AWS SDK for JavaScript v3 client of the service, Input as the command's
 * parameters, in the schedule's region; AWS's error as the failed attempt's result; an action the
 * service's SDK does not have is `UnknownOperationException`, sent nowhere.
 */
import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { CreateStreamCommand, GetRecordsCommand, GetShardIteratorCommand, KinesisClient, waitUntilStreamExists } from '@aws-sdk/client-kinesis';
import { CreateStateMachineCommand, DescribeExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { beforeAll, describe, expect, it } from 'vitest';
import { testFire } from '../../../testing/fire-context';
import { requireMoto } from '../../../testing/moto';
import { createDeliveryPool, deliver, type FireContext } from '../..';

const REGION = 'eu-west-1';
const suffix = randomUUID().slice(0, 8);
const pool = createDeliveryPool(8);
const universal = (service: string, action: string) => `arn:aws:scheduler:::aws-sdk:${service}:${action}`;
const fire = (overrides: Partial<FireContext> = {}) => testFire(REGION, new Date('2026-06-01T08:30:00.000Z'), overrides);

let dynamo: DynamoDBClient;
let sqs: SQSClient;
const table = `orders-${suffix}`;

beforeAll(async () => {
  await requireMoto();
  // The schedule's region (eu-west-1) is where the call goes: the resources live there.
  dynamo = new DynamoDBClient({ region: REGION });
  sqs = new SQSClient({ region: REGION });
  await dynamo.send(
    new CreateTableCommand({ TableName: table, KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }], BillingMode: 'PAY_PER_REQUEST' }),
  );
});

describe('§14 universal targets on moto', () => {
  it('aws-sdk:dynamodb:putItem writes the item the input names, read back with GetItem', async () => {
    const input = JSON.stringify({ TableName: table, Item: { pk: { S: 'run-1' }, total: { N: '42' }, note: { S: 'nightly' } } });
    const outcome = await deliver({ type: 'aws', pool, target: { arn: universal('dynamodb', 'putItem'), input }, fire: fire() });
    expect(outcome.status).toBe('success');
    expect(outcome.result).toEqual({ service: 'aws-sdk:dynamodb', operation: 'PutItem', request_id: expect.any(String) });
    expect(outcome.request).toEqual({ type: 'aws', service: 'aws-sdk:dynamodb', operation: 'PutItem', region: REGION, params: JSON.parse(input) });
    const read = await dynamo.send(new GetItemCommand({ TableName: table, Key: { pk: { S: 'run-1' } } }));
    expect(read.Item).toEqual({ pk: { S: 'run-1' }, total: { N: '42' }, note: { S: 'nightly' } });
  });

  it('aws-sdk:sqs:sendMessage delivers a message received from the queue; the answer is kept as the excerpt', async () => {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `inbox-${suffix}` }));
    const input = JSON.stringify({ QueueUrl, MessageBody: 'close the books', MessageAttributes: { kind: { DataType: 'String', StringValue: 'ledger' } } });
    const outcome = await deliver({ type: 'aws', pool, target: { arn: universal('sqs', 'sendMessage'), input }, fire: fire() });
    expect(outcome.status).toBe('success');
    const result = outcome.result as { service: string; operation: string; response_excerpt: string };
    expect([result.service, result.operation]).toEqual(['aws-sdk:sqs', 'SendMessage']);
    const answered = JSON.parse(result.response_excerpt);
    const got = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 2, MessageAttributeNames: ['All'] }));
    expect(got.Messages?.map((m) => [m.MessageId, m.Body, m.MessageAttributes?.kind?.StringValue])).toEqual([[answered.MessageId, 'close the books', 'ledger']]);
  });

  it('aws-sdk:kinesis:putRecord puts the record the input names, read back from its shard (HTTP/1.1, as every client)', async () => {
    // The Kinesis client's default HTTP/2 handler cannot reach an http:// endpoint such as moto's;
    // every client of the product is given the HTTP/1.1 one (decision 362).
    const reader = new KinesisClient({ region: REGION, requestHandler: new NodeHttpHandler() });
    const stream = `clicks-${suffix}`;
    await reader.send(new CreateStreamCommand({ StreamName: stream, ShardCount: 1 }));
    await waitUntilStreamExists({ client: reader, maxWaitTime: 20 }, { StreamName: stream });
    const input = JSON.stringify({ StreamName: stream, PartitionKey: 'run-1', Data: 'bmlnaHRseQ==' });
    const outcome = await deliver({ type: 'aws', pool, target: { arn: universal('kinesis', 'putRecord'), input }, fire: fire() });
    expect(outcome.result).toMatchObject({ service: 'aws-sdk:kinesis', operation: 'PutRecord' });
    expect(outcome.status).toBe('success');
    const put = JSON.parse((outcome.result as { response_excerpt: string }).response_excerpt) as { ShardId: string; SequenceNumber: string };
    const { ShardIterator } = await reader.send(new GetShardIteratorCommand({ StreamName: stream, ShardId: put.ShardId, ShardIteratorType: 'AT_SEQUENCE_NUMBER', StartingSequenceNumber: put.SequenceNumber }));
    const { Records } = await reader.send(new GetRecordsCommand({ ShardIterator }));
    // (How a blob member's JSON string becomes bytes is the SDK's serializer's; the record is checked by key and sequence.)
    expect(Records?.map((r) => [r.PartitionKey, r.SequenceNumber])).toEqual([['run-1', put.SequenceNumber]]);
  });

  it("an action AWS refuses is a failed attempt with AWS's error code and message (a table that does not exist)", async () => {
    const outcome = await deliver({ type: 'aws', pool, target: { arn: universal('dynamodb', 'putItem'), input: JSON.stringify({ TableName: `missing-${suffix}`, Item: { pk: { S: 'x' } } }) }, fire: fire() });
    expect(outcome.status).toBe('invocation_error');
    expect(outcome.result).toEqual({ error: 'ResourceNotFoundException', message: 'Requested resource not found', request_id: expect.any(String) });
    expect(outcome.retryable).toBe(false);
  });

  it('an action the service does not have is UnknownOperationException; nothing is sent', async () => {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `untouched-${suffix}` }));
    const outcome = await deliver({ type: 'aws', pool, target: { arn: universal('sqs', 'sendTelegram'), input: JSON.stringify({ QueueUrl, MessageBody: 'x' }) }, fire: fire() });
    expect(outcome.status).toBe('invocation_error');
    expect(outcome.result).toEqual({ error: 'UnknownOperationException', message: 'sendTelegram is not an operation of sqs: the AWS SDK for JavaScript v3 client of sqs has no SendTelegramCommand' });
    expect(outcome.retryable).toBe(false);
    expect((await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 1 }))).Messages ?? []).toEqual([]);
  });

  it('the IAM prefix states names Step Functions (sfn); an action in another case is found case-insensitively', async () => {
    const sfn = new SFNClient({ region: REGION });
    const { stateMachineArn } = await sfn.send(
      new CreateStateMachineCommand({ name: `nightly-${suffix}`, roleArn: 'arn:aws:iam::123456789012:role/sfn', definition: JSON.stringify({ StartAt: 'Done', States: { Done: { Type: 'Pass', End: true } } }) }),
    );
    const input = JSON.stringify({ stateMachineArn, name: `run-${suffix}`, input: '{"k":1}' });
    const outcome = await deliver({ type: 'aws', pool, target: { arn: universal('states', 'StartExecution'), input }, fire: fire() });
    expect(outcome.status, JSON.stringify(outcome.result)).toBe('success');
    expect(outcome.result).toMatchObject({ service: 'aws-sdk:states', operation: 'StartExecution' });
    const executionArn = JSON.parse((outcome.result as { response_excerpt: string }).response_excerpt).executionArn;
    expect((await sfn.send(new DescribeExecutionCommand({ executionArn }))).name).toBe(`run-${suffix}`);
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `lower-${suffix}` }));
    expect((await deliver({ type: 'aws', pool, target: { arn: universal('sqs', 'sendmessage'), input: JSON.stringify({ QueueUrl, MessageBody: 'm' }) }, fire: fire() })).result).toMatchObject({ operation: 'SendMessage' });
  });
});
