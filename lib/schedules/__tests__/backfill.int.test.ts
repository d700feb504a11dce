/**
 * SPEC §18 on the dialect of TEST_DATABASE: `backfill_schedule` (dry run, bounds, reprocess, order,
 * max_concurrency, retries, cancel, activity) fired through the worker's engine, and the per-schedule
 * `catch_up` policy after the worker was down for 10 minutes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Limits } from '../../config';
import { DomainError } from '../../errors';
import {
  backfillSchedule,
  cancelBackfill,
  createSchedule,
  dryRunBackfill,
  getBackfill,
  listActivity,
  listBackfills,
  listRuns,
  updateSchedule,
} from '..';
import { SEEDED_TARGET, useSeededScheduler } from '../../testing/seeded-scheduler';
import { startReceiver, type Receiver } from '../../testing/receiver';
import { drainBackfills as drain, testDelivery, workerEngine } from '../../testing/fire-and-deliver';
import { TEST_LIMITS } from '../../testing/limits';

const w = useSeededScheduler();
const LIMITS: Limits = { ...TEST_LIMITS, executionsPerSessionPerMinute: 100_000 };
const MINUTE = 60_000;
const ALLOW = { hosts: ['localhost'], addresses: [], ranges: ['127.0.0.0/8', '::1/128'] };
const delivery = testDelivery();

/** An instant as `<aws.scheduler.scheduled-time>` writes it (`YYYY-MM-DDTHH:MM:SSZ`). */
const awsTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The last whole minute before now. */
const lastMinute = () => new Date(Math.floor(Date.now() / MINUTE) * MINUTE);

let receiver: Receiver;
/** Instants (ISO, as `<aws.scheduler.scheduled-time>` sends them) whose delivery answers 500. */
const failing = new Set<string>();
beforeAll(async () => {
  receiver = await startReceiver((req) => {
    const at = (JSON.parse(req.body || '{}') as { at?: string }).at ?? '';
    return failing.has(at) ? { status: 500, body: 'down' } : { status: 200, body: 'ok' };
  });
});
afterAll(async () => receiver?.close());

async function scope() {
  return { db: w.db, actor: w.actor(), revision: await w.scheduler() };
}

async function minutelyWebhook(alias: string, extra: Record<string, unknown> = {}, createdAt = new Date()) {
  return createSchedule({
    ...(await scope()),
    limits: LIMITS,
    now: createdAt,
    httpAllowList: ALLOW,
    input: {
      alias,
      repeat: 'recurring_cron',
      cron_expression: '* * * * ? *',
      timezone: 'UTC',
      invocation_target_type: 'http',
      invocation_target: { url: receiver.url(`/${alias}`), method: 'POST', body: { at: '<aws.scheduler.scheduled-time>', run: '<scheduler.occurrence-id>' } },
      ...extra,
    },
  });
}

/** Fire backfills as the worker does, delivering and recording what goes in flight, until none has work left (bounded). */
async function drainBackfills(now = new Date()): Promise<void> {
  return drain({ db: w.db, now, limits: LIMITS, delivery });
}

