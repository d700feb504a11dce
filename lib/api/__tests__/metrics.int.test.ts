/**
 * GET /metrics (lib/api/metrics.ts): Prometheus text computed from the database, so it covers every
 * worker. Pins the exact figures for a small fixture on the TEST_DATABASE dialect.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertRuns, type Db } from '../../db';
import { insertSchedules } from '../../testing/insert-schedules';
import { createTestDb } from '../../testing/test-db';
import { setMetricsPerSchedule } from '../../schedules';
import { TEST_LIMITS } from '../../testing/limits';
import { seed } from '../../../prisma/seed';
import { metricsText } from '../metrics';

let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
});
afterAll(async () => cleanup());

it('reports runs by status, recent fires, the lateness histogram, the due backlog, skipped occurrences and workers', async () => {
  const ctx = await seed(db, undefined);
  const now = new Date('2030-10-01T12:00:00Z');
  const fixture = (nextFireAt: Date) => ({ revisionId: ctx.schedulerRevisionId, createdBy: { type: 'org' as const, id: ctx.orgId }, invocationTarget: {}, nextFireAt });
  const [a, b] = await insertSchedules(db, [
    fixture(new Date('2030-10-01T11:59:00Z')), // due for 60 s
    fixture(new Date('2030-10-01T11:59:30Z')),
    fixture(new Date('2030-10-01T12:00:00Z')), // due exactly now
    fixture(new Date('2030-10-01T12:01:00Z')), // not due
  ]);
  await db.schedule.update({ where: { id: a }, data: { skippedOccurrences: 4 } });
  await db.schedule.update({ where: { id: b }, data: { skippedOccurrences: 3 } });
  const run = (scheduleId: string, scheduledFor: string, lateMs: number, status: string) => ({
    id: randomUUID(), scheduleId, scheduledFor: new Date(scheduledFor), trigger: 'schedule', status, result: {}, executionId: null,
    createdAt: new Date(new Date(scheduledFor).getTime() + lateMs),
  });
  await db.$transaction((tx) =>
    insertRuns(tx, [
      run(a, '2030-10-01T11:58:00Z', 200, 'success'), // 0.2 s late, in the window
      run(a, '2030-10-01T11:57:00Z', 3000, 'success'), // 3 s late, in the window
      run(b, '2030-10-01T11:50:00Z', 100, 'invocation_error'), // recorded 10 min ago: outside the window
    ]),
  );
  await db.workerHeartbeat.create({ data: { id: 'w1', startedAt: now, lastSeenAt: new Date(now.getTime() - 4000) } });

  const { body, contentType } = await metricsText(now, db, TEST_LIMITS);
  expect(contentType).toMatch(/^text\/plain/);
  const lines = body.split('\n').filter((l) => l && !l.startsWith('#'));
  const expected = [
    'scheduler_runs{status="success"} 2',
    'scheduler_runs{status="invocation_error"} 1',
    'scheduler_fires_recent{status="success"} 2',
    'scheduler_fires_recent{status="invocation_error"} 0',
    'scheduler_fire_lateness_seconds_bucket{le="0.1"} 0',
    'scheduler_fire_lateness_seconds_bucket{le="0.25"} 1',
    'scheduler_fire_lateness_seconds_bucket{le="2.5"} 1',
    'scheduler_fire_lateness_seconds_bucket{le="5"} 2',
    'scheduler_fire_lateness_seconds_bucket{le="+Inf"} 2',
    'scheduler_fire_lateness_seconds_count 2',
    'scheduler_due_backlog 3',
    'scheduler_oldest_due_age_seconds 60',
    'scheduler_skipped_occurrences_total 7',
    'scheduler_workers_live 1',
    'scheduler_worker_heartbeat_age_seconds 4',
  ];
  for (const line of expected) expect(lines).toContain(line);
  const sum = Number(lines.find((l) => l.startsWith('scheduler_fire_lateness_seconds_sum '))!.split(' ')[1]);
  expect(sum).toBeCloseTo(3.2, 3);
  expect(body).toContain('# TYPE scheduler_fire_lateness_seconds histogram');
});

it('reports run durations by scheduler, and the per-schedule series only once the scheduler opts in (SPEC §16.3)', async () => {
  const ctx = await seed(db, undefined);
  const now = new Date('2031-03-01T12:00:00Z');
  const revision = { id: ctx.schedulerRevisionId, blobId: (await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } })).blobId };
  const scheduler = `${(await db.org.findUniqueOrThrow({ where: { id: ctx.orgId } })).alias}/${(await db.blob.findUniqueOrThrow({ where: { id: revision.blobId } })).alias}`;
  const fixture = (alias: string, nextFireAt: Date | null) => ({ revisionId: ctx.schedulerRevisionId, createdBy: { type: 'org' as const, id: ctx.orgId }, invocationTarget: {}, nextFireAt, alias });
  const [backup, report] = await insertSchedules(db, [fixture('m-backup', new Date('2031-03-01T13:00:00Z')), fixture('m-report', null)]);
  await db.schedule.update({ where: { id: report }, data: { consecutiveFailures: 2 } });
  // Outcomes: two that ended in the window (4 s succeeded, 90 s failed), one before it, one still open.
  const run = (scheduleId: string, minute: number, status: string, outcome: { outcome: string; finishedAt?: Date; durationMs?: number } | null) => ({
    id: randomUUID(), scheduleId, scheduledFor: new Date(Date.UTC(2031, 2, 1, 11, minute)), trigger: 'schedule', status, result: {}, executionId: null,
    createdAt: new Date(Date.UTC(2031, 2, 1, 11, minute, 1)), outcome,
  });
  const runs = [
    run(backup, 10, 'success', { outcome: 'succeeded', finishedAt: new Date('2031-03-01T11:10:30Z'), durationMs: 29_000 }), // before the window
    run(backup, 57, 'success', { outcome: 'succeeded', finishedAt: new Date('2031-03-01T11:58:05Z'), durationMs: 4_000 }),
    run(report, 56, 'success', { outcome: 'failed', finishedAt: new Date('2031-03-01T11:58:31Z'), durationMs: 90_000 }),
    run(report, 59, 'success', { outcome: 'running' }),
    run(report, 40, 'invocation_error', null),
  ];
  await db.$transaction((tx) => insertRuns(tx, runs.map(({ outcome: _, ...r }) => r)));
  for (const r of runs) {
    if (r.outcome) await db.run.update({ where: { id: r.id }, data: { outcome: r.outcome.outcome, finishedAt: r.outcome.finishedAt ?? null, durationMs: r.outcome.durationMs ?? null } });
  }
  const scrape = async () => (await metricsText(now, db, TEST_LIMITS)).body.split('\n').filter((l) => l && !l.startsWith('#'));

  let lines = await scrape();
  const label = `scheduler="${scheduler}"`;
  for (const line of [
    `scheduler_run_duration_seconds_bucket{${label},le="1"} 0`,
    `scheduler_run_duration_seconds_bucket{${label},le="5"} 1`,
    `scheduler_run_duration_seconds_bucket{${label},le="60"} 1`,
    `scheduler_run_duration_seconds_bucket{${label},le="300"} 2`,
    `scheduler_run_duration_seconds_bucket{${label},le="+Inf"} 2`,
    `scheduler_run_duration_seconds_sum{${label}} 94`,
    `scheduler_run_duration_seconds_count{${label}} 2`,
  ]) expect(lines).toContain(line);
  // Not opted in: no series names a schedule.
  expect(lines.filter((l) => l.startsWith('scheduler_schedule_'))).toEqual([]);

  expect(await setMetricsPerSchedule({ db, actor: { type: 'user', id: ctx.userId, roleCap: null }, revision, enabled: true, now })).toEqual({ metrics_per_schedule: true });
  expect(await db.activityEntry.count({ where: { revisionId: revision.id, action: 'metrics_per_schedule' } })).toBe(1);
  lines = await scrape();
  const series = (schedule: string) => `{${label},schedule="${schedule}"}`;
  expect(lines.filter((l) => l.startsWith('scheduler_schedule_') && /schedule="m-/.test(l)).sort()).toEqual([
    `scheduler_schedule_consecutive_failures${series('m-backup')} 0`,
    `scheduler_schedule_consecutive_failures${series('m-report')} 2`,
    // The last success is the latest succeeded outcome's end; m-report has none (failed, running, not delivered).
    `scheduler_schedule_last_success_timestamp_seconds${series('m-backup')} ${Date.parse('2031-03-01T11:58:05Z') / 1000}`,
    `scheduler_schedule_next_fire_timestamp_seconds${series('m-backup')} ${Date.parse('2031-03-01T13:00:00Z') / 1000}`,
  ].sort());

  // Bounded by the schedule limit: the oldest `limit` schedules of the scheduler (the seed's own, here).
  lines = (await metricsText(now, db, { ...TEST_LIMITS, schedulesPerRevision: 1 })).body.split('\n').filter((l) => l.startsWith('scheduler_schedule_consecutive_failures'));
  expect(lines).toHaveLength(1);
});
