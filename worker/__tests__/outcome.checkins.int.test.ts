/**
 * SPEC §16.1 outcomes and §13.4 context attributes through the real worker (its injected clock), a
 * real database of the TEST_DATABASE dialect, a real webhook receiver on loopback and the check-in
 * endpoint served over real HTTP (the route's handler, `handleCheckin`). Check-ins are sent by the
 * test to the URL the receiver was given, at chosen moments of the worker's clock: while the attempt
 * is in flight, after its run is recorded, after its deadline.
 */
import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_FOUND_BODY, CHECKIN_RATE } from '../../lib/api';
import { childEnv, serverSecretKey } from '../../lib/config';
import { checkinKey, checkinToken, createSchedule, runSchedule, toRun } from '../../lib/schedules';
import { occurrenceId } from '../../lib/targets';
import { testDelivery } from '../../lib/testing/fire-and-deliver';
import { TEST_LIMITS } from '../../lib/testing/limits';
import { requireMoto } from '../../lib/testing/moto';
import { closedPort, startReceiver, type Receiver } from '../../lib/testing/receiver';
import { useSeededScheduler } from '../../lib/testing/seeded-scheduler';
import { type FetchServer } from '../../lib/testing/serve-fetch';
import { serveCheckins, type CheckinEngine } from '../../lib/testing/checkin-endpoint';
import { tickWorkerAt } from '../../lib/testing/tick-worker';
import { Worker } from '../worker';

const w = useSeededScheduler();
const SAVE_ALLOWED = { hosts: [], addresses: [], ranges: ['127.0.0.0/8'] };
/** The worker's and the check-in endpoint's clock. */
const clock = { at: new Date('2031-03-01T10:00:00.000Z') };
const plus = (d: Date, ms: number) => new Date(d.getTime() + ms);
/** The first whole minute after the clock (a one-time schedule's instant has whole seconds). */
const nextMinute = () => new Date((Math.floor(clock.at.getTime() / 60_000) + 2) * 60_000);

let receiver: Receiver;
let web: FetchServer;
let engine: CheckinEngine;
let worker: Worker;

beforeAll(async () => {
  // The receiver answers after 400 ms: check-ins sent meanwhile reach an attempt still in flight.
  receiver = await startReceiver(() => ({ status: 200, body: 'accepted', delayMs: 400 }));
  // The check-in endpoint, served over real HTTP, and the engine naming its URLs.
  ({ web, engine } = await serveCheckins(w.db, () => clock.at));
  worker = new Worker({ db: w.db, limits: TEST_LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => clock.at, delivery: testDelivery(), engine });
});
afterAll(async () => {
  await receiver?.close();
  await web?.close();
});

/** Tick at `at` until nothing more is claimed; `wait` for the deliveries' records, then the between-ticks step. */
const tickAt = (at: Date, wait = true) => tickWorkerAt(worker, clock, at, wait);

let n = 0;
/** A one-time webhook schedule due at `at`, to the receiver. */
async function webhook(at: Date, extra: Record<string, unknown> = {}, target: Record<string, unknown> = {}) {
  n++;
  return createSchedule({
    db: w.db, actor: w.actor(), revision: await w.scheduler(), limits: TEST_LIMITS, now: plus(at, -60_000), httpAllowList: SAVE_ALLOWED,
    input: { alias: `outcome-${n}`, repeat: 'one_time', invocation_time: at.toISOString().slice(0, 19), timezone: 'UTC', invocation_target_type: 'http', invocation_target: { url: receiver.url(`/job/${n}`), ...target }, ...extra },
  });
}

/** The check-in URL the receiver got for schedule `scheduleId`'s occurrence `at`. */
function checkinUrlOf(scheduleId: string, at: Date): string {
  const id = occurrenceId({ scheduleId, scheduledFor: at, trigger: 'schedule' });
  const req = receiver.requests.find((r) => r.headers['webhook-id'] === id);
  if (!req) throw new Error(`the receiver got no request for ${scheduleId}`);
  return req.headers['scheduler-checkin-url'];
}

async function post(url: string, body?: string, method = 'POST') {
  const res = await fetch(url, method === 'GET' ? {} : { method, body });
  return { status: res.status, body: await res.json() };
}

