/**
 * SPEC §8 guarantees of the fire path, against a real database of the TEST_DATABASE dialect
 * (SQLite file or PostgreSQL): exactly once per occurrence, claim + advance + run + execution in one
 * transaction per batch, catch-up window, disabled / completed / end_date (SPEC §5.3).
 */
import { describe, expect, it } from 'vitest';
import { createSchedule, fireDue, fireOccurrence, listDueOccurrences, setAllEnabled, updateSchedule } from '../../lib/schedules';
import { insertSchedules } from '../../lib/testing/insert-schedules';
import { SEEDED_TARGET, useSeededScheduler } from '../../lib/testing/seeded-scheduler';
import { Worker } from '../worker';
import { TEST_LIMITS } from '../../lib/testing/limits';

const LIMITS = TEST_LIMITS;
const TARGET = SEEDED_TARGET;
const w = useSeededScheduler();
const actor = () => w.actor();
const schedulerRevision = () => w.scheduler();

describe('fireOccurrence', () => {
  it('§8 a one_time schedule fires once, records a success run, and completes', async () => {
    const now = new Date('2030-01-15T10:00:00Z');
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: await schedulerRevision(), limits: LIMITS, now,
      input: { repeat: 'one_time', invocation_time: '2030-01-15T15:30:15', timezone: 'Asia/Kolkata', description: 'one-time e2e', invocation_target: TARGET },
    });
    expect(s.next_fire_at).toBe('2030-01-15T10:00:15.000Z'); // 15:30:15 IST = 10:00:15 UTC
    const scheduledFor = new Date(s.next_fire_at!);
    const out = await fireOccurrence({ db: w.db, scheduleId: s.id, scheduledFor, now: new Date('2030-01-15T10:00:16Z'), limits: LIMITS });
    expect(out.kind).toBe('fired');
    if (out.kind !== 'fired') return;
    expect(out.run.status).toBe('success');
    expect(out.completed).toBe(true);
    expect(out.lateMs).toBe(1000);
    const execution = await w.db.execution.findUniqueOrThrow({ where: { id: out.run.executionId! } });
    expect(execution.description).toBe('one-time e2e');
    expect(execution.scheduleId).toBe(s.id);
    const row = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.state).toBe('completed');
    expect(row.nextFireAt).toBeNull();

    // The same occurrence again (a stale listing, a restarted worker): nothing is written.
    const again = await fireOccurrence({ db: w.db, scheduleId: s.id, scheduledFor, now: new Date('2030-01-15T10:00:17Z'), limits: LIMITS });
    expect(again.kind).toBe('lost-race');
    expect(await w.db.run.count({ where: { scheduleId: s.id } })).toBe(1);
  });

  it('§8 two workers on one due occurrence record one run', async () => {
    const now = new Date('2030-02-01T00:00:00Z');
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: await schedulerRevision(), limits: LIMITS, now,
      input: { repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', invocation_target: TARGET },
    });
    expect(s.next_fire_at).toBe('2030-02-01T00:01:00.000Z');
    // Both workers share one connection here: better-sqlite3 is synchronous, so two connections in
    // one process would block each other's event loop. Separate processes: worker.sigkill test.
    try {
      const at = new Date('2030-02-01T00:01:00.500Z');
      const w1 = new Worker({ db: w.db, limits: LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => at });
      const w2 = new Worker({ db: w.db, limits: LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => at });
      await Promise.all([w1.tick(at), w2.tick(at), w1.tick(at), w2.tick(at)]);
      const runs = await w.db.run.findMany({ where: { scheduleId: s.id } });
      expect(runs.map((r) => r.scheduledFor.toISOString())).toEqual(['2030-02-01T00:01:00.000Z']);
      expect(await w.db.execution.count({ where: { scheduleId: s.id } })).toBe(1);
      const row = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
      expect(row.nextFireAt?.toISOString()).toBe('2030-02-01T00:02:00.000Z');
    } finally {
      await w.db.schedule.delete({ where: { id: s.id } });
    }
  });

  it('§8 catch-up: after 10 minutes down with a 5-minute window, older occurrences are skipped and counted, the last 5 fire late', async () => {
    const created = new Date('2030-03-01T00:00:30Z');
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: await schedulerRevision(), limits: LIMITS, now: created,
      input: { repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', invocation_target: TARGET },
    });
    expect(s.next_fire_at).toBe('2030-03-01T00:01:00.000Z');
    // The worker comes back at 00:11:30: occurrences 00:01 … 00:11 are due; the window starts at 00:06:30.
    const now = new Date('2030-03-01T00:11:30Z');
    const worker = new Worker({ db: w.db, limits: LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => now });
    for (let i = 0; i < 20 && (await listDueOccurrences(w.db, now, 100)).some((d) => d.scheduleId === s.id); i++) await worker.tick(now);
    const runs = await w.db.run.findMany({ where: { scheduleId: s.id }, orderBy: { scheduledFor: 'asc' } });
    expect(runs.map((r) => r.scheduledFor.toISOString().slice(11, 16))).toEqual(['00:07', '00:08', '00:09', '00:10', '00:11']);
    const row = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.skippedOccurrences).toBe(6); // 00:01 … 00:06
    expect(row.nextFireAt?.toISOString()).toBe('2030-03-01T00:12:00.000Z');
    await w.db.schedule.delete({ where: { id: s.id } });
  });

  it('§8 batches: 250 due occurrences, claimed 100 per transaction, each fire once with one execution', async () => {
    const now = new Date('2030-04-01T00:00:30Z');
    const ids = await insertSchedules(
      w.db,
      Array.from({ length: 250 }, (_, i) => ({
        revisionId: w.ctx.schedulerRevisionId,
        createdBy: { type: 'user' as const, id: w.ctx.userId },
        invocationTarget: TARGET,
        // Spread over the 25 s before now: all inside the catch-up window, oldest first.
        nextFireAt: new Date(now.getTime() - 25_000 + i * 100),
      })),
      now,
    );
    const worker = new Worker({ db: w.db, limits: LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => now });
    const claimed: number[] = [];
    for (let i = 0; i < 5; i++) claimed.push(await worker.tick(now));
    expect(claimed).toEqual([100, 100, 50, 0, 0]);
    const runs = await w.db.run.findMany({ where: { scheduleId: { in: ids } } });
    expect(runs.length).toBe(250);
    expect(new Set(runs.map((r) => r.scheduleId)).size).toBe(250);
    expect(runs.every((r) => r.status === 'success' && r.createdAt.getTime() === now.getTime())).toBe(true);
    // The run copies the schedule's target as stored at fire time (SPEC §8.1).
    expect(runs[0].invocationTarget).toEqual(TARGET);
    expect(await w.db.execution.count({ where: { scheduleId: { in: ids } } })).toBe(250);
    const rows = await w.db.schedule.findMany({ where: { id: { in: ids } }, select: { nextFireAt: true } });
    expect(new Set(rows.map((r) => r.nextFireAt?.toISOString()))).toEqual(new Set(['2030-04-01T00:01:00.000Z']));
    await w.db.schedule.deleteMany({ where: { id: { in: ids } } });
  });

  it('§8 an occurrence that already has a run is advanced without firing again', async () => {
    const created = new Date('2030-05-01T00:00:10Z');
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: await schedulerRevision(), limits: LIMITS, now: created,
      input: { repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', invocation_target: TARGET },
    });
    const at = new Date('2030-05-01T00:01:00.200Z');
    const [first] = await fireDue({ db: w.db, now: at, limit: 10, limits: LIMITS });
    expect(first).toMatchObject({ kind: 'fired', scheduleId: s.id });
    // next_fire_at moved back onto the fired occurrence (e.g. a save computed from a slower clock).
    await w.db.schedule.update({ where: { id: s.id }, data: { nextFireAt: new Date('2030-05-01T00:01:00Z') } });
    const [again] = await fireDue({ db: w.db, now: at, limit: 10, limits: LIMITS });
    expect(again).toMatchObject({ kind: 'already-fired', scheduleId: s.id, completed: false });
    expect(await w.db.run.count({ where: { scheduleId: s.id } })).toBe(1);
    expect(await w.db.execution.count({ where: { scheduleId: s.id } })).toBe(1);
    const row = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.nextFireAt?.toISOString()).toBe('2030-05-01T00:02:00.000Z');
    await w.db.schedule.delete({ where: { id: s.id } });
  });

  it('§5.3 a disabled schedule has no next_fire_at and never fires; enabling computes from now, with no catch-up', async () => {
    const created = new Date('2030-06-01T00:00:10Z');
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: await schedulerRevision(), limits: LIMITS, now: created,
      input: { repeat: 'recurring_cron', cron_expression: '*/5 * * * ? *', timezone: 'UTC', enabled: false, invocation_target: TARGET },
    });
    expect(s.next_fire_at).toBeNull();
    const later = new Date('2030-06-01T00:21:30Z');
    expect(await fireDue({ db: w.db, now: later, limit: 100, limits: LIMITS })).toEqual([]);
    const enabled = await updateSchedule({ db: w.db, actor: actor(), revision: await schedulerRevision(), scheduleRef: s.id, input: { enabled: true }, limits: LIMITS, now: later });
    // 00:05 … 00:20 passed while disabled: never fired, never counted as skipped.
    expect(enabled.next_fire_at).toBe('2030-06-01T00:25:00.000Z');
    await setAllEnabled({ db: w.db, actor: actor(), revision: await schedulerRevision(), enabled: false, now: later });
    expect((await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } })).nextFireAt).toBeNull();
    const resumed = new Date('2030-06-01T00:31:00Z');
    await setAllEnabled({ db: w.db, actor: actor(), revision: await schedulerRevision(), enabled: true, now: resumed });
    const row = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.nextFireAt?.toISOString()).toBe('2030-06-01T00:35:00.000Z');
    expect(row.skippedOccurrences).toBe(0);
    expect(await w.db.run.count({ where: { scheduleId: s.id } })).toBe(0);
    await w.db.schedule.delete({ where: { id: s.id } });
    // set_all_enabled also resumed the seed's disabled demo schedule: pause it again.
    await setAllEnabled({ db: w.db, actor: actor(), revision: await schedulerRevision(), enabled: false, now: resumed });
  });

  it('§5.3 end_date passing completes a recurring schedule after its last occurrence fires', async () => {
    const created = new Date('2030-07-01T00:00:10Z');
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: await schedulerRevision(), limits: LIMITS, now: created,
      input: { repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', end_date: '2030-07-01T00:02:30Z', invocation_target: TARGET },
    });
    const first = await fireDue({ db: w.db, now: new Date('2030-07-01T00:01:00.100Z'), limit: 10, limits: LIMITS });
    expect(first).toMatchObject([{ kind: 'fired', completed: false }]);
    const second = await fireDue({ db: w.db, now: new Date('2030-07-01T00:02:00.100Z'), limit: 10, limits: LIMITS });
    // 00:03 is after end_date (00:02:30): 00:02 is the last occurrence, so this fire completes it.
    expect(second).toMatchObject([{ kind: 'fired', completed: true }]);
    const row = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.state).toBe('completed');
    expect(row.nextFireAt).toBeNull();
    expect(await fireDue({ db: w.db, now: new Date('2030-07-01T00:10:00Z'), limit: 10, limits: LIMITS })).toEqual([]);
    const runs = await w.db.run.findMany({ where: { scheduleId: s.id }, orderBy: { scheduledFor: 'asc' } });
    expect(runs.map((r) => r.scheduledFor.toISOString())).toEqual(['2030-07-01T00:01:00.000Z', '2030-07-01T00:02:00.000Z']);
    await w.db.schedule.delete({ where: { id: s.id } });
  });

  it('§8 a one_time occurrence missed beyond the catch-up window completes with no run and counts one skip', async () => {
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: await schedulerRevision(), limits: LIMITS, now: new Date('2030-08-01T00:00:00Z'),
      input: { repeat: 'one_time', invocation_time: '2030-08-01T00:10:00', timezone: 'UTC', invocation_target: TARGET },
    });
    // Back at 00:15:01: 00:10 is 301 s late, one second beyond the 300 s window.
    const [out] = await fireDue({ db: w.db, now: new Date('2030-08-01T00:15:01Z'), limit: 10, limits: LIMITS });
    expect(out).toMatchObject({ kind: 'skipped', skipped: 1, completed: true });
    const row = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect([row.state, row.nextFireAt, row.skippedOccurrences]).toEqual(['completed', null, 1]);
    expect(await w.db.run.count({ where: { scheduleId: s.id } })).toBe(0);
    await w.db.schedule.delete({ where: { id: s.id } });
  });

  it('§8 exactly at the catch-up window edge (300 s late) an occurrence still fires', async () => {
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: await schedulerRevision(), limits: LIMITS, now: new Date('2030-08-02T00:00:00Z'),
      input: { repeat: 'one_time', invocation_time: '2030-08-02T00:10:00', timezone: 'UTC', invocation_target: TARGET },
    });
    const [out] = await fireDue({ db: w.db, now: new Date('2030-08-02T00:15:00Z'), limit: 10, limits: LIMITS });
    expect(out).toMatchObject({ kind: 'fired', lateMs: 300_000, completed: true });
    await w.db.schedule.delete({ where: { id: s.id } });
  });

  it('§9 the per-session limit holds inside one batch: the fire beyond it records limit_exceeded, the schedule keeps firing', async () => {
    // The worker's limits decide (passed in, as worker/main.ts passes the parsed configuration).
    const limits = { ...LIMITS, executionsPerSessionPerMinute: 3 };
    const now = new Date('2030-09-01T00:00:30Z');
    const ids = await insertSchedules(
      w.db,
      Array.from({ length: 5 }, (_, i) => ({
        revisionId: w.ctx.schedulerRevisionId,
        createdBy: { type: 'user' as const, id: w.ctx.userId },
        invocationTarget: TARGET,
        nextFireAt: new Date(now.getTime() - 5000 + i),
      })),
      now,
    );
    const outs = await fireDue({ db: w.db, now, limit: 10, limits });
    expect(outs.map((o) => (o.kind === 'fired' ? o.run.status : o.kind))).toEqual(['success', 'success', 'success', 'limit_exceeded', 'limit_exceeded']);
    expect(await w.db.execution.count({ where: { scheduleId: { in: ids } } })).toBe(3);
    const rows = await w.db.schedule.findMany({ where: { id: { in: ids } } });
    expect(rows.every((r) => r.state === 'active' && r.nextFireAt?.toISOString() === '2030-09-01T00:01:00.000Z')).toBe(true);
    await w.db.schedule.deleteMany({ where: { id: { in: ids } } });
  });
});
