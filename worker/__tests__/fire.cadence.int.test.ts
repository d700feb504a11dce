/**
 * SPEC §12 cadence and delivery through the real worker and a real database of the TEST_DATABASE
 * dialect: rate schedules on their anchor's marks, durable retries with back-off into a dead letter,
 * replay, pause after failures, pause all / resume all, delete after completion, flexible windows,
 * and §8's editing rule. Time is driven through the worker's injected clock (no fake timers).
 */
import { describe, expect, it } from 'vitest';
import {
  createSchedule,
  getSchedule,
  listActivity,
  listDeadLetters,
  replayDeadLetter,
  setAllEnabled,
  updateSchedule,
} from '../../lib/schedules';
import { TEST_LIMITS } from '../../lib/testing/limits';
import { SEEDED_TARGET, useSeededScheduler } from '../../lib/testing/seeded-scheduler';
import { Worker } from '../worker';

const LIMITS = TEST_LIMITS;
const TARGET = SEEDED_TARGET;
const w = useSeededScheduler();
const actor = () => w.actor();
const scheduler = () => w.scheduler();
const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

/** Close or reopen the target session `nightly-batch` (test setup; the fire path is what is tested). */
async function setSession(state: 'open' | 'closed'): Promise<void> {
  await w.db.$transaction((tx) => tx.workflowSession.updateMany({ where: { revisionId: w.ctx.proceduresRevisionId, alias: 'nightly-batch' }, data: { state } }));
}

/** Tick a worker whose clock reads `at` until nothing more is claimed. */
async function tickAt(at: Date): Promise<void> {
  const worker = new Worker({ db: w.db, limits: LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => at });
  for (let i = 0; i < 20 && (await worker.tick(at)) > 0; i++);
}

async function runsOf(scheduleId: string) {
  return w.db.run.findMany({ where: { scheduleId }, orderBy: [{ createdAt: 'asc' }, { attempt: 'asc' }] });
}

describe('SPEC §12.1 rate schedules', () => {
  it('`1 minute` fires on its anchor\'s minute marks (saved at 10:00:20 → anchor 10:01)', async () => {
    const saved = new Date('2031-01-10T10:00:20Z');
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: await scheduler(), limits: LIMITS, now: saved,
      input: { repeat: 'recurring_rate', rate_expression: '1 minute', timezone: 'America/New_York', invocation_target: TARGET },
    });
    expect(s.rate_expression).toBe('1 minute');
    expect(s.next_fire_at).toBe('2031-01-10T10:01:00.000Z');
    for (const at of ['2031-01-10T10:01:00.200Z', '2031-01-10T10:02:00.300Z', '2031-01-10T10:03:00.100Z']) await tickAt(new Date(at));
    const runs = await runsOf(s.id);
    expect(runs.map((r) => [iso(r.scheduledFor), r.status, r.attempt])).toEqual([
      ['2031-01-10T10:01:00.000Z', 'success', 1],
      ['2031-01-10T10:02:00.000Z', 'success', 1],
      ['2031-01-10T10:03:00.000Z', 'success', 1],
    ]);
    expect((await getSchedule({ db: w.db, actor: actor(), revision: await scheduler(), scheduleRef: s.id })).next_fire_at).toBe('2031-01-10T10:04:00.000Z');
    await w.db.schedule.delete({ where: { id: s.id } });
  });

  it('a start_date anchors the rate; fixed durations ignore DST (6 hours across 2031-03-09 in New York)', async () => {
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: await scheduler(), limits: LIMITS, now: new Date('2031-03-01T00:00:00Z'),
      input: { repeat: 'recurring_rate', rate_expression: '6 hours', timezone: 'America/New_York', start_date: '2031-03-09T05:00:00Z', invocation_target: TARGET },
    });
    expect(s.next_fire_at).toBe('2031-03-09T05:00:00.000Z'); // 00:00 EST
    await tickAt(new Date('2031-03-09T05:00:01Z'));
    expect((await getSchedule({ db: w.db, actor: actor(), revision: await scheduler(), scheduleRef: s.id })).next_fire_at).toBe('2031-03-09T11:00:00.000Z'); // 07:00 EDT
    await w.db.schedule.delete({ where: { id: s.id } });
  });
});