const runOf = async (scheduleId: string) => toRun(await w.db.run.findFirstOrThrow({ where: { scheduleId } }));

describe('§16.1 check-ins', () => {
  it('start while in flight, then success after the record: running → succeeded with started_at, finished_at, duration and message', async () => {
    const at = nextMinute();
    const s = await webhook(at, { completion: { expect_within_seconds: 600 } });
    clock.at = at;
    await worker.tick(at);
    for (let i = 0; i < 100 && receiver.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const url = checkinUrlOf(s.id, at);
    expect(url).toMatch(new RegExp(`^${web.url}/api/v1/checkins/[A-Za-z0-9_-]{43}$`));
    // In flight: the run is not recorded yet; the /start is kept on the attempt.
    clock.at = plus(at, 2_000);
    expect(await w.db.run.count({ where: { scheduleId: s.id } })).toBe(0);
    expect(await post(`${url}/start`)).toEqual({ status: 200, body: { outcome: 'running' } });
    await worker.deliveries.drain();
    expect(await runOf(s.id)).toMatchObject({ status: 'success', outcome: 'running', started_at: plus(at, 2_000).toISOString() });
    // The terminal check-in, 5 s after the start, with a message; GET works the same for scripts.
    clock.at = plus(at, 7_000);
    expect(await post(url, 'report written: 42 rows')).toEqual({ status: 200, body: { outcome: 'succeeded' } });
    const run = await runOf(s.id);
    expect(run).toMatchObject({ outcome: 'succeeded', started_at: plus(at, 2_000).toISOString(), finished_at: plus(at, 7_000).toISOString(), duration_ms: 5_000, outcome_message: 'report written: 42 rows' });
    expect(run.exit_code).toBeUndefined();
    // A later check-in changes nothing and answers the outcome as it is.
    expect(await post(`${url}/fail`, 'too late', 'GET')).toEqual({ status: 200, body: { outcome: 'succeeded' } });
    expect(await runOf(s.id)).toEqual(run);
    // Past the deadline: nothing to time out.
    await tickAt(plus(at, 700_000));
    expect((await runOf(s.id)).outcome).toBe('succeeded');
  });

  it('a failing job: /<exit code> records failed with the code; pause_after_failures counts it', async () => {
    const at = nextMinute();
    const s = await webhook(at, { completion: { expect_within_seconds: 60 }, pause_after_failures: 1 });
    await tickAt(at);
    expect(await runOf(s.id)).toMatchObject({ status: 'success', outcome: 'pending', started_at: at.toISOString() });
    clock.at = plus(at, 3_000);
    expect(await post(`${checkinUrlOf(s.id, at)}/3`, 'disk full', 'GET')).toEqual({ status: 200, body: { outcome: 'failed' } });
    expect(await runOf(s.id)).toMatchObject({ outcome: 'failed', exit_code: 3, duration_ms: 3_000, finished_at: plus(at, 3_000).toISOString() });
    // SPEC §16.1: a failed outcome counts as a failed occurrence (SPEC §12.5): paused by the system.
    const row = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row).toMatchObject({ enabled: false, consecutiveFailures: 1, pausedByType: 'system' });
    expect(row.pauseNote).toContain('outcome failed');
  });

  it('/fail with no code, and a delivery without completion still records the check-ins that arrive', async () => {
    const at = nextMinute();
    const s = await webhook(at);
    await tickAt(at);
    const before = await runOf(s.id);
    expect(before.outcome).toBeUndefined();
    clock.at = plus(at, 1_500);
    expect(await post(`${checkinUrlOf(s.id, at)}/fail`)).toEqual({ status: 200, body: { outcome: 'failed' } });
    expect(await runOf(s.id)).toMatchObject({ outcome: 'failed', duration_ms: 1_500 });
  });

  it('never checks in: timed_out once at the deadline; a late terminal check-in changes nothing', async () => {
    const at = nextMinute();
    const s = await webhook(at, { completion: { expect_within_seconds: 30 }, pause_after_failures: 2 });
    await tickAt(at);
    await tickAt(plus(at, 29_999));
    expect((await runOf(s.id)).outcome).toBe('pending');
    const timedOut: string[] = [];
    const off = worker.events.on('outcome:timed-out', (e) => timedOut.push(...e.runs.map((r) => r.runId)));
    await tickAt(plus(at, 30_000));
    await tickAt(plus(at, 31_000));
    off();
    const run = await runOf(s.id);
    expect(run).toMatchObject({ outcome: 'timed_out', finished_at: plus(at, 30_000).toISOString(), duration_ms: 30_000 });
    expect(timedOut).toEqual([run.id]);
    // Counted once for pause_after_failures (2): not paused.
    expect(await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } })).toMatchObject({ consecutiveFailures: 1, enabled: true });
    clock.at = plus(at, 40_000);
    expect(await post(`${checkinUrlOf(s.id, at)}/0`)).toEqual({ status: 200, body: { outcome: 'timed_out' } });
    expect(await runOf(s.id)).toEqual(run);
  });

  it('/start moves the deadline: timed_out counts from the start', async () => {
    const at = nextMinute();
    const s = await webhook(at, { completion: { expect_within_seconds: 20 } });
    await tickAt(at);
    clock.at = plus(at, 15_000);
    expect((await post(`${checkinUrlOf(s.id, at)}/start`)).body).toEqual({ outcome: 'running' });
    await tickAt(plus(at, 25_000));
    expect((await runOf(s.id)).outcome).toBe('running');
    await tickAt(plus(at, 35_000));
    expect(await runOf(s.id)).toMatchObject({ outcome: 'timed_out', started_at: plus(at, 15_000).toISOString(), duration_ms: 20_000 });
  });
});