async function refusal(p: Promise<unknown>): Promise<{ code: string; path?: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DomainError) return { code: e.code, path: e.path };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('§18.1 backfill_schedule', () => {
  it('dry run: the count and the first 20 instants in firing order; nothing is written', async () => {
    const s = await minutelyWebhook('bf-dry');
    const to = lastMinute();
    const from = new Date(to.getTime() - 30 * MINUTE);
    const base = { ...(await scope()), scheduleRef: 'bf-dry', from, to, now: new Date() };
    const dry = await dryRunBackfill(base);
    expect(dry.total).toBe(30);
    expect(dry.first).toHaveLength(20);
    // Temporal's bounds: from is excluded, to included.
    expect(dry.first[0]).toBe(new Date(from.getTime() + MINUTE).toISOString());
    const newest = await dryRunBackfill({ ...base, order: 'newest_first' });
    expect(newest.first[0]).toBe(to.toISOString());
    expect(await w.db.backfill.count({ where: { scheduleId: s.id } })).toBe(0);
    expect(await w.db.run.count({ where: { scheduleId: s.id } })).toBe(0);
  });

  it('refuses a range past now, a reversed one, and one of more than 10,000 occurrences', async () => {
    await minutelyWebhook('bf-bounds');
    const now = new Date();
    const base = { ...(await scope()), scheduleRef: 'bf-bounds', now };
    expect(await refusal(backfillSchedule({ ...base, from: new Date(now.getTime() - MINUTE), to: new Date(now.getTime() + MINUTE) }))).toEqual({ code: 'invalid_backfill_range', path: 'to' });
    expect(await refusal(backfillSchedule({ ...base, from: now, to: new Date(now.getTime() - MINUTE) }))).toEqual({ code: 'invalid_backfill_range', path: 'from' });
    const to = lastMinute();
    expect(await refusal(dryRunBackfill({ ...base, from: new Date(to.getTime() - 10_001 * MINUTE), to }))).toEqual({ code: 'backfill_too_large', path: 'to' });
    // Exactly 10,000 is allowed.
    expect((await dryRunBackfill({ ...base, from: new Date(to.getTime() - 10_000 * MINUTE), to })).total).toBe(10_000);
  });

  it('fires each occurrence once as trigger "backfill" with its nominal instant; `failed` then fires exactly the failed and missing ones', async () => {
    const s = await minutelyWebhook('bf-reprocess');
    const t0 = new Date(lastMinute().getTime() - 60 * MINUTE);
    const at = (k: number) => new Date(t0.getTime() + k * MINUTE).toISOString();
    for (const k of [2, 5, 9]) failing.add(awsTime(new Date(at(k))));
    const first = await backfillSchedule({ ...(await scope()), scheduleRef: s.id, from: t0, to: new Date(t0.getTime() + 10 * MINUTE), maxConcurrency: 4, now: new Date() });
    expect(first).toMatchObject({ state: 'running', total: 10, fired: 0, reprocess: 'missing', max_concurrency: 4, order: 'oldest_first' });
    await drainBackfills();
    expect(await getBackfill({ ...(await scope()), backfillRef: first.id })).toMatchObject({ state: 'completed', total: 10, fired: 10, succeeded: 7, failed: 3, in_flight: 0 });
    const runs = await w.db.run.findMany({ where: { scheduleId: s.id }, orderBy: { scheduledFor: 'asc' } });
    expect(runs.map((r) => r.scheduledFor.toISOString())).toEqual(Array.from({ length: 10 }, (_, i) => at(i + 1)));
    expect(new Set(runs.map((r) => r.trigger))).toEqual(new Set([`backfill:${first.id}`]));
    // The answer: trigger "backfill" and its backfill.
    const page = await listRuns({ ...(await scope()), scheduleId: s.id });
    expect(page.executions.every((r) => r.trigger === 'backfill' && r.backfill_id === first.id)).toBe(true);
    // <aws.scheduler.scheduled-time> is each nominal (past) instant.
    const sent = receiver.requests.filter((r) => r.path === '/bf-reprocess').map((r) => (JSON.parse(r.body) as { at: string }).at);
    expect(sent.sort()).toEqual(Array.from({ length: 10 }, (_, i) => awsTime(new Date(at(i + 1)))));

    // The target is fixed; `failed` over a wider range: the 3 failed ones and the 5 never fired.
    failing.clear();
    const before = receiver.requests.length;
    const second = await backfillSchedule({ ...(await scope()), scheduleRef: 'bf-reprocess', from: t0, to: new Date(t0.getTime() + 15 * MINUTE), reprocess: 'failed', maxConcurrency: 100, now: new Date() });
    const expected = [2, 5, 9, 11, 12, 13, 14, 15].map(at);
    expect(second.total).toBe(expected.length);
    await drainBackfills();
    expect(await getBackfill({ ...(await scope()), backfillRef: second.id })).toMatchObject({ state: 'completed', fired: 8, succeeded: 8, failed: 0, in_flight: 0 });
    const again = await w.db.run.findMany({ where: { scheduleId: s.id, trigger: `backfill:${second.id}` } });
    expect(again.map((r) => r.scheduledFor.toISOString()).sort()).toEqual(expected);
    const sentAgain = receiver.requests.slice(before).filter((r) => r.path === '/bf-reprocess').map((r) => JSON.parse(r.body) as { at: string; run: string });
    expect(sentAgain.map((b) => b.at).sort()).toEqual(expected.map((x) => awsTime(new Date(x))));
    // A second backfill's fire of an occurrence is its own occurrence for receivers (another id).
    const firstIds = new Set(receiver.requests.slice(0, before).filter((r) => r.path === '/bf-reprocess').map((r) => (JSON.parse(r.body) as { run: string }).run));
    expect(sentAgain.some((b) => firstIds.has(b.run))).toBe(false);
    // Nothing more is missing now.
    expect((await dryRunBackfill({ ...(await scope()), scheduleRef: 'bf-reprocess', from: t0, to: new Date(t0.getTime() + 15 * MINUTE), now: new Date() })).total).toBe(0);
    // The schedule's own next occurrence was never touched, and no failure counted against it.
    const row = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.consecutiveFailures).toBe(0);
    expect(row.skippedOccurrences).toBe(0);
  });

  it('keeps at most max_concurrency in flight, and retries a failed occurrence with its backfill trigger', async () => {
    const s = await minutelyWebhook('bf-concurrency', { retry_policy: { maximum_retry_attempts: 2, maximum_event_age_seconds: 86_400 } });
    const t0 = new Date(lastMinute().getTime() - 120 * MINUTE);
    failing.add(awsTime(new Date(t0.getTime() + MINUTE)));
    const b = await backfillSchedule({ ...(await scope()), scheduleRef: s.id, from: t0, to: new Date(t0.getTime() + 7 * MINUTE), maxConcurrency: 3, now: new Date() });
    const now = new Date();
    const r1 = await workerEngine.fireBackfills({ db: w.db, now, limit: 50, limits: LIMITS });
    const inFlight = r1.outcomes.flatMap((o) => (o.kind === 'delivering' ? [o.delivery] : []));
    expect(inFlight).toHaveLength(3);
    expect((await getBackfill({ ...(await scope()), backfillRef: b.id })).in_flight).toBe(3);
    // Full: nothing more until one ends.
    expect((await workerEngine.fireBackfills({ db: w.db, now, limit: 50, limits: LIMITS })).outcomes).toHaveLength(0);
    await workerEngine.deliverAndRecord(w.db, inFlight, delivery, () => now);
    // The failed one waits for its retry: still in flight (1), so 2 more may go.
    expect((await getBackfill({ ...(await scope()), backfillRef: b.id })).in_flight).toBe(1);
    const r2 = await workerEngine.fireBackfills({ db: w.db, now, limit: 50, limits: LIMITS });
    expect(r2.outcomes).toHaveLength(2);
    await workerEngine.deliverAndRecord(w.db, r2.outcomes.flatMap((o) => (o.kind === 'delivering' ? [o.delivery] : [])), delivery, () => now);
    failing.clear();
    // The retry is claimed like any retry (SPEC §12.2) and recorded under the backfill.
    const later = new Date(now.getTime() + 2 * MINUTE);
    const retried = await workerEngine.fireDue({ db: w.db, now: later, limit: 50, limits: LIMITS });
    await workerEngine.deliverAndRecord(w.db, retried.flatMap((o) => (o.kind === 'delivering' ? [o.delivery] : [])), delivery, () => later);
    const second = await w.db.run.findFirstOrThrow({ where: { scheduleId: s.id, attempt: 2 } });
    expect(second).toMatchObject({ trigger: `backfill:${b.id}`, status: 'success', scheduledFor: new Date(t0.getTime() + MINUTE) });
    await drainBackfills(later);
    expect(await getBackfill({ ...(await scope()), backfillRef: b.id })).toMatchObject({ state: 'completed', total: 7, fired: 7, succeeded: 7, failed: 0, in_flight: 0 });
  });

  it('a second backfill of a range another one has yet to fire selects none of it (missing), an overlapping one only the rest', async () => {
    const s = await minutelyWebhook('bf-twice');
    const t0 = new Date(lastMinute().getTime() - 400 * MINUTE);
    const range = { from: t0, to: new Date(t0.getTime() + 5 * MINUTE) };
    const first = await backfillSchedule({ ...(await scope()), scheduleRef: s.id, ...range, now: new Date() });
    expect(first.total).toBe(5);
    expect((await backfillSchedule({ ...(await scope()), scheduleRef: s.id, ...range, now: new Date() })).total).toBe(0);
    const overlapping = await backfillSchedule({ ...(await scope()), scheduleRef: s.id, from: new Date(t0.getTime() + 3 * MINUTE), to: new Date(t0.getTime() + 8 * MINUTE), now: new Date() });
    expect(overlapping.total).toBe(3);
    await drainBackfills();
    const runs = await w.db.run.findMany({ where: { scheduleId: s.id }, select: { scheduledFor: true } });
    expect(runs.map((r) => r.scheduledFor.getTime()).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((m) => t0.getTime() + m * MINUTE));
  });

  it("the schedule's own pending occurrence and those after it are the worker's: a backfill up to now leaves them to it", async () => {
    // Made 10 minutes ago and never fired since (a worker down): its pending occurrence is 9 minutes old.
    const made = new Date(lastMinute().getTime() - 10 * MINUTE);
    const s = await minutelyWebhook('bf-own', {}, made);
    const pending = new Date(made.getTime() + MINUTE);
    expect(new Date(s.next_fire_at!).getTime()).toBe(pending.getTime());
    const dry = await dryRunBackfill({ ...(await scope()), scheduleRef: s.id, from: new Date(made.getTime() - 5 * MINUTE), to: new Date(), now: new Date() });
    expect(dry.first).toEqual([4, 3, 2, 1, 0].map((m) => new Date(made.getTime() - m * MINUTE).toISOString()));
  });

  it("disabling the schedule cancels a backfill's pending retry: its failed attempt is marked cancelled and the backfill goes on to its end", async () => {
    const s = await minutelyWebhook('bf-disable-retry', { retry_policy: { maximum_retry_attempts: 2, maximum_event_age_seconds: 86_400 } });
    const t0 = new Date(lastMinute().getTime() - 300 * MINUTE);
    const first = new Date(t0.getTime() + MINUTE);
    failing.add(awsTime(first));
    try {
      const b = await backfillSchedule({ ...(await scope()), scheduleRef: s.id, from: t0, to: new Date(t0.getTime() + 3 * MINUTE), maxConcurrency: 1, now: new Date() });
      const now = new Date();
      const r1 = await workerEngine.fireBackfills({ db: w.db, now, limit: 50, limits: LIMITS });
      await workerEngine.deliverAndRecord(w.db, r1.outcomes.flatMap((o) => (o.kind === 'delivering' ? [o.delivery] : [])), delivery, () => now);
      // The first occurrence failed and waits for its retry: the backfill's one slot is taken.
      expect((await getBackfill({ ...(await scope()), backfillRef: b.id })).in_flight).toBe(1);
      await updateSchedule({ ...(await scope()), scheduleRef: s.id, input: { enabled: false }, limits: LIMITS, now });
      const failed = await w.db.run.findFirstOrThrow({ where: { scheduleId: s.id, scheduledFor: first, attempt: 1 } });
      expect(failed).toMatchObject({ trigger: `backfill:${b.id}`, status: 'invocation_error', exhausted: 'cancelled', nextAttemptAt: null });
      await drainBackfills(now);
      expect(await getBackfill({ ...(await scope()), backfillRef: b.id })).toMatchObject({ state: 'completed', total: 3, fired: 3, succeeded: 2, failed: 1, in_flight: 0 });
    } finally {
      failing.clear();
    }
  });

  it('client_token: a retry with the same token and request answers the first backfill and makes no second; another request is client_token_reused', async () => {
    const s = await minutelyWebhook('bf-token');
    const to = lastMinute();
    const req = { ...(await scope()), scheduleRef: 'bf-token', from: new Date(to.getTime() - 5 * MINUTE), to, now: new Date() };
    const first = await backfillSchedule({ ...req, clientToken: 'retry-1' });
    const again = await backfillSchedule({ ...req, clientToken: 'retry-1', now: new Date() });
    expect(again.id).toBe(first.id);
    // The same request written otherwise: the schedule by id, the bounds as text with an offset, the defaults spelled out.
    const spelled = await backfillSchedule({ ...req, scheduleRef: s.id, from: req.from.toISOString().replace('Z', '+00:00'), to: to.toISOString(), reprocess: 'missing', maxConcurrency: 1, order: 'oldest_first', clientToken: 'retry-1', now: new Date() });
    expect(spelled.id).toBe(first.id);
    expect(await w.db.backfill.count({ where: { scheduleId: s.id } })).toBe(1);
    expect(await refusal(backfillSchedule({ ...req, to: new Date(to.getTime() - MINUTE), clientToken: 'retry-1' }))).toEqual({ code: 'client_token_reused', path: 'client_token' });
    // Without a token, a repeat is a second backfill (it selects none: the first has them queued, decision 304).
    expect(await backfillSchedule({ ...req, now: new Date() })).toMatchObject({ total: 0, state: 'completed' });
    expect(await w.db.backfill.count({ where: { scheduleId: s.id } })).toBe(2);
  });

  it('cancel stops a running backfill; list_backfills and the activity log show both', async () => {
    const s = await minutelyWebhook('bf-cancel');
    const t0 = new Date(lastMinute().getTime() - 200 * MINUTE);
    const b = await backfillSchedule({ ...(await scope()), scheduleRef: 'bf-cancel', from: t0, to: new Date(t0.getTime() + 10 * MINUTE), now: new Date() });
    const now = new Date();
    const r = await workerEngine.fireBackfills({ db: w.db, now, limit: 50, limits: LIMITS });
    await workerEngine.deliverAndRecord(w.db, r.outcomes.flatMap((o) => (o.kind === 'delivering' ? [o.delivery] : [])), delivery, () => now);
    const cancelled = await cancelBackfill({ ...(await scope()), backfillRef: b.id, now: new Date() });
    expect(cancelled).toMatchObject({ state: 'cancelled', total: 10, fired: 1, succeeded: 1, in_flight: 0 });
    expect(cancelled.finished_at).toBeDefined();
    await drainBackfills();
    expect(await w.db.run.count({ where: { scheduleId: s.id } })).toBe(1);
    // Cancelling again answers it as it is.
    expect((await cancelBackfill({ ...(await scope()), backfillRef: b.id, now: new Date() })).state).toBe('cancelled');
    const listed = await listBackfills({ ...(await scope()), scheduleRef: 'bf-cancel' });
    expect(listed.backfills.map((x) => x.id)).toEqual([b.id]);
    const activity = await listActivity({ ...(await scope()), scheduleRef: 'bf-cancel' });
    expect(activity.activity.map((a) => [a.action, a.backfill_id])).toEqual([
      ['cancel_backfill', b.id],
      ['backfill', b.id],
      ['create', undefined],
    ]);
    expect(activity.activity[1].count).toBe(10);
    expect(await refusal(getBackfill({ ...(await scope()), backfillRef: '00000000-0000-4000-8000-000000000000' }))).toEqual({ code: 'backfill_not_found', path: 'backfill_id' });
  });
});