describe('SPEC §12.2–§12.3 retries and dead letters', () => {
  it('a closed session with maximum_retry_attempts 2: attempts 1, 2, 3 spaced 60 s and 120 s, the last exhausted, one dead letter; a replay after reopening succeeds as a linked manual run', async () => {
    const rev = await scheduler();
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: rev, limits: LIMITS, now: new Date('2031-02-01T00:00:00Z'),
      input: {
        alias: 'retry-closed', repeat: 'one_time', invocation_time: '2031-02-01T09:00:00', timezone: 'UTC',
        retry_policy: { maximum_retry_attempts: 2, maximum_event_age_seconds: 3600 },
        invocation_target: TARGET,
      },
    });
    await setSession('closed');
    try {
      await tickAt(new Date('2031-02-01T09:00:00.500Z'));
      // Too early for attempt 2 (due 09:01:00.500): nothing more happens.
      await tickAt(new Date('2031-02-01T09:01:00.000Z'));
      await tickAt(new Date('2031-02-01T09:01:00.500Z'));
      await tickAt(new Date('2031-02-01T09:03:00.500Z'));
      // Nothing is left: later ticks record nothing.
      await tickAt(new Date('2031-02-01T12:00:00Z'));
      const runs = await runsOf(s.id);
      expect(runs.map((r) => [r.attempt, iso(r.createdAt), r.status, (r.result as { error?: string }).error, iso(r.nextAttemptAt), r.exhausted])).toEqual([
        [1, '2031-02-01T09:00:00.500Z', 'invocation_error', 'session_not_open', '2031-02-01T09:01:00.500Z', null],
        [2, '2031-02-01T09:01:00.500Z', 'invocation_error', 'session_not_open', '2031-02-01T09:03:00.500Z', null],
        [3, '2031-02-01T09:03:00.500Z', 'invocation_error', 'session_not_open', null, 'maximum_retry_attempts'],
      ]);
      expect(runs.every((r) => iso(r.scheduledFor) === '2031-02-01T09:00:00.000Z')).toBe(true);
      expect(await w.db.pendingAttempt.count({ where: { scheduleId: s.id } })).toBe(0);
      const after = await getSchedule({ db: w.db, actor: actor(), revision: rev, scheduleRef: s.id });
      expect([after.state, after.next_fire_at]).toEqual(['completed', null]);

      const { dead_letters } = await listDeadLetters({ db: w.db, actor: actor(), revision: rev });
      const mine = dead_letters.filter((d) => d.schedule_id === s.id);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ schedule_label: 'retry-closed', scheduled_for: '2031-02-01T09:00:00.000Z', attempts: 3, exhausted: 'maximum_retry_attempts', last_run_id: runs[2].id, status: 'invocation_error' });

      await setSession('open');
      const replay = await replayDeadLetter({ db: w.db, actor: actor(), revision: rev, deadLetterRef: mine[0].id, limits: LIMITS, now: new Date('2031-02-01T12:30:00Z') });
      expect(replay.execution).toMatchObject({ trigger: 'manual', status: 'success', attempt: 1, dead_letter_id: mine[0].id });
      expect(replay.dead_letter.replay).toEqual({ run_id: replay.execution.id, status: 'success', at: '2031-02-01T12:30:00.000Z' });
    } finally {
      await setSession('open');
      await w.db.schedule.delete({ where: { id: s.id } });
    }
  });

  it('maximum_event_age_seconds ends retries early: 90 s allows attempt 2 (at +60 s) but not attempt 3 (at +180 s)', async () => {
    const rev = await scheduler();
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: rev, limits: LIMITS, now: new Date('2031-02-02T00:00:00Z'),
      input: { repeat: 'one_time', invocation_time: '2031-02-02T09:00:00', timezone: 'UTC', retry_policy: { maximum_retry_attempts: 185, maximum_event_age_seconds: 90 }, invocation_target: TARGET },
    });
    await setSession('closed');
    try {
      await tickAt(new Date('2031-02-02T09:00:00Z'));
      await tickAt(new Date('2031-02-02T09:01:00Z'));
      await tickAt(new Date('2031-02-02T09:10:00Z'));
      const runs = await runsOf(s.id);
      expect(runs.map((r) => [r.attempt, r.exhausted])).toEqual([[1, null], [2, 'maximum_event_age']]);
    } finally {
      await setSession('open');
      await w.db.schedule.delete({ where: { id: s.id } });
    }
  });

  it('disabling a schedule cancels its pending retry: the failed attempt is marked exhausted "cancelled"', async () => {
    const rev = await scheduler();
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: rev, limits: LIMITS, now: new Date('2031-02-03T00:00:00Z'),
      input: { repeat: 'recurring_cron', cron_expression: '0 9 * * ? *', timezone: 'UTC', retry_policy: { maximum_retry_attempts: 3, maximum_event_age_seconds: 3600 }, invocation_target: TARGET },
    });
    await setSession('closed');
    try {
      await tickAt(new Date('2031-02-03T09:00:00Z'));
      expect(await w.db.pendingAttempt.count({ where: { scheduleId: s.id } })).toBe(1);
      await updateSchedule({ db: w.db, actor: actor(), revision: rev, scheduleRef: s.id, input: { enabled: false }, limits: LIMITS, now: new Date('2031-02-03T09:00:30Z') });
      expect(await w.db.pendingAttempt.count({ where: { scheduleId: s.id } })).toBe(0);
      await tickAt(new Date('2031-02-03T09:05:00Z'));
      const runs = await runsOf(s.id);
      expect(runs.map((r) => [r.attempt, r.exhausted, iso(r.nextAttemptAt)])).toEqual([[1, 'cancelled', null]]);
    } finally {
      await setSession('open');
      await w.db.schedule.delete({ where: { id: s.id } });
    }
  });
});

