/**
 * SPEC §13 and §12.3 through the real worker (its injected clock), a real database of the TEST_DATABASE
 * dialect and real peers on loopback: moto's server for SQS, SNS, Step Functions and EventBridge, and an
 * HTTP receiver written here for webhooks. The claim commits each http / aws attempt in flight, the
 * delivery runs outside the transaction, and its run is recorded after; a worker that dies in between
 * is recovered with one repeated delivery under the same id.
 */
import { randomUUID } from 'node:crypto';
import { EventBridgeClient, CreateEventBusCommand, PutRuleCommand, PutTargetsCommand } from '@aws-sdk/client-eventbridge';
import { CreateStateMachineCommand, ListExecutionsCommand, DescribeExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import { CreateTopicCommand, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { orgAccountId } from '../../lib/auth';
import { DEAD_LETTER_ATTRIBUTES, occurrenceId, type HostResolver } from '../../lib/targets';
import { createSchedule, fireDue, deliverEach, listDeadLetters, recordDelivered, schedulerEngine, signingSecretsForDelivery, type Engine } from '../../lib/schedules';
import { testDelivery } from '../../lib/testing/fire-and-deliver';
import { TEST_LIMITS } from '../../lib/testing/limits';
import { requireMoto } from '../../lib/testing/moto';
import { startReceiver, type ReceiverAnswer } from '../../lib/testing/receiver';
import { useSeededScheduler } from '../../lib/testing/seeded-scheduler';
import { testDialect } from '../../lib/testing/test-db';
import { Worker } from '../worker';

const REGION = 'us-east-1';
/** moto's default account: the queues, topics and machines the targets name live there. */
const AWS_ACCOUNT = '123456789012';
const suffix = randomUUID().slice(0, 8);
const w = useSeededScheduler();
let sqs: SQSClient;

beforeAll(async () => {
  await requireMoto();
  sqs = new SQSClient({ region: REGION });
});

async function createQueue(name: string): Promise<{ url: string; arn: string }> {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name }));
  const attrs = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
  return { url: QueueUrl!, arn: attrs.Attributes!.QueueArn! };
}

async function receiveAll(url: string, expected: number, waitSeconds = 5): Promise<Message[]> {
  const messages: Message[] = [];
  for (const deadline = Date.now() + waitSeconds * 1000; messages.length < expected && Date.now() < deadline; ) {
    const res = await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, MessageAttributeNames: ['All'] }));
    messages.push(...(res.Messages ?? []));
  }
  return messages;
}

/** What the saves allow although private (SPEC §13.1): the receivers on loopback. */
const SAVE_ALLOWED = { hosts: [], addresses: [], ranges: ['127.0.0.0/8'] };

/** A one-time schedule at `at` (UTC) to an external target, with optional retry / dead-letter fields. */
async function oneTime(alias: string, at: Date, external: { type: 'http' | 'aws'; target: Record<string, unknown> }, extra: Record<string, unknown> = {}, resolveHost?: HostResolver) {
  return createSchedule({
    db: w.db, actor: w.actor(), revision: await w.scheduler(), limits: TEST_LIMITS, now: new Date(at.getTime() - 60_000), httpAllowList: SAVE_ALLOWED, resolveHost,
    input: { alias, repeat: 'one_time', invocation_time: at.toISOString().slice(0, 19), timezone: 'UTC', invocation_target_type: external.type, invocation_target: external.target, ...extra },
  });
}

/** A worker whose clock reads `clock.at`; each `tickAt` ticks until nothing more is claimed, then waits for its deliveries' records. */
function workerAt(start: Date, delivery = testDelivery()) {
  const clock = { at: start };
  const worker = new Worker({ db: w.db, limits: TEST_LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => clock.at, delivery });
  return {
    worker,
    async tickAt(at: Date) {
      clock.at = at;
      for (let i = 0; i < 20 && (await worker.tick(at)) > 0; i++);
      await worker.deliveries.drain();
      await worker.deliveryStep(at);
    },
  };
}

