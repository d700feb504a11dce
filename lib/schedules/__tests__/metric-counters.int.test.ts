/**
 * GET /metrics' whole-table figures come from `metric_counters`, kept by database triggers
 * (migration 0012_metric_counters). They must always equal what a COUNT(*) over the tables says:
 * after fires that succeed, fail, retry, exhaust into dead letters, skip occurrences beyond the
 * catch-up window, pause a schedule automatically and complete one; after a batch that rolls back;
 * after manual runs, bulk disables, a dismissed dead letter, deletes that cascade, and retention
 * sweeps. Also: the migration starts the counters from the rows already there, and (PostgreSQL) two
 * open transactions writing the same counter do not wait for each other. TEST_DATABASE dialect.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDb, dialectOfDb, insertRuns, type Db } from '../../db';
import { databaseBefore } from '../../testing/database-before';
import { insertSchedules } from '../../testing/insert-schedules';
import { TEST_LIMITS } from '../../testing/limits';
import { SEEDED_TARGET, useSeededScheduler } from '../../testing/seeded-scheduler';
import { testDialect } from '../../testing/test-db';
import { seed } from '../../../prisma/seed';
import {
  collectFireMetrics,
  createSchedule,
  deleteSchedule,
  dismissDeadLetter,
  fireDue,
  runSchedule,
  setAllEnabled,
  RetentionSweep,
  updateSchedule,
} from '..';

/** The figures as whole-table counts say (what collectFireMetrics computed before the counters). */
async function counted(db: Db) {
  const [runs, schedules, skipped, autoPaused, pending, deadLetters] = await Promise.all([
    db.run.groupBy({ by: ['status'], _count: { _all: true } }),
    db.schedule.groupBy({ by: ['state', 'enabled'], _count: { _all: true } }),
    db.schedule.aggregate({ _sum: { skippedOccurrences: true } }),
    db.schedule.count({ where: { enabled: false, pausedByType: 'system' } }),
    db.pendingAttempt.count(),
    db.deadLetter.count(),
  ]);
  return {
    runsByStatus: Object.fromEntries(runs.map((r) => [r.status, r._count._all])),
    schedules: schedules
      .map((s) => ({ state: s.state, enabled: s.enabled, count: s._count._all }))
      .sort((a, b) => a.state.localeCompare(b.state) || Number(b.enabled) - Number(a.enabled)),
    skippedOccurrences: skipped._sum.skippedOccurrences ?? 0,
    autoPaused,
    retriesPending: pending,
    deadLetters,
  };
}

/** The same figures as the scrape reads them (from the counters). */
async function fromCounters(db: Db) {
  const m = await collectFireMetrics(db, new Date(), TEST_LIMITS.schedulesPerRevision);
  return { runsByStatus: m.runsByStatus, schedules: m.schedules, skippedOccurrences: m.skippedOccurrences, autoPaused: m.autoPaused, retriesPending: m.retriesPending, deadLetters: m.deadLetters };
}

/** The largest value each figure reached at a check: the scenario must have moved every one of them. */
const reached = { autoPaused: 0, retriesPending: 0, deadLetters: 0, skippedOccurrences: 0, completed: 0, errors: 0 };

async function expectExact(db: Db, what: string) {
  const truth = await counted(db);
  expect(await fromCounters(db), what).toEqual(truth);
  reached.autoPaused = Math.max(reached.autoPaused, truth.autoPaused);
  reached.retriesPending = Math.max(reached.retriesPending, truth.retriesPending);
  reached.deadLetters = Math.max(reached.deadLetters, truth.deadLetters);
  reached.skippedOccurrences = Math.max(reached.skippedOccurrences, truth.skippedOccurrences);
  reached.completed = Math.max(reached.completed, truth.schedules.find((g) => g.state === 'completed')?.count ?? 0);
  reached.errors = Math.max(reached.errors, truth.runsByStatus.invocation_error ?? 0);
  return truth;
}