describe('§16.1 the check-in endpoint', () => {
  it('one identical 404 for every unknown token or suffix', async () => {
    const at = nextMinute();
    const s = await webhook(at);
    await tickAt(at);
    const good = checkinUrlOf(s.id, at);
    const token = good.split('/').pop()!;
    // A token of another key, for a real run id; one of this key for no run; garbage; a bad suffix.
    const run = await runOf(s.id);
    const otherKey = checkinToken(checkinKey(Buffer.alloc(32, 7)), run.id);
    const noRun = checkinToken(checkinKey(serverSecretKey()), '00000000-0000-4000-8000-000000000000');
    const flipped = token.slice(0, -2) + (token.endsWith('AA') ? 'AB' : 'AA');
    const urls = [
      `${web.url}/api/v1/checkins/${otherKey}`,
      `${web.url}/api/v1/checkins/${noRun}`,
      `${web.url}/api/v1/checkins/${flipped}`,
      `${web.url}/api/v1/checkins/not-a-token`,
      `${good}/256`,
      `${good}/07`,
      `${good}/done`,
      `${good}/start/again`,
    ];
    for (const u of urls) expect(await post(u)).toEqual({ status: 404, body: NOT_FOUND_BODY });
    expect((await runOf(s.id)).outcome).toBeUndefined();
  });

  it('rate limited per token: the check-in after the limit is 429; another token is not affected', async () => {
    const at = nextMinute();
    const a = await webhook(at);
    const b = await webhook(at);
    await tickAt(at);
    const ua = checkinUrlOf(a.id, at);
    for (let i = 0; i < CHECKIN_RATE.limit; i++) expect((await post(`${ua}/start`)).status).toBe(200);
    const limited = await fetch(`${ua}/0`, { method: 'POST' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await runOf(a.id)).outcome).toBe('running');
    expect((await post(checkinUrlOf(b.id, at))).status).toBe(200);
  });

  it('a body over 10 KiB is refused; the first 1 KiB of one under it is kept', async () => {
    const at = nextMinute();
    const s = await webhook(at);
    await tickAt(at);
    const url = checkinUrlOf(s.id, at);
    expect((await post(`${url}/start`, 'x'.repeat(10 * 1024 + 1))).status).toBe(413);
    expect((await post(`${url}/start`, 'é'.repeat(600))).status).toBe(200);
    // 1024 bytes of two-byte characters: 512 of them.
    expect((await runOf(s.id)).outcome_message).toBe('é'.repeat(512));
  });

  it('a message quoting the attempt\'s own check-in URL or token keeps no usable token (decision 361)', async () => {
    const at = nextMinute();
    const s = await webhook(at);
    await tickAt(at);
    const url = checkinUrlOf(s.id, at);
    const token = url.split('/').pop()!;
    expect((await post(`${url}/fail`, `rerun with ${url}/0 or token ${token}`)).status).toBe(200);
    const run = await runOf(s.id);
    expect(run.outcome).toBe('failed');
    expect(run.outcome_message).toBe(`rerun with ${url.replace(token, '••••')}/0 or token ••••`);
  });
});