const runsOf = (scheduleId: string) => w.db.run.findMany({ where: { scheduleId }, orderBy: [{ createdAt: 'asc' }, { attempt: 'asc' }] });
const plus = (d: Date, ms: number) => new Date(d.getTime() + ms);

async function scheduleArnOf(alias: string): Promise<string> {
  const rev = await w.scheduler();
  const blob = await w.db.blob.findUniqueOrThrow({ where: { id: rev.blobId } });
  const account = await orgAccountId(w.db, blob.orgId);
  return `arn:aws:scheduler:${REGION}:${account}:schedule/${blob.alias}/${alias}`;
}

describe('§13.2 aws targets through the worker, against moto', () => {
  it('an SQS target receives the default event of a one-time schedule, field by field, resources = the schedule ARN; the run records the message id', async () => {
    const q = await createQueue(`orders-${suffix}`);
    const at = new Date('2031-05-01T08:30:00Z');
    const s = await oneTime('sqs-once', at, { type: 'aws', target: { arn: q.arn } });
    await workerAt(at).tickAt(plus(at, 400));
    const [m] = await receiveAll(q.url, 1);
    const event = JSON.parse(m.Body!);
    const rev = await w.scheduler();
    const blob = await w.db.blob.findUniqueOrThrow({ where: { id: rev.blobId } });
    expect(event).toEqual({
      version: '0',
      id: occurrenceId({ scheduleId: s.id, scheduledFor: at, trigger: 'schedule' }),
      'detail-type': 'Scheduled Event',
      source: 'aws.scheduler',
      account: await orgAccountId(w.db, blob.orgId),
      time: '2031-05-01T08:30:00Z',
      region: REGION,
      resources: [await scheduleArnOf('sqs-once')],
      detail: '{}',
    });
    const runs = await runsOf(s.id);
    expect(runs.map((r) => [r.status, r.trigger, r.attempt, r.invocationTargetType])).toEqual([['success', 'schedule', 1, 'aws']]);
    expect(runs[0].result).toEqual({ service: 'sqs', request_id: expect.any(String), message_id: m.MessageId });
    // Nothing left in flight; the one-time schedule completed once its attempt was recorded.
    expect(await w.db.pendingAttempt.count({ where: { scheduleId: s.id } })).toBe(0);
    expect((await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } })).state).toBe('completed');
  });

  it('an SNS, a Step Functions and an EventBridge target each receive their fire', async () => {
    const sns = new SNSClient({ region: REGION });
    const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: `alerts-${suffix}` }));
    const viaTopic = await createQueue(`via-topic-${suffix}`);
    await sns.send(new SubscribeCommand({ TopicArn, Protocol: 'sqs', Endpoint: viaTopic.arn, Attributes: { RawMessageDelivery: 'true' } }));
    const sfn = new SFNClient({ region: REGION });
    const machine = await sfn.send(
      new CreateStateMachineCommand({ name: `nightly-${suffix}`, roleArn: `arn:aws:iam::${AWS_ACCOUNT}:role/sfn`, definition: JSON.stringify({ StartAt: 'Done', States: { Done: { Type: 'Pass', End: true } } }) }),
    );
    const events = new EventBridgeClient({ region: REGION });
    const bus = `orders-${suffix}`;
    const busArn = (await events.send(new CreateEventBusCommand({ Name: bus }))).EventBusArn!;
    const viaBus = await createQueue(`via-bus-${suffix}`);
    await events.send(new PutRuleCommand({ Name: `fwd-${suffix}`, EventBusName: bus, EventPattern: JSON.stringify({ source: ['scheduler.orders'] }) }));
    await events.send(new PutTargetsCommand({ Rule: `fwd-${suffix}`, EventBusName: bus, Targets: [{ Id: 'q', Arn: viaBus.arn }] }));

    const at = new Date('2031-05-02T09:00:00Z');
    const topic = await oneTime('sns-once', at, { type: 'aws', target: { arn: TopicArn!, input: 'disk almost full' } });
    const steps = await oneTime('sfn-once', at, { type: 'aws', target: { arn: machine.stateMachineArn! } });
    const bused = await oneTime('bus-once', at, { type: 'aws', target: { arn: busArn, input: '{"order":42}', eventbridge_parameters: { detail_type: 'Order due', source: 'scheduler.orders' } } });
    await workerAt(at).tickAt(plus(at, 500));

    const [fromTopic] = await receiveAll(viaTopic.url, 1);
    expect(fromTopic.Body).toBe('disk almost full');
    expect((await runsOf(topic.id)).map((r) => [r.status, (r.result as { service?: string }).service])).toEqual([['success', 'sns']]);

    const executions = await sfn.send(new ListExecutionsCommand({ stateMachineArn: machine.stateMachineArn! }));
    expect(executions.executions).toHaveLength(1);
    const described = await sfn.send(new DescribeExecutionCommand({ executionArn: executions.executions![0].executionArn! }));
    expect(JSON.parse(described.input!)).toMatchObject({ id: occurrenceId({ scheduleId: steps.id, scheduledFor: at, trigger: 'schedule' }), resources: [await scheduleArnOf('sfn-once')] });
    const [stepsRun] = await runsOf(steps.id);
    expect(stepsRun.result).toMatchObject({ service: 'states', execution_arn: executions.executions![0].executionArn });

    const [fromBus] = await receiveAll(viaBus.url, 1);
    expect(JSON.parse(fromBus.Body!)).toMatchObject({ 'detail-type': 'Order due', source: 'scheduler.orders', detail: { order: 42 } });
    expect((await runsOf(bused.id)).map((r) => [r.status, (r.result as { service?: string }).service])).toEqual([['success', 'events']]);
  });

  it('a target whose queue does not exist is retried per its policy (60 s, 120 s) and, exhausted, lands in the SQS dead-letter queue with every listed attribute', async () => {
    const dlq = await createQueue(`dlq-${suffix}`);
    const gone = `arn:aws:sqs:${REGION}:${AWS_ACCOUNT}:gone-${suffix}`;
    const at = new Date('2031-05-03T10:00:00Z');
    const s = await oneTime('to-gone-queue', at, { type: 'aws', target: { arn: gone } }, { retry_policy: { maximum_retry_attempts: 2, maximum_event_age_seconds: 3600 }, dead_letter: { arn: dlq.arn } });
    const worker = workerAt(at);
    await worker.tickAt(plus(at, 100));
    await worker.tickAt(plus(at, 100 + 60_000));
    await worker.tickAt(plus(at, 100 + 60_000 + 120_000));
    const runs = await runsOf(s.id);
    expect(runs.map((r) => [r.attempt, r.status, (r.result as { error?: string }).error, r.exhausted])).toEqual([
      [1, 'invocation_error', 'QueueDoesNotExist', null],
      [2, 'invocation_error', 'QueueDoesNotExist', null],
      [3, 'invocation_error', 'QueueDoesNotExist', 'maximum_retry_attempts'],
    ]);
    expect(runs[0].nextAttemptAt?.toISOString()).toBe(plus(at, 100 + 60_000).toISOString());
    expect(runs[1].nextAttemptAt?.toISOString()).toBe(plus(at, 100 + 60_000 + 120_000).toISOString());

    const [m] = await receiveAll(dlq.url, 1);
    const attr = (name: string) => m.MessageAttributes?.[name]?.StringValue;
    expect(Object.keys(m.MessageAttributes ?? {}).sort()).toEqual([...DEAD_LETTER_ATTRIBUTES].sort());
    expect(attr('ERROR_CODE')).toBe('QueueDoesNotExist');
    expect(attr('ERROR_MESSAGE')).toBe('The specified queue does not exist.');
    expect(attr('EXECUTION_ID')).toBe(runs[2].id);
    expect(attr('EXHAUSTED_RETRY_CONDITION')).toBe('MaximumRetryAttempts');
    expect(attr('IS_PAYLOAD_TRUNCATED')).toBe('false');
    expect(m.MessageAttributes?.RETRY_ATTEMPTS).toMatchObject({ DataType: 'Number', StringValue: '2' });
    expect(attr('SCHEDULED_TIME')).toBe('2031-05-03T10:00:00Z');
    expect(attr('SCHEDULE_ARN')).toBe(await scheduleArnOf('to-gone-queue'));
    expect(attr('TARGET_ARN')).toBe(gone);
    // The body is the request the last attempt sent: SendMessage with the default event.
    const body = JSON.parse(m.Body!);
    expect(body).toMatchObject({ type: 'aws', service: 'sqs', operation: 'SendMessage' });
    expect(JSON.parse(body.params.MessageBody)).toMatchObject({ id: occurrenceId({ scheduleId: s.id, scheduledFor: at, trigger: 'schedule' }) });

    // Still kept in the dead-letter list, and marked sent.
    const { dead_letters } = await listDeadLetters({ db: w.db, actor: w.actor(), revision: await w.scheduler() });
    const letter = dead_letters.find((d) => d.schedule_id === s.id);
    expect(letter).toMatchObject({ attempts: 3, exhausted: 'maximum_retry_attempts', queue_send: { status: 'sent', attempts: 1, message_id: m.MessageId } });
    const row = await w.db.deadLetter.findUniqueOrThrow({ where: { id: letter!.id } });
    expect([row.sqsStatus, row.sqsAttempts, (row.sqsResult as { message_id?: string }).message_id]).toEqual(['sent', 1, m.MessageId]);
  });
});