describe('metric counters', () => {
  const w = useSeededScheduler();

  it('equal COUNT(*) after fires, retries, dead letters, skips, pauses, rollbacks, deletes and sweeps', async () => {
    const db = w.db;
    const rev = await w.scheduler();
    const actor = w.actor();
    await expectExact(db, 'after the seed');

    const t0 = new Date('2031-03-01T09:00:00Z');
    const make = (alias: string, extra: Record<string, unknown>) =>
      createSchedule({ db, actor, revision: rev, limits: TEST_LIMITS, now: t0, input: { alias, timezone: 'UTC', invocation_target: SEEDED_TARGET, ...extra } });
    const minutely = { repeat: 'recurring_cron', cron_expression: '* * * * ? *' };
    await make('steady-job', minutely);
    await make('flaky-job', { ...minutely, retry_policy: { maximum_retry_attempts: 1, maximum_event_age_seconds: 3600 }, pause_after_failures: 2 });
    const once = await make('once-job', { repeat: 'one_time', invocation_time: '2031-03-01T09:01:00' });
    const doomed = await make('doomed-job', { ...minutely, retry_policy: { maximum_retry_attempts: 3, maximum_event_age_seconds: 3600 } });
    const fixtures = await insertSchedules(
      db,
      Array.from({ length: 30 }, (_, i) => ({
        revisionId: rev.id, createdBy: { type: 'org' as const, id: w.ctx.orgId }, invocationTarget: SEEDED_TARGET,
        nextFireAt: new Date(t0.getTime() + 60_000), enabled: i % 5 !== 0,
      })),
    );
    await expectExact(db, 'after the creates');

    const setSession = (state: 'open' | 'closed') =>
      db.workflowSession.updateMany({ where: { revisionId: w.ctx.proceduresRevisionId, alias: 'nightly-batch' }, data: { state } });
    const fireMinute = async (minute: number) => {
      const now = new Date(t0.getTime() + minute * 60_000 + 500);
      while ((await fireDue({ db, now, limit: 7, limits: TEST_LIMITS })).length > 0) {
        // batches of 7: several statements per minute, each adding to the counters
      }
    };
    // Failing minutes (closed session): retries wait, exhaust into dead letters, `flaky-job` pauses
    // itself after 2 failed occurrences, `once-job` completes.
    await setSession('closed');
    for (const m of [1, 2, 3, 4, 5, 6]) {
      await fireMinute(m);
      await expectExact(db, `after failing minute ${m}`);
    }
    // Succeeding minutes; the waiting retries run too.
    await setSession('open');
    await fireMinute(7);
    await expectExact(db, 'after a succeeding minute');
    // A schedule left behind beyond the catch-up window skips occurrences.
    await db.schedule.updateMany({ where: { id: doomed.id }, data: { nextFireAt: new Date(t0.getTime() - 3 * 3_600_000) } });
    await fireMinute(8);
    await expectExact(db, 'after skipped occurrences');

    // A batch that fails as a whole rolls its counter changes back with it.
    const before = await counted(db);
    await expect(
      db.$transaction(async (tx) => {
        await insertRuns(tx, [{ id: randomUUID(), scheduleId: fixtures[1], scheduledFor: t0, trigger: 'manual', status: 'success', result: {}, executionId: null, createdAt: t0 }]);
        await tx.schedule.updateMany({ where: { id: fixtures[1] }, data: { enabled: false, pausedByType: 'system', skippedOccurrences: { increment: 5 } } });
        throw new Error('the batch fails');
      }),
    ).rejects.toThrow('the batch fails');
    expect(await expectExact(db, 'after a rolled-back batch')).toEqual(before);

    // The web app's verbs: a manual run, an update, pause all / resume all, a dismissed dead letter.
    await runSchedule({ db, actor, revision: rev, scheduleRef: 'steady-job', now: new Date(t0.getTime() + 10 * 60_000), limits: TEST_LIMITS });
    await updateSchedule({ db, actor, revision: rev, scheduleRef: 'flaky-job', input: { enabled: true }, limits: TEST_LIMITS, now: new Date(t0.getTime() + 10 * 60_000) });
    await expectExact(db, 'after a manual run and a resume');
    await setAllEnabled({ db, actor, revision: rev, enabled: false, now: new Date(t0.getTime() + 11 * 60_000) });
    await expectExact(db, 'after pause all');
    await setAllEnabled({ db, actor, revision: rev, enabled: true, now: new Date(t0.getTime() + 11 * 60_000) });
    await expectExact(db, 'after resume all');
    const letter = await db.deadLetter.findFirstOrThrow({ where: { revisionId: rev.id } });
    await dismissDeadLetter({ db, actor, revision: rev, deadLetterRef: letter.id, now: new Date(t0.getTime() + 12 * 60_000) });
    await expectExact(db, 'after a dismissed dead letter');

    // Deletes cascade to runs and pending attempts (the child tables' triggers run for them too).
    await setSession('closed');
    await fireMinute(14);
    expect(await db.pendingAttempt.count({ where: { scheduleId: doomed.id } })).toBeGreaterThan(0);
    await deleteSchedule({ db, actor, revision: rev, scheduleRef: doomed.id, now: new Date(t0.getTime() + 15 * 60_000) });
    await deleteSchedule({ db, actor, revision: rev, scheduleRef: once.id, now: new Date(t0.getTime() + 15 * 60_000) });
    await db.schedule.deleteMany({ where: { id: { in: fixtures.slice(0, 10) } } });
    await expectExact(db, 'after deletes');

    // Retention sweeps, a small batch at a time.
    const runsBefore = await db.run.count();
    const sweep = new RetentionSweep({ db, runRetentionDays: 30, executionRetentionDays: 30, maxBatch: 5 });
    sweep.start(new Date(t0.getTime() + 30 * 86_400_000 + 5 * 60_000));
    for (let done = false; !done; ) ({ done } = await sweep.step());
    await expectExact(db, 'after retention sweeps');
    const runsAfter = await db.run.count();
    expect(runsAfter).toBeGreaterThan(0);
    expect(runsAfter).toBeLessThan(runsBefore - 5);

    // Deleting the scheduler's blob cascades through revisions to schedules, runs, attempts and dead letters.
    await db.blob.delete({ where: { id: rev.blobId } });
    const gone = await expectExact(db, 'after the scheduler is deleted');
    expect(Object.values(reached).every((n) => n > 0), JSON.stringify(reached)).toBe(true);
    expect(reached.skippedOccurrences).toBeGreaterThan(100);
    expect(gone).toMatchObject({ runsByStatus: {}, schedules: [], skippedOccurrences: 0, autoPaused: 0, retriesPending: 0, deadLetters: 0 });
  });

});

