/**
 * SPEC §13.4 "the run record keeps the request as sent, substituted", with §16.1's check-in token
 * kept out of it (decision 361): through the real worker (its injected clock), a real database of the
 * TEST_DATABASE dialect, a real webhook receiver on loopback and the check-in endpoint served over
 * real HTTP. A webhook's body and a workflow target's input_data are recorded with each attempt's
 * scheduled time, execution id and attempt number as sent; the check-in URL is recorded with its
 * token masked, and the masked URL is no check-in URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchedule, toRun } from '../../lib/schedules';
import { testDelivery } from '../../lib/testing/fire-and-deliver';
import { TEST_LIMITS } from '../../lib/testing/limits';
import { startReceiver, type Receiver } from '../../lib/testing/receiver';
import { SEEDED_TARGET, useSeededScheduler } from '../../lib/testing/seeded-scheduler';
import { type FetchServer } from '../../lib/testing/serve-fetch';
import { serveCheckins } from '../../lib/testing/checkin-endpoint';
import { tickWorkerAt } from '../../lib/testing/tick-worker';
import { Worker } from '../worker';

const w = useSeededScheduler();
const SAVE_ALLOWED = { hosts: [], addresses: [], ranges: ['127.0.0.0/8'] };
const clock = { at: new Date('2031-05-01T10:00:00.000Z') };
const awsTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Every context attribute, in a JSON body / in the string values of input_data. */
const TOKENS = {
  at: '<aws.scheduler.scheduled-time>',
  execution: '<aws.scheduler.execution-id>',
  attempt: 'attempt <aws.scheduler.attempt-number>',
  checkin: '<scheduler.checkin-url>',
  occurrence: '<scheduler.occurrence-id>',
};

let receiver: Receiver;
let web: FetchServer;
let worker: Worker;
/** Paths whose first request answers 500 (the second attempt then succeeds). */
const failOnce = new Set<string>();

beforeAll(async () => {
  receiver = await startReceiver((req) => {
    if (failOnce.delete(req.path)) return { status: 500, body: 'down' };
    // A receiver that echoes its request (the body and the check-in header) in its answer.
    if (req.path.startsWith('/recorded/echo')) {
      const url = req.headers['scheduler-checkin-url'];
      // The URL as sent, URL-encoded, with escaped slashes (PHP's JSON), and the token alone.
      const echo = [req.body, url, encodeURIComponent(url), url.replaceAll('/', '\\/'), `token=${url.split('/').pop()}`].join(' ');
      return { status: req.path.endsWith('/fail') ? 500 : 200, body: echo };
    }
    return { status: 200, body: 'ok' };
  });
  const served = await serveCheckins(w.db, () => clock.at);
  web = served.web;
  worker = new Worker({ db: w.db, limits: TEST_LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => clock.at, delivery: testDelivery(), engine: served.engine });
});
afterAll(async () => {
  await receiver?.close();
  await web?.close();
});

const tickAt = (at: Date) => tickWorkerAt(worker, clock, at);

/** A one-time webhook schedule due at `at`, to `path` of the receiver, its body every token, retried `retries` times. */
async function webhook(alias: string, at: Date, path: string, retries: number) {
  return createSchedule({
    db: w.db, actor: w.actor(), revision: await w.scheduler(), limits: TEST_LIMITS, now: clock.at, httpAllowList: SAVE_ALLOWED,
    input: {
      alias, repeat: 'one_time', invocation_time: at.toISOString().slice(0, 19), timezone: 'UTC',
      retry_policy: { maximum_retry_attempts: retries, maximum_event_age_seconds: 86_400 },
      invocation_target_type: 'http', invocation_target: { url: receiver.url(path), body: TOKENS },
    },
  });
}

const runsOf = (scheduleId: string) => w.db.run.findMany({ where: { scheduleId }, orderBy: { attempt: 'asc' } });