describe('§12.3 a dead-letter queue that does not exist', () => {
  it('the send fails with AWS\'s error, is not tried again (not retryable), and the dead-letter list says so', async () => {
    const at = new Date('2031-05-03T11:00:00Z');
    const missing = `arn:aws:sqs:${REGION}:${AWS_ACCOUNT}:no-such-dlq-${suffix}`;
    const s = await oneTime('to-missing-dlq', at, { type: 'aws', target: { arn: `arn:aws:sqs:${REGION}:${AWS_ACCOUNT}:gone-too-${suffix}` } }, { retry_policy: { maximum_retry_attempts: 0, maximum_event_age_seconds: 3600 }, dead_letter: { arn: missing } });
    const worker = workerAt(at);
    const failures: { error: string; final: boolean }[] = [];
    worker.worker.events.on('dead-letters:sent', (p) => failures.push(...p.failures));
    await worker.tickAt(plus(at, 100));
    const { dead_letters } = await listDeadLetters({ db: w.db, actor: w.actor(), revision: await w.scheduler() });
    const letter = dead_letters.find((d) => d.schedule_id === s.id);
    expect(letter?.queue_send).toEqual({ status: 'failed', attempts: 1, error: 'QueueDoesNotExist', message: 'The specified queue does not exist.' });
    expect(failures.map((f) => [f.error, f.final])).toEqual([['QueueDoesNotExist', true]]);
    // Not tried again.
    await worker.tickAt(plus(at, 100 + 120_000));
    expect((await w.db.deadLetter.findUniqueOrThrow({ where: { id: letter!.id } })).sqsAttempts).toBe(1);
  });
});