describe('SPEC §12.5 pausing and after completion', () => {
  it('pause_after_failures 3 disables a failing schedule after its third failed occurrence, paused by the system with the last error', async () => {
    const rev = await scheduler();
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: rev, limits: LIMITS, now: new Date('2031-03-01T00:00:00Z'),
      input: { repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', pause_after_failures: 3, invocation_target: TARGET },
    });
    await setSession('closed');
    try {
      await tickAt(new Date('2031-03-01T00:01:00Z'));
      await tickAt(new Date('2031-03-01T00:02:00Z'));
      expect((await getSchedule({ db: w.db, actor: actor(), revision: rev, scheduleRef: s.id })).enabled).toBe(true);
      await tickAt(new Date('2031-03-01T00:03:00Z'));
      const paused = await getSchedule({ db: w.db, actor: actor(), revision: rev, scheduleRef: s.id });
      expect([paused.enabled, paused.next_fire_at, paused.paused?.by, paused.paused?.at]).toEqual([false, null, { type: 'system' }, '2031-03-01T00:03:00.000Z']);
      expect(paused.paused?.note).toContain('3 consecutive failed occurrences');
      expect(paused.paused?.note).toContain('session_not_open');
      // SPEC §15: the pause is a change (version 1 → 2; the three fires changed nothing), logged by the system.
      expect(paused.version).toBe(2);
      const { activity } = await listActivity({ db: w.db, actor: actor(), revision: rev, scheduleRef: s.id });
      expect(activity.map((a) => [a.action, a.by, a.at])).toEqual([
        ['auto_pause', { type: 'system' }, '2031-03-01T00:03:00.000Z'],
        ['create', { type: 'user', id: w.ctx.userId }, '2031-03-01T00:00:00.000Z'],
      ]);
      await tickAt(new Date('2031-03-01T00:10:00Z'));
      expect(await w.db.run.count({ where: { scheduleId: s.id } })).toBe(3);
    } finally {
      await setSession('open');
      await w.db.schedule.delete({ where: { id: s.id } });
    }
  });

  it('pause_after_failures 1 pauses after the first failed occurrence, and its note says so in the singular', async () => {
    const rev = await scheduler();
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: rev, limits: LIMITS, now: new Date('2031-03-05T00:00:00Z'),
      input: { repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', pause_after_failures: 1, invocation_target: TARGET },
    });
    await setSession('closed');
    try {
      await tickAt(new Date('2031-03-05T00:01:00Z'));
      const paused = await getSchedule({ db: w.db, actor: actor(), revision: rev, scheduleRef: s.id });
      expect(paused.enabled).toBe(false);
      expect(paused.paused?.note).toMatch(/^paused after 1 failed occurrence \(pause_after_failures = 1\); the last failed with /);
    } finally {
      await setSession('open');
      await w.db.schedule.delete({ where: { id: s.id } });
    }
  });

  it('a success resets the count: fail, fail, succeed, fail, fail keeps a pause_after_failures 3 schedule enabled', async () => {
    const rev = await scheduler();
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: rev, limits: LIMITS, now: new Date('2031-03-02T00:00:00Z'),
      input: { repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', pause_after_failures: 3, invocation_target: TARGET },
    });
    try {
      for (const [minute, open] of [[1, false], [2, false], [3, true], [4, false], [5, false]] as const) {
        if (open) await setSession('open');
        else await setSession('closed');
        await tickAt(new Date(`2031-03-02T00:0${minute}:00Z`));
      }
      expect((await getSchedule({ db: w.db, actor: actor(), revision: rev, scheduleRef: s.id })).enabled).toBe(true);
    } finally {
      await setSession('open');
      await w.db.schedule.delete({ where: { id: s.id } });
    }
  });

  it('pause all then resume all leaves a schedule an operator had disabled before, disabled', async () => {
    const rev = await scheduler();
    const now = new Date('2031-04-01T00:00:00Z');
    const mk = (alias: string, enabled: boolean) =>
      createSchedule({ db: w.db, actor: actor(), revision: rev, limits: LIMITS, now, input: { alias, repeat: 'recurring_cron', cron_expression: '0 9 * * ? *', timezone: 'UTC', enabled, invocation_target: TARGET } });
    const on = await mk('bulk-on-schedule', true);
    const off = await mk('bulk-off-schedule', false);
    try {
      await updateSchedule({ db: w.db, actor: actor(), revision: rev, scheduleRef: off.id, input: { paused: { note: 'waiting for the vendor' } }, limits: LIMITS, now });
      await setAllEnabled({ db: w.db, actor: actor(), revision: rev, enabled: false, now: new Date('2031-04-01T00:01:00Z') });
      const pausedOn = await getSchedule({ db: w.db, actor: actor(), revision: rev, scheduleRef: on.id });
      expect(pausedOn.paused).toEqual({ by: { type: 'user', id: w.ctx.userId }, at: '2031-04-01T00:01:00.000Z', bulk: true });
      await setAllEnabled({ db: w.db, actor: actor(), revision: rev, enabled: true, now: new Date('2031-04-01T00:02:00Z') });
      const a = await getSchedule({ db: w.db, actor: actor(), revision: rev, scheduleRef: on.id });
      const b = await getSchedule({ db: w.db, actor: actor(), revision: rev, scheduleRef: off.id });
      expect([a.enabled, a.paused, a.next_fire_at]).toEqual([true, undefined, '2031-04-01T09:00:00.000Z']);
      expect([b.enabled, b.paused?.note, b.paused?.bulk]).toEqual([false, 'waiting for the vendor', undefined]);
    } finally {
      await w.db.schedule.deleteMany({ where: { id: { in: [on.id, off.id] } } });
    }
  });

  it('action_after_completion "delete": a one-time schedule is deleted once its occurrence has succeeded', async () => {
    const rev = await scheduler();
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: rev, limits: LIMITS, now: new Date('2031-05-01T00:00:00Z'),
      input: { repeat: 'one_time', invocation_time: '2031-05-01T09:00:00', timezone: 'UTC', action_after_completion: 'delete', invocation_target: TARGET },
    });
    await tickAt(new Date('2031-05-01T09:00:01Z'));
    expect(await w.db.schedule.findUnique({ where: { id: s.id } })).toBeNull();
    expect(await w.db.execution.count({ where: { scheduleId: s.id } })).toBe(1);
    // SPEC §15: the scheduler's activity says the system deleted it.
    const { activity } = await listActivity({ db: w.db, actor: actor(), revision: rev, pageSize: 100 });
    expect(activity.filter((a) => a.schedule_id === s.id).map((a) => [a.action, a.by, a.at])).toEqual([
      ['delete', { type: 'system' }, '2031-05-01T09:00:01.000Z'],
      ['create', { type: 'user', id: w.ctx.userId }, '2031-05-01T00:00:00.000Z'],
    ]);
  });

  it('action_after_completion "delete" with retries: deleted only once exhausted, its dead letter stays', async () => {
    const rev = await scheduler();
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: rev, limits: LIMITS, now: new Date('2031-05-02T00:00:00Z'),
      input: { repeat: 'one_time', invocation_time: '2031-05-02T09:00:00', timezone: 'UTC', action_after_completion: 'delete', retry_policy: { maximum_retry_attempts: 1, maximum_event_age_seconds: 3600 }, invocation_target: TARGET },
    });
    await setSession('closed');
    try {
      await tickAt(new Date('2031-05-02T09:00:00Z'));
      const waiting = await w.db.schedule.findUniqueOrThrow({ where: { id: s.id } });
      expect([waiting.state, waiting.nextFireAt]).toEqual(['active', null]);
      await tickAt(new Date('2031-05-02T09:01:00Z'));
      expect(await w.db.schedule.findUnique({ where: { id: s.id } })).toBeNull();
      expect(await w.db.deadLetter.count({ where: { scheduleId: s.id } })).toBe(1);
    } finally {
      await setSession('open');
    }
  });
});

