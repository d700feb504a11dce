/**
 * The worker's fallback when a batch fails as a whole (SPEC §8, §12.2), on the dialect of
 * TEST_DATABASE: one occurrence whose run cannot be written (a database trigger refuses it) fails
 * every batch it is in; the fallback fires the batch's other occurrences AND its due retries one by
 * one, so the failing occurrence holds up neither. A schedule row the engine cannot read is paused
 * with the reason inside the batch that claims it (the batch's other occurrences fire with it), and
 * so is one in the fallback's own transaction.
 */
import { describe, expect, it } from 'vitest';
import { dialectOfDb } from '../../lib/db';
import { createSchedule, schedulerEngine } from '../../lib/schedules';
import { TEST_LIMITS } from '../../lib/testing/limits';
import { SEEDED_TARGET, useSeededScheduler } from '../../lib/testing/seeded-scheduler';
import { Worker } from '../worker';

const w = useSeededScheduler();

async function setSession(state: 'open' | 'closed'): Promise<void> {
  await w.db.$transaction((tx) => tx.workflowSession.updateMany({ where: { revisionId: w.ctx.proceduresRevisionId, alias: 'nightly-batch' }, data: { state } }));
}

/** A trigger refusing every run of `scheduleId`: its occurrence fails any batch that holds it. */
async function poison(scheduleId: string): Promise<void> {
  if (dialectOfDb(w.db) === 'sqlite') {
    await w.db.$executeRawUnsafe(`CREATE TRIGGER poison BEFORE INSERT ON runs WHEN NEW.schedule_id = '${scheduleId}' BEGIN SELECT RAISE(ABORT, 'poisoned occurrence'); END`);
  } else {
    await w.db.$executeRawUnsafe(`CREATE FUNCTION poison() RETURNS trigger AS $$ BEGIN IF NEW.schedule_id = '${scheduleId}' THEN RAISE EXCEPTION 'poisoned occurrence'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await w.db.$executeRawUnsafe('CREATE TRIGGER poison BEFORE INSERT ON runs FOR EACH ROW EXECUTE FUNCTION poison()');
  }
}

/** A one-time schedule of the seeded scheduler, due at `time` (UTC wall time), saved the day before. */
async function oneTime(alias: string, time: string, extra: Record<string, unknown> = {}) {
  return createSchedule({
    db: w.db, actor: w.actor(), revision: await w.scheduler(), limits: TEST_LIMITS, now: new Date(Date.parse(`${time}Z`) - 86_400_000),
    input: { alias, repeat: 'one_time', invocation_time: time, timezone: 'UTC', invocation_target: SEEDED_TARGET, ...extra },
  });
}

describe('a batch that fails as a whole', () => {
  it('a failing occurrence holds up neither the other occurrences nor a due retry: each fires in its own transaction', async () => {
    const retried = await oneTime('retried', '2031-07-01T09:00:00', { retry_policy: { maximum_retry_attempts: 2, maximum_event_age_seconds: 3600 } });
    const clock = { at: new Date('2031-07-01T09:00:00Z') };
    const worker = new Worker({ db: w.db, limits: TEST_LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => clock.at });
    // Attempt 1 fails (closed session); attempt 2 is due at 09:01:00.
    await setSession('closed');
    await worker.tick(new Date('2031-07-01T09:00:00Z'));
    await setSession('open');
    const poisoned = await oneTime('poisoned', '2031-07-01T09:01:00');
    const healthy = await oneTime('healthy', '2031-07-01T09:01:00');
    await poison(poisoned.id);
    const errors: string[] = [];
    worker.events.on('tick:error', (e) => errors.push(e.error.message));

    clock.at = new Date('2031-07-01T09:01:00.500Z');
    await worker.tick(clock.at);
    expect(errors.join(' ')).toContain('poisoned occurrence');
    const runs = await w.db.run.findMany({ where: { scheduleId: { in: [retried.id, healthy.id, poisoned.id] } }, orderBy: [{ scheduleId: 'asc' }, { attempt: 'asc' }] });
    const by = (id: string) => runs.filter((r) => r.scheduleId === id).map((r) => [r.attempt, r.status]);
    expect(by(retried.id)).toEqual([[1, 'invocation_error'], [2, 'success']]);
    expect(by(healthy.id)).toEqual([[1, 'success']]);
    expect(by(poisoned.id)).toEqual([]);
    // The failing occurrence stays due, reported, and nothing else is left pending.
    expect((await w.db.schedule.findUniqueOrThrow({ where: { id: poisoned.id } })).nextFireAt?.toISOString()).toBe('2031-07-01T09:01:00.000Z');
    expect(await w.db.pendingAttempt.count({ where: { scheduleId: retried.id } })).toBe(0);
  });

  it('a schedule row that cannot be read is paused with the reason inside the batch, whose other occurrences fire', async () => {
    const unreadable = await oneTime('unreadable', '2031-08-01T09:00:00');
    // Hand-disabled with its next_fire_at left set (no save leaves a disabled row due), and unreadable.
    const disabled = await oneTime('hand-disabled', '2031-08-01T09:00:00');
    const first = await oneTime('first-fire', '2031-08-01T09:00:00');
    const later = await oneTime('later-fire', '2031-08-01T09:05:00');
    // A value no save writes: the row codec refuses it (rawOneOf), on both dialects.
    await w.db.schedule.update({ where: { id: unreadable.id }, data: { repeat: 'fortnightly' } });
    await w.db.schedule.update({ where: { id: disabled.id }, data: { repeat: 'fortnightly', enabled: false } });
    const clock = { at: new Date('2031-08-01T09:00:00.500Z') };
    const worker = new Worker({ db: w.db, limits: TEST_LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => clock.at });
    const tickErrors: string[] = [];
    const occurrenceErrors = new Map<string, string>();
    worker.events.on('tick:error', (e) => tickErrors.push(e.error.message));
    worker.events.on('occurrence:error', (e) => occurrenceErrors.set(e.scheduleId, e.error.message));

    await worker.tick(clock.at);
    // One batch: both unreadable rows paused, the other occurrence fired; no fallback.
    expect(tickErrors).toEqual([]);
    expect([...occurrenceErrors.keys()].sort()).toEqual([unreadable.id, disabled.id].sort());
    expect(occurrenceErrors.get(unreadable.id)).toBe(
      `schedule ${unreadable.id} cannot be read: schedules.repeat holds "fortnightly", none of one_time, recurring_cron, recurring_rate; the worker paused the schedule`,
    );
    expect((await w.db.run.findMany({ where: { scheduleId: first.id } })).map((r) => r.status)).toEqual(['success']);
    expect(await w.db.run.count({ where: { scheduleId: { in: [unreadable.id, disabled.id] } } })).toBe(0);
    for (const s of [unreadable, disabled]) {
      const paused = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
      expect(paused).toMatchObject({ enabled: false, nextFireAt: null, nextScheduledFor: null, pausedByType: 'system', pausedById: null, version: s.version + 1 });
      expect(paused.pauseNote).toBe('paused: the worker cannot read this schedule (schedules.repeat holds "fortnightly", none of one_time, recurring_cron, recurring_rate)');
    }

    // Nothing left to fail: the next due occurrence fires in one batch.
    clock.at = new Date('2031-08-01T09:05:00.500Z');
    expect(await worker.tick(clock.at)).toBe(1);
    expect(tickErrors).toEqual([]);
    expect((await w.db.run.findMany({ where: { scheduleId: later.id } })).map((r) => r.status)).toEqual(['success']);
  });

  it('a due retry of a schedule that cannot be read: the schedule is paused, its retry cancelled, the batch fires', async () => {
    const retried = await oneTime('retried-unreadable', '2031-10-01T09:00:00', { retry_policy: { maximum_retry_attempts: 2, maximum_event_age_seconds: 3600 } });
    const clock = { at: new Date('2031-10-01T09:00:00Z') };
    const worker = new Worker({ db: w.db, limits: TEST_LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => clock.at });
    // Attempt 1 fails (closed session); attempt 2 is due at 09:01:00.
    await setSession('closed');
    await worker.tick(clock.at);
    await setSession('open');
    expect(await w.db.pendingAttempt.count({ where: { scheduleId: retried.id } })).toBe(1);
    const version = (await w.db.schedule.findUniqueOrThrow({ where: { id: retried.id } })).version;
    await w.db.schedule.update({ where: { id: retried.id }, data: { createdByType: 'alien' } });
    const healthy = await oneTime('healthy-beside', '2031-10-01T09:01:00');
    const tickErrors: string[] = [];
    const occurrenceErrors: string[] = [];
    worker.events.on('tick:error', (e) => tickErrors.push(e.error.message));
    worker.events.on('occurrence:error', (e) => occurrenceErrors.push(e.error.message));

    clock.at = new Date('2031-10-01T09:01:00.500Z');
    await worker.tick(clock.at);
    expect(tickErrors).toEqual([]);
    expect(occurrenceErrors).toEqual([`schedule ${retried.id} cannot be read: schedules.created_by_type holds "alien", none of user, org; the worker paused the schedule`]);
    expect(await w.db.pendingAttempt.count({ where: { scheduleId: retried.id } })).toBe(0);
    const runs = await w.db.run.findMany({ where: { scheduleId: retried.id }, orderBy: { attempt: 'asc' } });
    // As any pause does (SPEC §12.2), the retry is cancelled: no second attempt is made.
    expect(runs.map((r) => [r.attempt, r.status])).toEqual([[1, 'invocation_error']]);
    expect(await w.db.schedule.findUniqueOrThrow({ where: { id: retried.id } })).toMatchObject({ enabled: false, pausedByType: 'system', version: version + 1 });
    expect((await w.db.run.findMany({ where: { scheduleId: healthy.id } })).map((r) => r.status)).toEqual(['success']);
  });

  it('the fallback pauses an unreadable row it claims in its own transaction', async () => {
    const created = await oneTime('unreadable-alone', '2031-09-01T09:00:00');
    await w.db.schedule.update({ where: { id: created.id }, data: { overlapPolicy: 'sometimes' } });
    const at = new Date('2031-09-01T09:00:00Z');
    const out = await schedulerEngine.fireOccurrence({ db: w.db, scheduleId: created.id, scheduledFor: at, now: at, limits: TEST_LIMITS });
    expect(out).toMatchObject({ kind: 'error', scheduleId: created.id, scheduledFor: at });
    expect(out.kind === 'error' && out.error.message).toBe(
      `schedule ${created.id} cannot be read: schedules.overlap_policy holds "sometimes", none of allow_all, skip, buffer_one; the worker paused the schedule`,
    );
    expect(await w.db.schedule.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({ enabled: false, nextFireAt: null, pausedByType: 'system' });
    // Already paused: a second try finds the occurrence gone (lost race), nothing written twice.
    expect(await schedulerEngine.fireOccurrence({ db: w.db, scheduleId: created.id, scheduledFor: at, now: at, limits: TEST_LIMITS })).toMatchObject({ kind: 'lost-race' });
  });
});