describe('§13.4 context attributes', () => {
  it('are substituted in a webhook body at each attempt; unknown and escaped tokens pass through', async () => {
    const at = nextMinute();
    const body = {
      checkin: '<scheduler.checkin-url>',
      when: '<aws.scheduler.scheduled-time>',
      attempt: '<aws.scheduler.attempt-number>',
      exec: '<aws.scheduler.execution-id>',
      ids: '<scheduler.schedule-id>/<scheduler.occurrence-id>',
      arn: '<aws.scheduler.schedule-arn>',
      unknown: '<aws.scheduler.not-a-token> <scheduler.nope>',
    };
    const s = await webhook(at, {}, { body });
    await tickAt(at);
    const req = receiver.requests.find((r) => r.headers['webhook-id'] === occurrenceId({ scheduleId: s.id, scheduledFor: at, trigger: 'schedule' }))!;
    const got = JSON.parse(req.body);
    expect(got.checkin).toBe(req.headers['scheduler-checkin-url']);
    expect(got.when).toBe(at.toISOString().replace('.000Z', 'Z'));
    expect(got.attempt).toBe('1');
    expect(got.exec).toMatch(/^[a-z0-9]{16}$/);
    expect(got.ids).toBe(`${s.id}/${req.headers['webhook-id']}`);
    expect(got.arn).toMatch(new RegExp(`^arn:aws:scheduler:[a-z0-9-]+:\\d{12}:schedule/[^/]+/${s.alias}$`));
    expect(got.unknown).toBe('<aws.scheduler.not-a-token> <scheduler.nope>');
    // JSON.stringify escapes nothing in '<…>', so the stored target still holds the tokens.
    expect((await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } })).invocationTarget).toMatchObject({ body });
  });
});

