/**
 * SPEC §8 "exactly once" through crashes, on the dialect of TEST_DATABASE: 200 schedules fire every
 * minute while worker processes are killed with SIGKILL at random moments (at least 10 times, several
 * of them in the burst right after a minute boundary, when batches are mid-transaction) and
 * restarted. Afterwards every occurrence from each schedule's creation up to the last minute
 * boundary covered has exactly one run record and one workflow execution: no duplicate, no loss.
 * Then SIGTERM stops the last worker gracefully (exit 0). Takes about 2–3 minutes.
 */
import type { ChildProcess } from 'node:child_process';
import { expect, it } from 'vitest';
import { nextOccurrence } from '../../lib/cron';
import { createSchedule } from '../../lib/schedules';
import { exited, sleep, spawnWorker, useTestDatabase } from '../../lib/testing/worker-process';
import { seed } from '../../prisma/seed';
import { TEST_LIMITS } from '../../lib/testing/limits';

const TARGET = {
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
};
const LIMITS = { ...TEST_LIMITS, executionsPerSessionPerMinute: 100_000 };
const SCHEDULES = 200;
const EVERY_MINUTE = '* * * * ? *';

const t = useTestDatabase();

function startWorker(): ChildProcess {
  // `node --import tsx` is one process, so SIGKILL/SIGTERM reach the worker itself. A small batch
  // makes a burst of 200 fires span many transactions, so kills land between and inside them.
  return spawnWorker(t.url, { WORKER_POLL_INTERVAL_MS: '200', WORKER_BATCH_SIZE: '5', LOG_LEVEL: 'error' });
}
const rand = (lo: number, hi: number) => lo + Math.random() * (hi - lo);
const MINUTE = 60_000;

it('§8 200 minutely schedules, SIGKILL at random moments ≥ 10 times: every occurrence has exactly one run and one execution', async () => {
  const db = t.db;
  const ctx = await seed(db, undefined);
  const rev = await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } });
  const actor = { type: 'org' as const, id: ctx.orgId, roleCap: null };
  const created = new Map<string, Date>();
  for (let i = 0; i < SCHEDULES; i++) {
    const now = new Date();
    const s = await createSchedule({
      db, actor, revision: { id: rev.id, blobId: rev.blobId }, limits: LIMITS, now,
      input: { repeat: 'recurring_cron', cron_expression: EVERY_MINUTE, timezone: 'UTC', description: `chaos ${i}`, invocation_target: TARGET },
    });
    created.set(s.id, now);
  }
  const ids = [...created.keys()];
  const lastCreated = Math.max(...[...created.values()].map((d) => d.getTime()));
  // The window: every occurrence after each schedule's creation up to the second minute boundary
  // after the last creation (so each schedule has at least two occurrences in it).
  const firstBoundary = Math.ceil((lastCreated + 1) / MINUTE) * MINUTE;
  const lastBoundary = firstBoundary + MINUTE;

  let kills = 0;
  let burstKills = 0;
  while (Date.now() < lastBoundary + 3_000 || kills < 10) {
    const w = startWorker();
    const nextBoundary = Math.ceil(Date.now() / MINUTE) * MINUTE;
    const untilBoundary = nextBoundary - Date.now();
    if (untilBoundary < 4_000 && nextBoundary <= lastBoundary) {
      // Into the burst: the worker was started before the boundary and dies while firing it.
      await sleep(untilBoundary + rand(20, 500));
      burstKills++;
    } else {
      await sleep(Math.min(rand(700, 2500), Math.max(300, untilBoundary - 3_500)));
    }
    w.kill('SIGKILL');
    await exited(w);
    kills++;
  }

  // A last worker finishes whatever is left, then stops gracefully.
  const lastStarted = new Date();
  const last = startWorker();
  const until = Date.now() + 90_000;
  // Wait until it is up (its first heartbeat), so SIGTERM meets its handler, not Node's default.
  while (Date.now() < until && (await db.workerHeartbeat.count({ where: { lastSeenAt: { gte: lastStarted } } })) === 0) await sleep(200);
  while (Date.now() < until && (await db.schedule.count({ where: { id: { in: ids }, nextFireAt: { lte: new Date(lastBoundary) } } })) > 0) await sleep(300);
  last.kill('SIGTERM');
  expect(await exited(last)).toBe(0);

  expect(kills).toBeGreaterThanOrEqual(10);
  expect(burstKills).toBeGreaterThanOrEqual(2);

  // Expected occurrences, enumerated with the cron engine.
  const expected = new Map<string, string[]>();
  for (const [id, at] of created) {
    const list: string[] = [];
    for (let t = nextOccurrence(EVERY_MINUTE, 'UTC', at); t && t.getTime() <= lastBoundary; t = nextOccurrence(EVERY_MINUTE, 'UTC', t)) list.push(t.toISOString());
    expected.set(id, list);
  }
  const runs = await db.run.findMany({ where: { scheduleId: { in: ids }, trigger: 'schedule' }, select: { id: true, scheduleId: true, scheduledFor: true, status: true } });
  const inWindow = runs.filter((r) => r.scheduledFor.getTime() <= lastBoundary);
  const actual = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const r of inWindow) actual.get(r.scheduleId)!.push(r.scheduledFor.toISOString());
  const mismatches = ids.filter((id) => JSON.stringify(actual.get(id)!.sort()) !== JSON.stringify(expected.get(id)));
  expect(mismatches.map((id) => ({ id, expected: expected.get(id), actual: actual.get(id) }))).toEqual([]);
  const expectedTotal = [...expected.values()].reduce((n, l) => n + l.length, 0);
  expect(inWindow.length).toBe(expectedTotal);
  expect(expectedTotal).toBeGreaterThanOrEqual(2 * SCHEDULES);
  expect(inWindow.every((r) => r.status === 'success')).toBe(true);

  // One execution per run, and none without a run (no fire committed halfway).
  const executions = await db.execution.findMany({ where: { scheduleId: { in: ids } }, select: { runId: true } });
  expect(executions.length).toBe(runs.length);
  expect(new Set(executions.map((e) => e.runId))).toEqual(new Set(runs.map((r) => r.id)));
}, 330_000);
