/**
 * `list_executions` (lib/schedules/list-runs.ts) over runs(schedule_id, status, created_at, id)
 * (migration 0012): with a status filter it pages through the schedule's runs of that status newest
 * first, ties on `created_at` broken by `id`, each page one range of the index, cursor pages
 * included; without one, the per-status ranges merge into the same order over every run (ties
 * across statuses included). TEST_DATABASE dialect.
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { dialectOfDb, insertRuns, sqlInstant } from '../../db';
import { insertSchedules } from '../../testing/insert-schedules';
import { SEEDED_TARGET, useSeededScheduler } from '../../testing/seeded-scheduler';
import { listRuns } from '../read/list-runs';
import { lastRunStatuses } from '../read/target-options';

const w = useSeededScheduler();

it('pages through one status, or every run, newest first; a filtered page is one range of the status index', async () => {
  const db = w.db;
  const rev = await w.scheduler();
  const [scheduleId, other] = await insertSchedules(db, [0, 1].map(() => ({ revisionId: rev.id, createdBy: { type: 'org' as const, id: w.ctx.orgId }, invocationTarget: SEEDED_TARGET, nextFireAt: null })));
  const base = Date.UTC(2031, 4, 1);
  // 300 runs, every third one failed; pairs share a created_at (the id breaks the tie). The other
  // schedule's runs must never show.
  const runs = [scheduleId, other].flatMap((sid) =>
    Array.from({ length: 300 }, (_, i) => ({
      id: randomUUID(), scheduleId: sid, scheduledFor: new Date(base + i * 60_000), trigger: 'schedule', status: i % 3 === 0 ? 'invocation_error' : 'success',
      result: {}, executionId: null, createdAt: new Date(base + Math.floor(i / 2) * 60_000),
    })),
  );
  // The newest instant is shared across statuses: a failed run with the greatest id is the newest run.
  const top = runs[299];
  runs.push({ ...top, id: 'ffffffff-ffff-4fff-8fff-ffffffffffff', scheduledFor: new Date(base + 300 * 60_000), status: 'invocation_error' });
  await db.$transaction((tx) => insertRuns(tx, runs));
  const newestFirst = (status?: string) =>
    runs
      .filter((r) => r.scheduleId === scheduleId && (!status || r.status === status))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .map((r) => r.id);
  const pageThrough = async (status?: 'invocation_error' | 'success') => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof listRuns>> = await listRuns({ db, actor: w.actor(), revision: rev, scheduleId, status, startExecutionId: cursor });
      expect(page.executions.length).toBeLessThanOrEqual(10);
      if (status) expect(page.executions.every((e) => e.status === status)).toBe(true);
      seen.push(...page.executions.map((e) => e.id));
      cursor = page.last_execution_id;
    } while (cursor);
    return seen;
  };
  const expected = newestFirst('invocation_error');
  expect(await pageThrough('invocation_error')).toEqual(expected);
  expect(await pageThrough('success')).toEqual(newestFirst('success'));
  expect(await pageThrough()).toEqual(newestFirst());
  // The grid's last run reads the same index, one range per status: the newest run, a tie on
  // created_at broken by the greater id.
  const last = runs.find((r) => r.id === newestFirst()[0])!;
  expect(last).toMatchObject({ id: 'ffffffff-ffff-4fff-8fff-ffffffffffff', status: 'invocation_error' });
  expect(await lastRunStatuses({ db, actor: w.actor(), revision: rev, scheduleIds: [scheduleId, other] })).toEqual({
    [scheduleId]: { status: last.status, trigger: 'schedule', created_at: last.createdAt.toISOString(), outcome: null },
    [other]: expect.objectContaining({ created_at: last.createdAt.toISOString() }),
  });

  // The page query's plan (a cursor page: the cursor condition as list-runs writes it).
  const dialect = dialectOfDb(db);
  const c = runs.find((r) => r.id === expected[40])!;
  const at = sqlInstant(dialect, c.createdAt);
  if (dialect === 'sqlite') {
    const plan = await db.$queryRawUnsafe<{ detail: string }[]>(
      `EXPLAIN QUERY PLAN SELECT * FROM runs WHERE schedule_id = ? AND status = ? AND created_at <= ? AND (created_at < ? OR (created_at = ? AND id < ?))
       ORDER BY created_at DESC, id DESC LIMIT 11`,
      scheduleId, 'invocation_error', at, at, at, c.id,
    );
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/^SEARCH runs USING INDEX runs_schedule_id_status_created_at_id_idx \(schedule_id=\? AND status=\? AND created_at<\?\)$/);
  } else {
    const plan = await db.$transaction(async (tx) => {
      // 600 rows: on a table this small the planner may prefer a sort; the point is which index serves the range.
      await tx.$executeRawUnsafe('SET LOCAL enable_sort = off');
      await tx.$executeRawUnsafe('ANALYZE runs');
      return tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
        `EXPLAIN SELECT * FROM runs WHERE schedule_id = $1 AND status = $2 AND created_at <= $3::timestamp(3) AND (created_at < $3::timestamp(3) OR (created_at = $3::timestamp(3) AND id < $4))
         ORDER BY created_at DESC, id DESC LIMIT 11`,
        scheduleId, 'invocation_error', at, c.id,
      );
    });
    const text = plan.map((p) => p['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Index Scan Backward using runs_schedule_id_status_created_at_id_idx/);
    expect(text).toMatch(/Index Cond: \(\(schedule_id = .*\) AND \(status = .*\) AND \(created_at <= /);
  }
});