describe('§13.4 context attributes beyond webhooks', () => {
  /** The check-in URL a run of this file's engine carries. */
  const checkinUrlOfRun = (runId: string) => `${web.url}/api/v1/checkins/${checkinToken(checkinKey(serverSecretKey()), runId)}`;
  const TOKENS = '{"checkin":"<scheduler.checkin-url>","when":"<aws.scheduler.scheduled-time>","attempt":"<aws.scheduler.attempt-number>","ids":"<scheduler.schedule-id>/<scheduler.occurrence-id>","exec":"<aws.scheduler.execution-id>","unknown":"<scheduler.nope>"}';

  it('an AWS target\'s input is substituted (an SQS message on moto\'s server carries this attempt\'s values, its check-in URL checks in)', async () => {
    await requireMoto();
    const sqs = new SQSClient({});
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `context-${randomUUID().slice(0, 8)}` }));
    const arn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn!;
    const at = nextMinute();
    n++;
    const s = await createSchedule({
      db: w.db, actor: w.actor(), revision: await w.scheduler(), limits: TEST_LIMITS, now: plus(at, -60_000), httpAllowList: SAVE_ALLOWED,
      input: { alias: `outcome-aws-${n}`, repeat: 'one_time', invocation_time: at.toISOString().slice(0, 19), timezone: 'UTC', invocation_target_type: 'aws', invocation_target: { arn, input: TOKENS }, completion: { expect_within_seconds: 600 } },
    });
    await tickAt(at);
    const run = await runOf(s.id);
    expect(run).toMatchObject({ status: 'success', outcome: 'pending' });
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 2, MaxNumberOfMessages: 10 }));
    expect(Messages).toHaveLength(1);
    const got = JSON.parse(Messages![0].Body!);
    expect(got).toEqual({
      checkin: checkinUrlOfRun(run.id),
      when: at.toISOString().replace('.000Z', 'Z'),
      attempt: '1',
      ids: `${s.id}/${occurrenceId({ scheduleId: s.id, scheduledFor: at, trigger: 'schedule' })}`,
      exec: expect.stringMatching(/^[a-z0-9]{16}$/),
      unknown: '<scheduler.nope>',
    });
    // The URL in the message is this run's: checking in there ends it.
    clock.at = plus(at, 4_000);
    expect(await post(got.checkin, 'queued work done')).toEqual({ status: 200, body: { outcome: 'succeeded' } });
    expect(await runOf(s.id)).toMatchObject({ outcome: 'succeeded', duration_ms: 4_000, outcome_message: 'queued work done' });
    // The stored target keeps its tokens.
    expect((await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } })).invocationTarget).toMatchObject({ input: TOKENS });
  });

  it('a workflow target\'s input_data string values are substituted, nested ones too; other values are kept', async () => {
    const at = nextMinute();
    n++;
    const inputData = [
      { alias: 'checkin', value: '<scheduler.checkin-url>' },
      { alias: 'meta', value: { when: '<aws.scheduler.scheduled-time>', list: ['<aws.scheduler.attempt-number>', 7, true], schedule: 'id <scheduler.schedule-id>' } },
      { alias: 'plain', value: { hours: 24 } },
    ];
    const s = await createSchedule({
      db: w.db, actor: w.actor(), revision: await w.scheduler(), limits: TEST_LIMITS, now: plus(at, -60_000), httpAllowList: SAVE_ALLOWED,
      input: {
        alias: `outcome-workflow-${n}`, repeat: 'one_time', invocation_time: at.toISOString().slice(0, 19), timezone: 'UTC',
        invocation_target: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' }, input_data: inputData },
        completion: { expect_within_seconds: 600 },
      },
    });
    await tickAt(at);
    const run = await runOf(s.id);
    expect(run).toMatchObject({ status: 'success', outcome: 'pending' });
    const execution = await w.db.execution.findFirstOrThrow({ where: { runId: run.id } });
    expect(execution.inputData).toEqual([
      { alias: 'checkin', value: checkinUrlOfRun(run.id) },
      { alias: 'meta', value: { when: at.toISOString().replace('.000Z', 'Z'), list: ['1', 7, true], schedule: `id ${s.id}` } },
      { alias: 'plain', value: { hours: 24 } },
    ]);
    clock.at = plus(at, 1_500);
    expect(await post(`${checkinUrlOfRun(run.id)}/0`)).toEqual({ status: 200, body: { outcome: 'succeeded' } });
    expect(await runOf(s.id)).toMatchObject({ outcome: 'succeeded', exit_code: 0, duration_ms: 1_500 });
  });
});

