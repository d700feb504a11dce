/**
 * SPEC §16.2 `buffer_one` and SPEC §8 / §12.2 edits: the occurrence waiting for the run in progress
 * is never dropped silently. Disabling the schedule (update_schedule, Pause all) records it as a
 * cancelled, skipped run (decision 330); a target change keeps it waiting, and it is delivered to
 * the new target when the run in progress ends. The grid's pending attempts mark it `waiting`, not a
 * retry. Through the real worker (its injected clock), a real database of the TEST_DATABASE dialect,
 * a real webhook receiver on loopback and the check-in endpoint served over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchedule, getSchedule, pendingRetries, setAllEnabled, updateSchedule } from '../../lib/schedules';
import { occurrenceId } from '../../lib/targets';
import { testDelivery } from '../../lib/testing/fire-and-deliver';
import { TEST_LIMITS } from '../../lib/testing/limits';
import { startReceiver, type Receiver } from '../../lib/testing/receiver';
import { useSeededScheduler } from '../../lib/testing/seeded-scheduler';
import { type FetchServer } from '../../lib/testing/serve-fetch';
import { serveCheckins, type CheckinEngine } from '../../lib/testing/checkin-endpoint';
import { tickWorkerAt } from '../../lib/testing/tick-worker';
import { Worker } from '../worker';

const w = useSeededScheduler();
const SAVE_ALLOWED = { hosts: [], addresses: [], ranges: ['127.0.0.0/8'] };
/** The worker's and the check-in endpoint's clock. */
const clock = { at: new Date('2031-05-01T10:00:00.000Z') };
const plus = (d: Date, ms: number) => new Date(d.getTime() + ms);
const nextMinute = () => new Date((Math.floor(clock.at.getTime() / 60_000) + 2) * 60_000);
const minute = (at: Date, k: number) => plus(at, k * 60_000);

let receiver: Receiver;
let web: FetchServer;
let engine: CheckinEngine;
let worker: Worker;

beforeAll(async () => {
  receiver = await startReceiver(() => ({ status: 200, body: 'accepted' }));
  // The check-in endpoint, served over real HTTP, and the engine naming its URLs.
  ({ web, engine } = await serveCheckins(w.db, () => clock.at));
  worker = new Worker({ db: w.db, limits: TEST_LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => clock.at, delivery: testDelivery(), engine });
});
afterAll(async () => {
  await receiver?.close();
  await web?.close();
});

const tickAt = (at: Date) => tickWorkerAt(worker, clock, at);

let n = 0;
/** A minutely buffer_one webhook schedule expecting completion within 10 minutes, first due at `at`. */
async function minutely(at: Date) {
  n++;
  return createSchedule({
    db: w.db, actor: w.actor(), revision: await w.scheduler(), limits: TEST_LIMITS, now: plus(at, -60_000), httpAllowList: SAVE_ALLOWED,
    input: {
      alias: `waiting-${n}`, repeat: 'recurring_rate', rate_expression: '1 minute', start_date: at.toISOString(), timezone: 'UTC',
      completion: { expect_within_seconds: 600 }, overlap_policy: 'buffer_one', invocation_target_type: 'http', invocation_target: { url: receiver.url(`/job/${n}`) },
    },
  });
}

/** The first occurrence delivered and in progress, the second one waiting for it. */
async function withWaiting() {
  const at = nextMinute();
  const s = await minutely(at);
  await tickAt(at);
  await tickAt(minute(at, 1));
  expect(await w.db.pendingAttempt.count({ where: { scheduleId: s.id, attempt: 1, inFlight: false } })).toBe(1);
  return { s, at };
}

const runsOf = async (scheduleId: string) =>
  (await w.db.run.findMany({ where: { scheduleId }, orderBy: [{ scheduledFor: 'asc' }, { attempt: 'asc' }] })).map((r) => ({
    at: r.scheduledFor.toISOString(), attempt: r.attempt, status: r.status, exhausted: r.exhausted, result: r.result as Record<string, unknown>, target: r.invocationTarget as { url: string },
  }));

