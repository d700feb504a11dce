/**
 * GET /metrics (lib/api/metrics.ts): Prometheus text computed from the database, so it covers every
 * worker. Pins the exact figures for a small fixture on the TEST_DATABASE dialect.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertRuns, type Db } from '../../db';
import { insertSchedules } from '../../testing/insert-schedules';
import { createTestDb } from '../../testing/test-db';
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

  const { body, contentType } = await metricsText(now, db);
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