describe('examples/checkin', () => {
  it('the example receiver runs job.sh, which checks in /start then /$? with curl: succeeded, exit code 0, its message', async () => {
    const { spawn } = await import('node:child_process');
    const port = await closedPort();
    const child = spawn(process.execPath, ['examples/checkin/receiver.mjs'], { env: childEnv({ PORT: String(port), JOB_SECONDS: '0' }), stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('receiver on') && resolve()));
      const at = nextMinute();
      const ok = await webhook(at, { completion: { expect_within_seconds: 60 } }, { url: `http://127.0.0.1:${port}/` });
      await tickAt(at);
      clock.at = plus(at, 1_000);
      const ended = async (id: string) => {
        for (let i = 0; i < 200; i++) {
          const o = (await runOf(id)).outcome;
          if (o === 'succeeded' || o === 'failed') return runOf(id);
          await new Promise((r) => setTimeout(r, 25));
        }
        return runOf(id);
      };
      const run = await ended(ok.id);
      expect(run).toMatchObject({ status: 'success', outcome: 'succeeded', exit_code: 0 });
      expect(run.outcome_message).toMatch(/^job exited with 0 at \d{4}-/);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('§16.2 overlap policy', () => {
  /** A minutely rate schedule to the receiver, expecting completion within 10 minutes, first due at `at`. */
  async function minutely(at: Date, overlap: 'allow_all' | 'skip' | 'buffer_one') {
    n++;
    return createSchedule({
      db: w.db, actor: w.actor(), revision: await w.scheduler(), limits: TEST_LIMITS, now: plus(at, -60_000), httpAllowList: SAVE_ALLOWED,
      input: {
        alias: `overlap-${n}`, repeat: 'recurring_rate', rate_expression: '1 minute', start_date: at.toISOString(), timezone: 'UTC',
        completion: { expect_within_seconds: 600 }, overlap_policy: overlap, invocation_target_type: 'http', invocation_target: { url: receiver.url(`/job/${n}`) },
      },
    });
  }
  const history = async (scheduleId: string) =>
    (await w.db.run.findMany({ where: { scheduleId }, orderBy: { scheduledFor: 'asc' } })).map((r) => ({ at: r.scheduledFor.toISOString(), status: r.status, result: r.result as Record<string, unknown>, id: r.id, createdAt: r.createdAt }));
  const minute = (at: Date, k: number) => plus(at, k * 60_000);

  it('skip: a receiver that checks in after 150 s records delivered / skipped / skipped / delivered', async () => {
    const at = nextMinute();
    const s = await minutely(at, 'skip');
    await tickAt(at);
    await tickAt(minute(at, 1));
    await tickAt(minute(at, 2));
    clock.at = plus(at, 150_000);
    expect((await post(checkinUrlOf(s.id, at))).body).toEqual({ outcome: 'succeeded' });
    await tickAt(minute(at, 3));
    const runs = await history(s.id);
    expect(runs.map((r) => [r.at, r.status])).toEqual([
      [at.toISOString(), 'success'],
      [minute(at, 1).toISOString(), 'skipped'],
      [minute(at, 2).toISOString(), 'skipped'],
      [minute(at, 3).toISOString(), 'success'],
    ]);
    expect(runs[1].result).toEqual({ error: 'overlap', in_progress_run_id: runs[0].id });
    expect(toRun(await w.db.run.findUniqueOrThrow({ where: { id: runs[1].id } })).status).toBe('skipped');
  });

  it('buffer_one: the first occurrence due meanwhile waits and is delivered within 2 s of the check-in; a further one is skipped', async () => {
    const at = nextMinute();
    const s = await minutely(at, 'buffer_one');
    await tickAt(at);
    await tickAt(minute(at, 1));
    await tickAt(minute(at, 2));
    expect((await history(s.id)).map((r) => r.status)).toEqual(['success', 'skipped']);
    const checkedInAt = plus(at, 150_000);
    clock.at = checkedInAt;
    expect((await post(checkinUrlOf(s.id, at))).body).toEqual({ outcome: 'succeeded' });
    // The worker's next poll (≤ 1 s later) delivers the waiting occurrence, its scheduled_for unchanged.
    await tickAt(plus(checkedInAt, 1_000));
    const runs = await history(s.id);
    expect(runs.map((r) => [r.at, r.status])).toEqual([
      [at.toISOString(), 'success'],
      [minute(at, 1).toISOString(), 'success'],
      [minute(at, 2).toISOString(), 'skipped'],
    ]);
    expect(runs[1].createdAt.getTime() - checkedInAt.getTime()).toBeLessThanOrEqual(2_000);
    expect(receiver.requests.some((r) => r.headers['webhook-id'] === occurrenceId({ scheduleId: s.id, scheduledFor: minute(at, 1), trigger: 'schedule' }))).toBe(true);
  });

  it("run_schedule's overlap: skip records a skipped manual run while one is in progress; allow_all fires", async () => {
    const at = nextMinute();
    const s = await minutely(at, 'allow_all');
    await tickAt(at);
    const inProgress = (await history(s.id))[0];
    const base = { db: w.db, actor: w.actor(), revision: await w.scheduler(), scheduleRef: s.id, limits: TEST_LIMITS, delivery: testDelivery(), engine };
    const skipped = await runSchedule({ ...base, now: plus(at, 5_000), overlap: 'skip' });
    expect(skipped).toMatchObject({ trigger: 'manual', status: 'skipped', result: { error: 'overlap', in_progress_run_id: inProgress.id } });
    const fired = await runSchedule({ ...base, now: plus(at, 6_000) });
    expect(fired).toMatchObject({ trigger: 'manual', status: 'success', outcome: 'pending' });
  });

  it('allow_all: every occurrence is delivered while the first is still in progress', async () => {
    const at = nextMinute();
    const s = await minutely(at, 'allow_all');
    for (let k = 0; k < 4; k++) await tickAt(minute(at, k));
    const runs = await history(s.id);
    expect(runs.map((r) => r.status)).toEqual(['success', 'success', 'success', 'success']);
    expect((await w.db.run.findMany({ where: { scheduleId: s.id } })).every((r) => r.outcome === 'pending')).toBe(true);
  });
});