describe('metric counter triggers', () => {
  const w = useSeededScheduler();

  it('every counted table keeps its triggers (a table redefinition in a later migration drops them)', async () => {
    const db = w.db;
    const sql =
      dialectOfDb(db) === 'sqlite'
        ? `SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'metric_%' ORDER BY name`
        : `SELECT DISTINCT tgname::text AS name FROM pg_trigger WHERE NOT tgisinternal AND tgname LIKE 'metric_%' ORDER BY 1`;
    const names = (await db.$queryRawUnsafe<{ name: string }[]>(sql)).map((r) => r.name);
    expect(names).toEqual(
      ['dead_letters', 'pending_attempts', 'runs', 'schedules']
        .flatMap((t) => [`metric_${t}_delete`, `metric_${t}_insert`, ...(t === 'runs' || t === 'schedules' ? [`metric_${t}_update`] : [])])
        .sort(),
    );
  });

  it.skipIf(testDialect() !== 'postgresql')('PostgreSQL: a writer never waits for another open transaction holding the counter row', async () => {
    const db = w.db;
    const [scheduleId] = await insertSchedules(db, [{ revisionId: w.ctx.schedulerRevisionId, createdBy: { type: 'org', id: w.ctx.orgId }, invocationTarget: SEEDED_TARGET, nextFireAt: null }]);
    const run = (at: number) => ({ id: randomUUID(), scheduleId, scheduledFor: new Date(at), trigger: 'schedule', status: 'success', result: {}, executionId: null, createdAt: new Date(at) });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let first!: () => void;
    const firstInserted = new Promise<void>((r) => (first = r));
    // Transaction 1 adds to `runs:success` and stays open: it holds that counter row.
    const t1 = db.$transaction(async (tx) => {
      await insertRuns(tx, [run(Date.UTC(2032, 0, 1))]);
      first();
      await held;
    }, { timeout: 30_000 });
    await firstInserted;
    // Transaction 2 commits meanwhile: it writes to another row of the key instead of waiting.
    const t2 = db.$transaction((tx) => insertRuns(tx, [run(Date.UTC(2032, 0, 2)), run(Date.UTC(2032, 0, 3))]));
    const finished = await Promise.race([t2.then(() => 'committed'), new Promise((r) => setTimeout(() => r('waiting'), 5000))]);
    release();
    await t1;
    expect(finished).toBe('committed');
    await expectExact(db, 'after two concurrent writers');
    const shards = await db.metricCounter.count({ where: { key: 'runs:success' } });
    expect(shards).toBeGreaterThanOrEqual(2);
  });

  it.skipIf(testDialect() !== 'postgresql')('PostgreSQL: writers committing at once stay exact, and a key keeps about one row per concurrent writer', async () => {
    const writers = 4;
    const groups = await Promise.all(
      Array.from({ length: writers }, () =>
        insertSchedules(w.db, Array.from({ length: 20 }, () => ({ revisionId: w.ctx.schedulerRevisionId, createdBy: { type: 'org' as const, id: w.ctx.orgId }, invocationTarget: SEEDED_TARGET, nextFireAt: null }))),
      ),
    );
    const before = await w.db.metricCounter.count({ where: { key: 'runs:success' } });
    for (let round = 0; round < 25; round++) {
      const at = new Date(Date.UTC(2033, 0, 1, 0, round));
      // The client's pool (10 connections) runs the 4 transactions on 4 connections at once.
      await Promise.all(
        groups.map((ids) =>
          w.db.$transaction((tx) =>
            insertRuns(tx, ids.map((scheduleId) => ({ id: randomUUID(), scheduleId, scheduledFor: at, trigger: 'schedule', status: 'success', result: {}, executionId: null, createdAt: at }))),
          ),
        ),
      );
    }
    await expectExact(w.db, 'after 100 concurrent batches');
    // A row is added only while every row of the key is held elsewhere: never more than the writers at once.
    expect(await w.db.metricCounter.count({ where: { key: 'runs:success' } })).toBeLessThanOrEqual(Math.max(before, 1) + writers);
  });
});

