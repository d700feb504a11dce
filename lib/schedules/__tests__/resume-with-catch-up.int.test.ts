/**
 * SPEC §18.2 Resume with catch-up on the dialect of TEST_DATABASE: all or nothing (decision 350) —
 * a catch-up too large to backfill leaves the schedule disabled and writes nothing; the dry run says
 * what would be redone; a one-time schedule whose instant passed while disabled is resumed and its
 * instant backfilled (decision 351).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Limits } from '../../config';
import { DomainError } from '../../errors';
import { createSchedule, dryRunResumeWithCatchUp, getBackfill, listActivity, resumeWithCatchUp } from '..';
import { useSeededScheduler } from '../../testing/seeded-scheduler';
import { startReceiver, type Receiver } from '../../testing/receiver';
import { drainBackfills as drain, testDelivery } from '../../testing/fire-and-deliver';
import { TEST_LIMITS } from '../../testing/limits';

const w = useSeededScheduler();
const LIMITS: Limits = { ...TEST_LIMITS, executionsPerSessionPerMinute: 100_000 };
const MINUTE = 60_000;
const ALLOW = { hosts: ['localhost'], addresses: [], ranges: ['127.0.0.0/8', '::1/128'] };
const delivery = testDelivery();
const lastMinute = () => new Date(Math.floor(Date.now() / MINUTE) * MINUTE);

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver(() => ({ status: 200, body: 'ok' }));
});
afterAll(async () => receiver?.close());

async function scope() {
  return { db: w.db, actor: w.actor(), revision: await w.scheduler(), limits: LIMITS };
}

/** A disabled schedule (paused by its creator at `pausedAt`) delivering to the receiver at `/<alias>`. */
async function pausedWebhook(alias: string, pausedAt: Date, cadence: Record<string, unknown>) {
  return createSchedule({
    ...(await scope()),
    now: pausedAt,
    httpAllowList: ALLOW,
    input: {
      alias,
      timezone: 'UTC',
      enabled: false,
      invocation_target_type: 'http',
      invocation_target: { url: receiver.url(`/${alias}`), method: 'POST', body: { at: '<aws.scheduler.scheduled-time>' } },
      ...cadence,
    },
  });
}