describe('§13.4 the run records the request as sent, substituted; never a usable check-in token', () => {
  it('a webhook retried once: each run records its own attempt number, execution id and scheduled time; the check-in URL masked', async () => {
    const at = new Date('2031-05-01T10:02:00.000Z');
    failOnce.add('/recorded/webhook');
    const s = await webhook('recorded-webhook', at, '/recorded/webhook', 2);
    await tickAt(at);
    const [first] = await runsOf(s.id);
    expect(first).toMatchObject({ attempt: 1, status: 'invocation_error' });
    await tickAt(first.nextAttemptAt!);
    const runs = await runsOf(s.id);
    expect(runs.map((r) => [r.attempt, r.status])).toEqual([[1, 'invocation_error'], [2, 'success']]);

    const sent = receiver.requests.filter((r) => r.path === '/recorded/webhook').map((r) => JSON.parse(r.body) as typeof TOKENS);
    expect(sent).toHaveLength(2);
    const masked = `${web.url}/api/v1/checkins/••••`;
    for (const [i, run] of runs.entries()) {
      const body = (run.invocationTarget as { body: typeof TOKENS }).body;
      // As sent: the same scheduled time, execution id, attempt number and occurrence id.
      expect(body).toEqual({ ...sent[i], checkin: masked });
      expect(body.at).toBe(awsTime(at));
      expect(body.attempt).toBe(`attempt ${i + 1}`);
      expect(body.execution).toMatch(/^[a-z0-9]{16}$/);
      // The token the receiver got is nowhere in the record, nor in the answer of the run.
      const token = sent[i].checkin.split('/').pop()!;
      expect(sent[i].checkin).toMatch(new RegExp(`^${web.url}/api/v1/checkins/[A-Za-z0-9_-]{43}$`));
      expect(JSON.stringify(run)).not.toContain(token);
      expect(JSON.stringify(toRun(run))).not.toContain(token);
      expect((toRun(run).invocation_target as unknown as { body: typeof TOKENS }).body).toEqual(body);
    }
    expect(runs[0].invocationTarget).not.toEqual(runs[1].invocationTarget);
    // The masked URL checks nothing in.
    expect((await fetch(masked, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${masked}/fail`, { method: 'POST' })).status).toBe(404);
    // The schedule keeps its template.
    const row = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect((row.invocationTarget as { body: unknown }).body).toEqual(TOKENS);
  });

  it('a dead letter keeps the request as sent, substituted, with the check-in token masked', async () => {
    const at = new Date('2031-05-01T10:04:00.000Z');
    failOnce.add('/recorded/dead');
    const s = await webhook('recorded-dead', at, '/recorded/dead', 0);
    await tickAt(at);
    const sent = receiver.requests.filter((r) => r.path === '/recorded/dead');
    expect(sent).toHaveLength(1);
    const token = (JSON.parse(sent[0].body) as typeof TOKENS).checkin.split('/').pop()!;
    const dead = await w.db.deadLetter.findFirstOrThrow({ where: { scheduleId: s.id } });
    const kept = dead.lastRequest as { body: string; headers: Record<string, string> };
    expect(JSON.parse(kept.body)).toEqual({ ...(JSON.parse(sent[0].body) as typeof TOKENS), checkin: `${web.url}/api/v1/checkins/••••` });
    // Its target, as list_dead_letters answers it, is the one sent too, not the template.
    expect((dead.invocationTarget as { body: typeof TOKENS }).body).toEqual({ ...(JSON.parse(sent[0].body) as typeof TOKENS), checkin: `${web.url}/api/v1/checkins/••••` });
    expect(JSON.stringify(dead)).not.toContain(token);
  });

  it('a workflow target: the run records input_data as the execution received it, check-in URL masked', async () => {
    const at = new Date('2031-05-01T10:05:00.000Z');
    const s = await createSchedule({
      db: w.db, actor: w.actor(), revision: await w.scheduler(), limits: TEST_LIMITS, now: clock.at,
      input: {
        alias: 'recorded-workflow', repeat: 'one_time', invocation_time: at.toISOString().slice(0, 19), timezone: 'UTC',
        invocation_target: { ...SEEDED_TARGET, input_data: [{ alias: 'ticket_window', value: TOKENS }] },
      },
    });
    await tickAt(at);
    const [run] = await runsOf(s.id);
    expect(run).toMatchObject({ attempt: 1, status: 'success' });
    const execution = await w.db.execution.findUniqueOrThrow({ where: { id: run.executionId! } });
    const given = (execution.inputData as { value: typeof TOKENS }[])[0].value;
    const recorded = (run.invocationTarget as { input_data: { value: typeof TOKENS }[] }).input_data[0].value;
    expect(recorded).toEqual({ ...given, checkin: `${web.url}/api/v1/checkins/••••` });
    expect(recorded.at).toBe(awsTime(at));
    expect(recorded.attempt).toBe('attempt 1');
    expect(recorded.execution).toMatch(/^[a-z0-9]{16}$/);
    expect(JSON.stringify(run)).not.toContain(given.checkin.split('/').pop()!);
  });

  it('an answer that echoes the check-in URL is recorded, dead-lettered and alerted without the token', async () => {
    for (const [alias, path, at] of [['recorded-echo', '/recorded/echo', '10:16'], ['recorded-echo-fail', '/recorded/echo/fail', '10:17']] as const) {
      const due = new Date(`2031-05-01T${at}:00.000Z`);
      const s = await webhook(alias, due, path, 0);
      await tickAt(due);
      const sent = receiver.requests.filter((r) => r.path === path);
      expect(sent).toHaveLength(1);
      const token = (JSON.parse(sent[0].body) as typeof TOKENS).checkin.split('/').pop()!;
      expect(sent[0].headers['scheduler-checkin-url']).toContain(token);
      const [run] = await runsOf(s.id);
      const excerpt = (run.result as { response_excerpt?: string }).response_excerpt ?? '';
      // The excerpt is kept (masked), so the test sees what the receiver answered: every form of the token masked.
      expect(excerpt).toContain(`${web.url}/api/v1/checkins/••••`);
      expect(excerpt).toContain(encodeURIComponent(`${web.url}/api/v1/checkins/`) + '••••');
      expect(excerpt).toContain('token=••••');
      expect(JSON.stringify(run)).not.toContain(token);
      expect(JSON.stringify(toRun(run))).not.toContain(token);
      if (path.endsWith('/fail')) {
        const dead = await w.db.deadLetter.findFirstOrThrow({ where: { scheduleId: s.id } });
        expect(JSON.stringify(dead)).not.toContain(token);
      }
    }
  });
});