describe('migration 0012_metric_counters', () => {
  it('starts the counters from the rows already there', async () => {
    const old = await databaseBefore('0012');
    try {
      // Rows written before the counters existed.
      const db = createDb(old.url);
      try {
        const ctx = await seed(db, undefined, undefined, undefined, null);
        const ids = await insertSchedules(
          db,
          Array.from({ length: 12 }, (_, i) => ({ revisionId: ctx.schedulerRevisionId, createdBy: { type: 'org' as const, id: ctx.orgId }, invocationTarget: SEEDED_TARGET, nextFireAt: null, enabled: i % 3 !== 0 })),
        );
        await db.schedule.updateMany({ where: { id: { in: ids.slice(0, 2) } }, data: { enabled: false, pausedByType: 'system', skippedOccurrences: 4 } });
        await db.schedule.updateMany({ where: { id: ids[2] }, data: { state: 'completed' } });
        await db.$transaction((tx) =>
          insertRuns(tx, ids.flatMap((scheduleId, i) => [1, 2, 3].map((k) => ({
            id: randomUUID(), scheduleId, scheduledFor: new Date(Date.UTC(2031, 0, 1, 0, k)), trigger: 'schedule', status: (i + k) % 4 === 0 ? 'invocation_error' : 'success',
            result: {}, executionId: null, createdAt: new Date(Date.UTC(2031, 0, 1, 0, k)),
          })))),
        );
        await db.pendingAttempt.create({ data: { scheduleId: ids[3], scheduledFor: new Date(Date.UTC(2031, 0, 1)), attempt: 2, dueAt: new Date(Date.UTC(2031, 0, 1, 1)) } });
        const truth = await counted(db);
        expect(truth.runsByStatus.invocation_error).toBeGreaterThan(0);
        // Then the rest of the migrations (0012 and any later one).
        await old.migrateRest();
        expect(await fromCounters(db)).toEqual(truth);
        expect(truth).toMatchObject({ skippedOccurrences: 8, autoPaused: 2, retriesPending: 1 });
      } finally {
        await db.$disconnect();
      }
    } finally {
      await old.cleanup();
    }
  });
});