describe('SPEC §12.4 flexible time window', () => {
  it('each occurrence fires at its deterministic offset inside the window; scheduled_for stays the nominal instant', async () => {
    const rev = await scheduler();
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: rev, limits: LIMITS, now: new Date('2031-06-01T00:00:00Z'),
      input: { repeat: 'recurring_cron', cron_expression: '0 9 * * ? *', timezone: 'UTC', flexible_time_window: { mode: 'flexible', maximum_window_minutes: 10 }, invocation_target: TARGET },
    });
    expect(s.flexible_time_window).toEqual({ mode: 'flexible', maximum_window_minutes: 10 });
    const fireAt = new Date(s.next_fire_at!);
    const offset = fireAt.getTime() - Date.parse('2031-06-01T09:00:00Z');
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThan(600_000);
    // Not yet due at the nominal instant (unless the offset is 0).
    if (offset > 0) {
      await tickAt(new Date('2031-06-01T09:00:00Z'));
      expect(await w.db.run.count({ where: { scheduleId: s.id } })).toBe(0);
    }
    await tickAt(fireAt);
    const [run] = await runsOf(s.id);
    expect([iso(run.scheduledFor), iso(run.createdAt)]).toEqual(['2031-06-01T09:00:00.000Z', iso(fireAt)]);
    await w.db.schedule.delete({ where: { id: s.id } });
  });
});