function checkinUrlOf(scheduleId: string, at: Date): string {
  const id = occurrenceId({ scheduleId, scheduledFor: at, trigger: 'schedule' });
  const req = receiver.requests.find((r) => r.headers['webhook-id'] === id);
  if (!req) throw new Error(`the receiver got no request for ${scheduleId} at ${at.toISOString()}`);
  return req.headers['scheduler-checkin-url'];
}

describe('§16.2 buffer_one: the waiting occurrence and edits', () => {
  it('the grid answer marks the waiting occurrence `waiting`, not a retry', async () => {
    const { s, at } = await withWaiting();
    const answer = await pendingRetries({ db: w.db, actor: w.actor(), revision: await w.scheduler(), scheduleIds: [s.id] });
    expect(answer[s.id]).toEqual([{ scheduled_for: minute(at, 1).toISOString(), attempt: 1, due_at: '9999-12-31T00:00:00.000Z', waiting: true }]);
  });

  it('update_schedule enabled: false records the waiting occurrence as a cancelled, skipped run', async () => {
    const { s, at } = await withWaiting();
    const now = plus(minute(at, 1), 10_000);
    await updateSchedule({ db: w.db, actor: w.actor(), revision: await w.scheduler(), scheduleRef: s.id, input: { enabled: false }, limits: TEST_LIMITS, now });
    expect(await w.db.pendingAttempt.count({ where: { scheduleId: s.id } })).toBe(0);
    const runs = await runsOf(s.id);
    expect(runs.map((r) => [r.at, r.attempt, r.status, r.exhausted])).toEqual([
      [at.toISOString(), 1, 'success', null],
      [minute(at, 1).toISOString(), 1, 'skipped', 'cancelled'],
    ]);
    expect(runs[1].result).toEqual({ error: 'overlap', message: 'cancelled while it waited for the run in progress (overlap: buffer_one): the schedule was disabled' });
    // Recorded as a run, so not counted among the occurrences dropped without one (decision 330).
    expect((await getSchedule({ db: w.db, actor: w.actor(), revision: await w.scheduler(), scheduleRef: s.id })).skipped_occurrences).toBe(0);
  });

  it('a target change keeps it waiting; it is delivered to the new target when the run in progress ends', async () => {
    const { s, at } = await withWaiting();
    const newUrl = receiver.url(`/job/${n}/moved`);
    await updateSchedule({ db: w.db, actor: w.actor(), revision: await w.scheduler(), scheduleRef: s.id, input: { invocation_target: { url: newUrl } }, limits: TEST_LIMITS, httpAllowList: SAVE_ALLOWED, now: plus(minute(at, 1), 10_000) });
    expect(await w.db.pendingAttempt.count({ where: { scheduleId: s.id, attempt: 1, inFlight: false } })).toBe(1);
    clock.at = plus(minute(at, 1), 20_000);
    expect((await (await fetch(checkinUrlOf(s.id, at), { method: 'POST' })).json())).toEqual({ outcome: 'succeeded' });
    await tickAt(plus(minute(at, 1), 21_000));
    const runs = await runsOf(s.id);
    expect(runs.map((r) => [r.at, r.attempt, r.status, r.target.url])).toEqual([
      [at.toISOString(), 1, 'success', receiver.url(`/job/${n}`)],
      [minute(at, 1).toISOString(), 1, 'success', newUrl],
    ]);
    checkinUrlOf(s.id, minute(at, 1));
  });

  it('Pause all records the waiting occurrence as a cancelled, skipped run', async () => {
    const { s, at } = await withWaiting();
    await setAllEnabled({ db: w.db, actor: w.actor(), revision: await w.scheduler(), enabled: false, now: plus(minute(at, 1), 10_000) });
    expect(await w.db.pendingAttempt.count({ where: { scheduleId: s.id } })).toBe(0);
    const runs = await runsOf(s.id);
    expect(runs.map((r) => [r.at, r.status, r.exhausted, r.result.message])).toEqual([
      [at.toISOString(), 'success', null, undefined],
      [minute(at, 1).toISOString(), 'skipped', 'cancelled', 'cancelled while it waited for the run in progress (overlap: buffer_one): the schedule was disabled (pause all)'],
    ]);
  });
});