describe('§13.1 webhooks through the worker, against a real receiver', () => {
  it('every delivery verifies with the scheduler\'s secret; a 500 is retried with the same webhook-id; the success records status and excerpt', async () => {
    let calls = 0;
    const r = await startReceiver((): ReceiverAnswer => (++calls === 1 ? { status: 500, body: 'busy' } : { status: 200, body: 'accepted' }));
    try {
      const at = new Date('2031-05-04T07:00:00Z');
      const s = await oneTime('hook-retried', at, { type: 'http', target: { url: r.url('/hooks/nightly') } }, { retry_policy: { maximum_retry_attempts: 3, maximum_event_age_seconds: 3600 } });
      const worker = workerAt(at);
      await worker.tickAt(plus(at, 200));
      await worker.tickAt(plus(at, 200 + 60_000));
      expect(r.requests).toHaveLength(2);
      const secrets = await signingSecretsForDelivery(w.db, (await w.scheduler()).blobId, plus(at, 60_000));
      for (const req of r.requests) {
        // Throws when the signature does not verify (standardwebhooks, the receiver's own library).
        const verified = new Webhook(secrets[0]).verify(req.body, req.headers);
        expect(verified).toMatchObject({ id: occurrenceId({ scheduleId: s.id, scheduledFor: at, trigger: 'schedule' }), source: 'aws.scheduler' });
      }
      expect(r.requests.map((q) => q.headers['webhook-id'])).toEqual([occurrenceId({ scheduleId: s.id, scheduledFor: at, trigger: 'schedule' }), occurrenceId({ scheduleId: s.id, scheduledFor: at, trigger: 'schedule' })]);
      const runs = await runsOf(s.id);
      expect(runs.map((x) => [x.attempt, x.status, x.result])).toEqual([
        [1, 'invocation_error', { error: 'http_error', message: expect.stringContaining('500'), http_status: 500, response_excerpt: 'busy' }],
        [2, 'success', { http_status: 200, response_excerpt: 'accepted' }],
      ]);
    } finally {
      await r.close();
    }
  });

  it('a receiver that hangs is cut at timeout_seconds; the run says timeout', async () => {
    const r = await startReceiver(() => 'hang');
    try {
      const at = new Date('2031-05-05T07:00:00Z');
      const s = await oneTime('hook-hangs', at, { type: 'http', target: { url: r.url('/slow'), timeout_seconds: 1 } });
      const started = performance.now();
      await workerAt(at).tickAt(plus(at, 100));
      expect(performance.now() - started).toBeLessThan(5_000);
      expect((await runsOf(s.id)).map((x) => [x.status, (x.result as { error?: string }).error])).toEqual([['invocation_error', 'timeout']]);
    } finally {
      await r.close();
    }
  });

  it('a host that resolves to a private address at fire time is refused then (destination_refused), and nothing is sent', async () => {
    const r = await startReceiver(() => ({ status: 200 }));
    try {
      const at = new Date('2031-05-06T07:00:00Z');
      // The name resolves to a public address when saved, and to a private one at the fire (DNS rebinding).
      const s = await oneTime('hook-rebound', at, { type: 'http', target: { url: 'http://hooks.example.test/in' } }, {}, async () => [{ address: '93.184.216.34', family: 4 }]);
      const delivery = { ...testDelivery({ hosts: [], addresses: [], ranges: [] }), resolve: async () => [{ address: '10.1.2.3', family: 4 as const }] };
      await workerAt(at, delivery).tickAt(plus(at, 100));
      const [run] = await runsOf(s.id);
      expect([run.status, (run.result as { error?: string }).error]).toEqual(['invocation_error', 'destination_refused']);
      expect((run.result as { message: string }).message).toContain('10.1.2.3');
      expect(r.requests).toHaveLength(0);
    } finally {
      await r.close();
    }
  });
});