describe('SPEC §8 edits keep occurrences', () => {
  it('editing only the description of a schedule whose occurrence is due keeps that occurrence: it fires', async () => {
    const rev = await scheduler();
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: rev, limits: LIMITS, now: new Date('2031-07-01T08:00:00Z'),
      input: { repeat: 'recurring_cron', cron_expression: '0 9 * * ? *', timezone: 'UTC', invocation_target: TARGET },
    });
    // 09:00 is due at 09:00:30, and no worker has claimed it yet.
    const edited = await updateSchedule({ db: w.db, actor: actor(), revision: rev, scheduleRef: s.id, input: { description: 'renamed' }, limits: LIMITS, now: new Date('2031-07-01T09:00:30Z') });
    expect(edited.next_fire_at).toBe('2031-07-01T09:00:00.000Z');
    await tickAt(new Date('2031-07-01T09:00:40Z'));
    const runs = await runsOf(s.id);
    expect(runs.map((r) => [iso(r.scheduledFor), r.description])).toEqual([['2031-07-01T09:00:00.000Z', 'renamed']]);
    await w.db.schedule.delete({ where: { id: s.id } });
  });

  it('changing the cron expression while an occurrence is due counts the dropped occurrence in skipped_occurrences', async () => {
    const rev = await scheduler();
    const s = await createSchedule({
      db: w.db, actor: actor(), revision: rev, limits: LIMITS, now: new Date('2031-07-02T08:00:00Z'),
      input: { repeat: 'recurring_cron', cron_expression: '0 9 * * ? *', timezone: 'UTC', invocation_target: TARGET },
    });
    const edited = await updateSchedule({ db: w.db, actor: actor(), revision: rev, scheduleRef: s.id, input: { cron_expression: '30 9 * * ? *' }, limits: LIMITS, now: new Date('2031-07-02T09:00:30Z') });
    expect([edited.next_fire_at, edited.skipped_occurrences]).toEqual(['2031-07-02T09:30:00.000Z', 1]);
    await w.db.schedule.delete({ where: { id: s.id } });
  });
});