async function drainBackfills(now = new Date()): Promise<void> {
  return drain({ db: w.db, now, limits: LIMITS, delivery });
}

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DomainError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('§18.2 Resume with catch-up', () => {
  it('dry run: the paused interval and the count of occurrences it would redo; nothing is written', async () => {
    const now = lastMinute();
    const s = await pausedWebhook('rc-dry', new Date(now.getTime() - 30 * MINUTE - 30_000), { repeat: 'recurring_cron', cron_expression: '* * * * ? *' });
    const dry = await dryRunResumeWithCatchUp({ ...(await scope()), scheduleRef: 'rc-dry', expectedVersion: s.version, now });
    expect(dry).toMatchObject({ dry_run: true, from: new Date(now.getTime() - 30 * MINUTE - 30_000).toISOString(), to: now.toISOString(), total: 31 });
    // `from` excluded, `to` (now) included.
    expect(dry.first[0]).toBe(new Date(now.getTime() - 30 * MINUTE).toISOString());
    const row = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.enabled).toBe(false);
    expect(row.version).toBe(s.version);
    expect(await w.db.backfill.count({ where: { scheduleId: s.id } })).toBe(0);
  });

  it('all or nothing: a pause of 7 days of minutely occurrences (over 10,000) is refused with what to do, and the schedule stays disabled, unchanged', async () => {
    const now = lastMinute();
    const s = await pausedWebhook('rc-large', new Date(now.getTime() - 7 * 24 * 60 * MINUTE), { repeat: 'recurring_cron', cron_expression: '* * * * ? *' });
    const dry = await refusal(dryRunResumeWithCatchUp({ ...(await scope()), scheduleRef: s.id, expectedVersion: s.version, now }));
    expect(dry.code).toBe('backfill_too_large');
    const r = await refusal(resumeWithCatchUp({ ...(await scope()), scheduleRef: s.id, expectedVersion: s.version, now }));
    expect(r.code).toBe('backfill_too_large');
    const row = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect({ enabled: row.enabled, version: row.version, nextFireAt: row.nextFireAt, pausedAt: row.pausedAt?.toISOString() }).toEqual({
      enabled: false,
      version: s.version,
      nextFireAt: null,
      pausedAt: new Date(now.getTime() - 7 * 24 * 60 * MINUTE).toISOString(),
    });
    expect(await w.db.backfill.count({ where: { scheduleId: s.id } })).toBe(0);
    const activity = await listActivity({ ...(await scope()), scheduleRef: s.id });
    expect(activity.activity.map((a) => a.action)).toEqual(['create']);
    // The operator is told what was (not) done and what to do instead.
    expect(r.message).toContain('nothing was changed');
    expect(r.message).toContain('without catch-up');
    expect(r.message).toContain('narrower range');
  });

  it('enables and backfills in one: the schedule continues from now, the backfill fires what it missed', async () => {
    const now = lastMinute();
    const s = await pausedWebhook('rc-enable', new Date(now.getTime() - 5 * MINUTE - 30_000), { repeat: 'recurring_cron', cron_expression: '* * * * ? *' });
    const { schedule, backfill } = await resumeWithCatchUp({ ...(await scope()), scheduleRef: s.id, expectedVersion: s.version, now });
    expect(schedule).toMatchObject({ enabled: true, version: s.version + 1 });
    expect(backfill).toMatchObject({ state: 'running', total: 6, reprocess: 'missing', max_concurrency: 1 });
    const row = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.nextFireAt?.toISOString()).toBe(new Date(now.getTime() + MINUTE).toISOString());
    // A stale version changes nothing.
    expect((await refusal(resumeWithCatchUp({ ...(await scope()), scheduleRef: s.id, expectedVersion: s.version, now }))).code).toBe('version_conflict');
  });

  it('nothing missed while paused: the schedule is only enabled, as the preview says; no backfill of 0 is stored', async () => {
    // Paused from :20 to :30 of one minute: no minutely occurrence falls in (pausedAt, now].
    const now = new Date(lastMinute().getTime() + 30_000);
    const s = await pausedWebhook('rc-none', new Date(now.getTime() - 10_000), { repeat: 'recurring_cron', cron_expression: '* * * * ? *' });
    expect(await dryRunResumeWithCatchUp({ ...(await scope()), scheduleRef: s.id, now })).toMatchObject({ total: 0, first: [] });
    const { schedule, backfill } = await resumeWithCatchUp({ ...(await scope()), scheduleRef: s.id, expectedVersion: s.version, now });
    expect(schedule).toMatchObject({ enabled: true, version: s.version + 1 });
    expect(backfill).toBeNull();
    expect(await w.db.backfill.count({ where: { scheduleId: s.id } })).toBe(0);
    const activity = await listActivity({ ...(await scope()), scheduleRef: s.id });
    expect(activity.activity.map((a) => a.action).sort()).toEqual(['create', 'enable']);
  });

  it('a one-time schedule whose instant passed while disabled is enabled and that instant backfilled (as backfill_schedule does)', async () => {
    const now = lastMinute();
    const pausedAt = new Date(now.getTime() - 60 * MINUTE);
    const instant = new Date(now.getTime() - 20 * MINUTE);
    const s = await pausedWebhook('rc-once', pausedAt, { repeat: 'one_time', invocation_time: instant.toISOString().slice(0, 19) });
    expect((await dryRunResumeWithCatchUp({ ...(await scope()), scheduleRef: s.id, now })).first).toEqual([instant.toISOString()]);
    const { schedule, backfill } = await resumeWithCatchUp({ ...(await scope()), scheduleRef: s.id, expectedVersion: s.version, now });
    expect(schedule).toMatchObject({ enabled: true, state: 'active' });
    expect(backfill).toMatchObject({ total: 1 });
    // No occurrence of its own is left: the worker has nothing of it to fire; the backfill fires the instant.
    const row = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.nextFireAt).toBeNull();
    await drainBackfills();
    expect(await getBackfill({ ...(await scope()), backfillRef: backfill!.id })).toMatchObject({ state: 'completed', fired: 1, succeeded: 1 });
    const runs = await w.db.run.findMany({ where: { scheduleId: s.id } });
    expect(runs.map((r) => [r.trigger, r.scheduledFor.toISOString(), r.status])).toEqual([[`backfill:${backfill!.id}`, instant.toISOString(), 'success']]);
    expect(receiver.requests.filter((q) => q.path === '/rc-once').map((q) => (JSON.parse(q.body) as { at: string }).at)).toEqual([instant.toISOString().replace('.000Z', 'Z')]);
  });
});