describe('§13 delivery outside the transaction: an interrupted attempt', () => {
  it('sent but not recorded (the worker died): recovered once its lease ends, delivered once more with the same webhook-id, the run says repeated_delivery; a second interruption records delivery_interrupted without a third send', async () => {
    const r = await startReceiver(() => ({ status: 204 }));
    try {
      const at = new Date('2031-05-07T07:00:00Z');
      const a = await oneTime('hook-recovered', at, { type: 'http', target: { url: r.url('/a'), timeout_seconds: 2 } });
      // A worker claims and sends, then dies before recording: fireDue commits the in-flight row,
      // deliverEach sends, and nothing records.
      const claimed = await fireDue({ db: w.db, now: plus(at, 100), limit: 10, limits: TEST_LIMITS });
      const inFlight = claimed.flatMap((o) => (o.kind === 'delivering' ? [o.delivery] : []));
      expect(inFlight.map((d) => [d.scheduleId, d.deliveries])).toEqual([[a.id, 0]]);
      await Promise.all(deliverEach(w.db, inFlight, testDelivery(), plus(at, 100)));
      expect(r.requests).toHaveLength(1);
      expect(await runsOf(a.id)).toEqual([]);
      // Within the lease (2 s timeout + 60 s) nothing is claimed again.
      expect((await fireDue({ db: w.db, now: plus(at, 30_000), limit: 10, limits: TEST_LIMITS })).length).toBe(0);
      // After it: one repeated delivery, recorded.
      await workerAt(at).tickAt(plus(at, 100 + 62_001));
      expect(r.requests).toHaveLength(2);
      expect(r.requests[1].headers['webhook-id']).toBe(r.requests[0].headers['webhook-id']);
      const runs = await runsOf(a.id);
      expect(runs.map((x) => [x.attempt, x.status, x.result])).toEqual([[1, 'success', { http_status: 204, response_excerpt: '', repeated_delivery: true }]]);
      expect((await w.db.schedule.findUniqueOrThrow({ where: { id: a.id } })).state).toBe('completed');

      // Interrupted twice: claimed (first send), lost; recovered (second send), lost; then recorded without a third.
      const b = await oneTime('hook-twice', at, { type: 'http', target: { url: r.url('/b'), timeout_seconds: 2 } });
      const sentB = () => r.requests.filter((q) => q.path === '/b').length;
      for (const [i, t] of [plus(at, 200), plus(at, 200 + 62_001)].entries()) {
        const out = await fireDue({ db: w.db, now: t, limit: 10, limits: TEST_LIMITS });
        const d = out.flatMap((o) => (o.kind === 'delivering' ? [o.delivery] : []));
        expect(d.map((x) => x.deliveries)).toEqual([i]);
        await Promise.all(deliverEach(w.db, d, testDelivery(), t));
      }
      expect(sentB()).toBe(2);
      await workerAt(at).tickAt(plus(at, 200 + 2 * 62_001 + 1));
      expect(sentB()).toBe(2);
      expect((await runsOf(b.id)).map((x) => [x.status, (x.result as { error?: string }).error])).toEqual([['invocation_error', 'delivery_interrupted']]);
      expect(await w.db.pendingAttempt.count({ where: { scheduleId: { in: [a.id, b.id] } } })).toBe(0);
    } finally {
      await r.close();
    }
  });

  it('a live worker whose lease ended (a stall or a partition longer than the lease) and the worker that recovered it both send: the recovery records the one run, saying repeated_delivery, whichever records first; the stalled record records nothing', async () => {
    const r = await startReceiver(() => ({ status: 200, body: 'ok' }));
    try {
      const at = new Date('2031-05-07T08:00:00Z');
      for (const [i, firstToRecord] of (['stalled', 'recovering'] as const).entries()) {
        const c = await oneTime(`hook-lapsed-${firstToRecord}`, at, { type: 'http', target: { url: r.url(`/${firstToRecord}`), timeout_seconds: 2 } });
        const sent = () => r.requests.filter((q) => q.path === `/${firstToRecord}`).length;
        const t0 = plus(at, 300 + i * 100);
        // The first worker claims and sends, then stalls before recording: its lease (2 s + 60 s) ends unrenewed.
        const first = (await fireDue({ db: w.db, now: t0, limit: 10, limits: TEST_LIMITS })).flatMap((o) => (o.kind === 'delivering' ? [o.delivery] : []));
        expect(first.map((x) => [x.scheduleId, x.deliveries])).toEqual([[c.id, 0]]);
        const stalled = await Promise.all(deliverEach(w.db, first, testDelivery(), t0));
        // Another worker recovers it (its own in-flight row: the stalled one's is gone) and sends it once more.
        const t1 = plus(t0, 62_001);
        const second = (await fireDue({ db: w.db, now: t1, limit: 10, limits: TEST_LIMITS })).flatMap((o) => (o.kind === 'delivering' ? [o.delivery] : []));
        expect(second.map((x) => [x.scheduleId, x.deliveries])).toEqual([[c.id, 1]]);
        expect(second[0].pendingId).not.toBe(first[0].pendingId);
        const recovering = await Promise.all(deliverEach(w.db, second, testDelivery(), t1));
        expect(sent()).toBe(2);
        expect(r.requests.filter((q) => q.path === `/${firstToRecord}`).map((q) => q.headers['webhook-id'])).toEqual(Array(2).fill(occurrenceId({ scheduleId: c.id, scheduledFor: at, trigger: 'schedule' })));
        const recorded = async (d: typeof stalled, ms: number) => (await recordDelivered(w.db, d, plus(t1, ms))).length;
        if (firstToRecord === 'stalled') expect([await recorded(stalled, 10), await recorded(recovering, 20)]).toEqual([0, 1]);
        else expect([await recorded(recovering, 10), await recorded(stalled, 20)]).toEqual([1, 0]);
        expect((await runsOf(c.id)).map((x) => [x.attempt, x.status, x.result])).toEqual([[1, 'success', { http_status: 200, response_excerpt: 'ok', repeated_delivery: true }]]);
        expect(await w.db.pendingAttempt.count({ where: { scheduleId: c.id } })).toBe(0);
      }
    } finally {
      await r.close();
    }
  });

  it('a send that cannot be counted (a database fault) is not sent; its run is a retryable internal_error and the retry is delivered', async () => {
    const r = await startReceiver(() => ({ status: 200, body: 'ok' }));
    try {
      const at = new Date('2031-05-07T09:00:00Z');
      const c = await oneTime('hook-uncounted', at, { type: 'http', target: { url: r.url('/uncounted'), timeout_seconds: 2 } }, { retry_policy: { maximum_retry_attempts: 3, maximum_event_age_seconds: 3600 } });
      const t0 = plus(at, 100);
      const claimed = (await fireDue({ db: w.db, now: t0, limit: 10, limits: TEST_LIMITS })).flatMap((o) => (o.kind === 'delivering' ? [o.delivery] : []));
      expect(claimed.map((x) => x.scheduleId)).toEqual([c.id]);
      // The database refuses the count (a trigger raises, as a fault would); everything else works.
      const refuse = testDialect() === 'postgresql'
        ? ["CREATE FUNCTION refuse_count() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'count refused (test)'; END $$", 'CREATE TRIGGER refuse_count BEFORE UPDATE OF deliveries ON pending_attempts FOR EACH ROW EXECUTE FUNCTION refuse_count()']
        : ["CREATE TRIGGER refuse_count BEFORE UPDATE OF deliveries ON pending_attempts BEGIN SELECT RAISE(ABORT, 'count refused (test)'); END"];
      const allow = testDialect() === 'postgresql' ? ['DROP TRIGGER refuse_count ON pending_attempts', 'DROP FUNCTION refuse_count()'] : ['DROP TRIGGER refuse_count'];
      for (const sql of refuse) await w.db.$executeRawUnsafe(sql);
      let delivered: Awaited<ReturnType<typeof deliverEach>[number]>[];
      try {
        delivered = await Promise.all(deliverEach(w.db, claimed, testDelivery(), t0));
      } finally {
        for (const sql of allow) await w.db.$executeRawUnsafe(sql);
      }
      expect(r.requests).toHaveLength(0);
      expect(delivered.map((d) => [d.outcome.status, d.outcome.retryable, (d.outcome.result as { error?: string }).error]), JSON.stringify(delivered[0].outcome.result)).toEqual([['invocation_error', true, 'internal_error']]);
      expect((delivered[0].outcome.result as { message: string }).message).toContain('count refused (test)');
      const [recorded] = await recordDelivered(w.db, delivered, plus(t0, 10));
      expect(recorded.kind === 'fired' && recorded.nextAttemptAt).toBeInstanceOf(Date);
      // The retry, once due, is sent and succeeds.
      await workerAt(at).tickAt((recorded as { nextAttemptAt: Date }).nextAttemptAt);
      expect(r.requests).toHaveLength(1);
      expect((await runsOf(c.id)).map((x) => [x.attempt, x.status])).toEqual([[1, 'invocation_error'], [2, 'success']]);
    } finally {
      await r.close();
    }
  });

  it('a record that fails (a database fault) is tried again with the attempt still in hand: one run, no repeated delivery', async () => {
    const r = await startReceiver(() => ({ status: 200, body: 'ok' }));
    try {
      const at = new Date('2031-05-07T10:00:00Z');
      const c = await oneTime('hook-record-retried', at, { type: 'http', target: { url: r.url('/record-retried'), timeout_seconds: 2 } });
      let failuresLeft = 2;
      const engine: Engine = {
        ...schedulerEngine,
        recordDelivered: async (db, delivered, now) => {
          if (failuresLeft-- > 0) throw new Error('the database went away for a moment (test)');
          return schedulerEngine.recordDelivered(db, delivered, now);
        },
      };
      const worker = new Worker({ db: w.db, limits: TEST_LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => plus(at, 100), delivery: testDelivery(), engine });
      const errors: string[] = [];
      worker.events.on('delivery:error', (e) => errors.push(e.error.message));
      const began = performance.now();
      await worker.tick(plus(at, 100));
      await worker.deliveries.drain();
      // Tried after 1 s, then 2 s: recorded by the third try.
      expect(performance.now() - began).toBeGreaterThanOrEqual(2_900);
      expect(errors).toEqual(Array(2).fill('the database went away for a moment (test)'));
      expect(r.requests).toHaveLength(1);
      expect((await runsOf(c.id)).map((x) => [x.attempt, x.status, x.result])).toEqual([[1, 'success', { http_status: 200, response_excerpt: 'ok' }]]);
      expect(await w.db.pendingAttempt.count({ where: { scheduleId: c.id } })).toBe(0);
    } finally {
      await r.close();
    }
  });

  it('a slow webhook does not hold up a workflow fire due at the same time: the workflow run is recorded before the webhook answers', async () => {
    const r = await startReceiver(() => ({ status: 200, delayMs: 1500 }));
    try {
      const at = new Date('2031-05-08T07:00:00Z');
      const hook = await oneTime('hook-slow', at, { type: 'http', target: { url: r.url('/slow') } });
      const flow = await createSchedule({
        db: w.db, actor: w.actor(), revision: await w.scheduler(), limits: TEST_LIMITS, now: new Date(at.getTime() - 60_000),
        input: { alias: 'flow-same-time', repeat: 'one_time', invocation_time: at.toISOString().slice(0, 19), timezone: 'UTC', invocation_target: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' } } },
      });
      const { worker } = workerAt(at);
      await worker.tick(plus(at, 100));
      // The tick returned with the webhook still in flight; the workflow's run is already committed.
      expect((await runsOf(flow.id)).map((x) => x.status)).toEqual(['success']);
      expect(await runsOf(hook.id)).toEqual([]);
      expect(worker.deliveries.size).toBe(1);
      await worker.deliveries.drain();
      expect((await runsOf(hook.id)).map((x) => x.status)).toEqual(['success']);
    } finally {
      await r.close();
    }
  });
});