describe('§18.2 catch_up after the worker was down for 10 minutes (minutely schedule)', () => {
  // `reason`: what the skip outcome (the worker's `occurrence:skipped` log) says of the skipped ones.
  const cases: { alias: string; catchUp: Record<string, unknown> | undefined; fires: number; skipped: number; reason?: string }[] = [
    { alias: 'cu-all', catchUp: { window_seconds: 3600, mode: 'all' }, fires: 10, skipped: 0 },
    { alias: 'cu-latest', catchUp: { window_seconds: 3600, mode: 'latest' }, fires: 1, skipped: 9, reason: 'catchup-latest' },
    { alias: 'cu-none', catchUp: { window_seconds: 3600, mode: 'none' }, fires: 0, skipped: 10, reason: 'catchup-none' },
    { alias: 'cu-burst', catchUp: { window_seconds: 3600, mode: 'all', max_burst: 3 }, fires: 3, skipped: 7, reason: 'catchup-max-burst' },
    // Absent: the scheduler-wide window (300 s), `all`: the 5 inside it fire.
    { alias: 'cu-default', catchUp: undefined, fires: 5, skipped: 5, reason: 'outside-catchup-window' },
  ];
  for (const c of cases) {
    it(`${c.alias}: fires ${c.fires}, counts ${c.skipped} skipped, and goes on`, async () => {
      const t = new Date(lastMinute().getTime() - 1000 * MINUTE);
      const s = await createSchedule({
        ...(await scope()),
        limits: LIMITS,
        now: new Date(t.getTime() - 30_000),
        input: { alias: c.alias, repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', invocation_target: SEEDED_TARGET, ...(c.catchUp ? { catch_up: c.catchUp } : {}) },
      });
      expect(s.catch_up).toEqual(c.catchUp);
      // The worker fires t on time, then is down until 30 s after t + 10 min: t+1 … t+10 are missed.
      // Each tick records its runs 1 ms after the previous one's, so their order is the order fired.
      const skips: { reason: string; skipped: number }[] = [];
      const fire = async (now: Date) => {
        for (let i = 0; i < 50; i++) {
          const outcomes = await workerEngine.fireDue({ db: w.db, now, limit: 50, limits: LIMITS, clock: () => new Date(now.getTime() + i) });
          for (const o of outcomes) if (o.kind === 'skipped' && o.scheduleId === s.id) skips.push({ reason: o.reason, skipped: o.skipped });
          if (outcomes.length === 0) return;
        }
      };
      await fire(new Date(t.getTime() + 200));
      const back = new Date(t.getTime() + 10 * MINUTE + 30_000);
      await fire(back);
      const runs = await w.db.run.findMany({ where: { scheduleId: s.id, scheduledFor: { gt: t } }, orderBy: { createdAt: 'asc' } });
      expect(runs).toHaveLength(c.fires);
      // Oldest first, and the most recent ones kept.
      const fired = runs.map((r) => (r.scheduledFor.getTime() - t.getTime()) / MINUTE);
      expect(fired).toEqual(Array.from({ length: c.fires }, (_, i) => 10 - c.fires + 1 + i));
      const row = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
      expect(row.skippedOccurrences).toBe(c.skipped);
      expect(skips).toEqual(c.reason ? [{ reason: c.reason, skipped: c.skipped }] : []);
      // No schedule stops: it continues from its next occurrence after now.
      expect(row).toMatchObject({ state: 'active', enabled: true });
      expect(row.nextFireAt?.toISOString()).toBe(new Date(t.getTime() + 11 * MINUTE).toISOString());
    });
  }

  it('a year-long backlog with `none` skips it in one claim and continues from now', async () => {
    const t = new Date(lastMinute().getTime() - 2000 * MINUTE);
    const s = await createSchedule({
      ...(await scope()),
      limits: LIMITS,
      now: new Date(t.getTime() - 30_000),
      input: { alias: 'cu-year', repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', invocation_target: SEEDED_TARGET, catch_up: { window_seconds: 31_536_000, mode: 'none' } },
    });
    const back = new Date(t.getTime() + 365 * 24 * 60 * MINUTE + 30_000);
    const started = performance.now();
    const outcomes = await workerEngine.fireDue({ db: w.db, now: back, limit: 50, limits: LIMITS });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(outcomes.find((o) => o.scheduleId === s.id)?.kind).toBe('skipped');
    const row = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.state).toBe('active');
    expect(row.nextFireAt!.getTime()).toBeGreaterThan(back.getTime() - 10_000);
    expect(row.skippedOccurrences).toBeGreaterThan(0);
  });

  it('enabling a disabled schedule continues from now and fires nothing it missed while disabled', async () => {
    const t = new Date(lastMinute().getTime() - 4000 * MINUTE);
    const s = await createSchedule({
      ...(await scope()),
      limits: LIMITS,
      now: new Date(t.getTime() - 30_000),
      input: { alias: 'cu-enable', repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', invocation_target: SEEDED_TARGET, catch_up: { window_seconds: 3600, mode: 'all' }, enabled: false },
    });
    const back = new Date(t.getTime() + 10 * MINUTE + 30_000);
    await updateSchedule({ ...(await scope()), scheduleRef: s.id, input: { enabled: true }, limits: LIMITS, now: back });
    const row = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.nextFireAt?.toISOString()).toBe(new Date(t.getTime() + 11 * MINUTE).toISOString());
    await workerEngine.fireDue({ db: w.db, now: new Date(back.getTime() + 1000), limit: 50, limits: LIMITS });
    expect(await w.db.run.count({ where: { scheduleId: s.id } })).toBe(0);
  });

  it('`window_seconds: 0` still fires an on-time occurrence (a busy tick is not a backlog)', async () => {
    const t = new Date(lastMinute().getTime() - 3000 * MINUTE);
    const s = await createSchedule({
      ...(await scope()),
      limits: LIMITS,
      now: new Date(t.getTime() - 30_000),
      input: { alias: 'cu-zero', repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', invocation_target: SEEDED_TARGET, catch_up: { window_seconds: 0, mode: 'all' } },
    });
    await workerEngine.fireDue({ db: w.db, now: new Date(t.getTime() + 3_000), limit: 50, limits: LIMITS });
    expect(await w.db.run.count({ where: { scheduleId: s.id } })).toBe(1);
  });
});
