/**
 * SPEC §12.2 "each attempt exactly once" through crashes, on the dialect of TEST_DATABASE: 40
 * minutely schedules whose target session is closed, so every attempt fails and is retried (3
 * retries: attempts 1–4, 60 s, 120 s and 240 s apart), while worker processes are killed with SIGKILL
 * at random moments (at least 10 times) and restarted. The workers' clock runs 60 times faster than
 * real time (`WORKER_TEST_CLOCK`), so the back-off takes seconds. Afterwards every occurrence has
 * exactly attempts 1, 2, 3 and 4, each retry due the back-off after the attempt before it, the last
 * exhausted with one dead letter, and nothing left pending: no attempt lost, none repeated.
 */
import { expect, it } from 'vitest';
import { workerClock } from '../../lib/config';
import { createSchedule } from '../../lib/schedules';
import { TEST_LIMITS } from '../../lib/testing/limits';
import { exited, sleep, spawnWorker, useTestDatabase } from '../../lib/testing/worker-process';
import { seed } from '../../prisma/seed';

const TARGET = {
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
};
const SCHEDULES = 40;
const RATE = 60;
const MINUTE = 60_000;

const t = useTestDatabase();
const rand = (lo: number, hi: number) => lo + Math.random() * (hi - lo);

it('§12.2 SIGKILL while retries are pending: every occurrence has attempts 1–4 exactly once, the last exhausted into one dead letter', async () => {
  const epochMs = Date.now();
  const testClock = { epochMs, rate: RATE };
  const clock = workerClock(testClock);
  // An hour of catch-up (a minute of real time): a restart never skips an occurrence here.
  const startWorker = () =>
    spawnWorker(t.url, { WORKER_POLL_INTERVAL_MS: '100', WORKER_BATCH_SIZE: '5', LOG_LEVEL: 'error', WORKER_TEST_CLOCK: `${epochMs}:${RATE}`, SCHEDULER_CATCHUP_WINDOW_SECONDS: '3600' });
  const db = t.db;

  const ctx = await seed(db, undefined);
  const rev = await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } });
  const actor = { type: 'org' as const, id: ctx.orgId, roleCap: null };
  // Three occurrences each: the next three minute marks of the accelerated clock.
  const now = clock();
  const first = Math.ceil((now.getTime() + 1) / MINUTE) * MINUTE;
  const endDate = new Date(first + 2 * MINUTE + 30_000);
  const ids: string[] = [];
  for (let i = 0; i < SCHEDULES; i++) {
    const s = await createSchedule({
      db, actor, revision: { id: rev.id, blobId: rev.blobId }, limits: TEST_LIMITS, now,
      input: {
        repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', end_date: endDate.toISOString(),
        retry_policy: { maximum_retry_attempts: 3, maximum_event_age_seconds: 3600 }, invocation_target: TARGET,
      },
    });
    ids.push(s.id);
  }
  // Closed after the saves (a save checks the target): every fire now fails with session_not_open.
  await db.$transaction((tx) => tx.workflowSession.updateMany({ where: { revisionId: ctx.proceduresRevisionId, alias: 'nightly-batch' }, data: { state: 'closed' } }));
  // The last occurrence's last attempt is due 60 + 120 + 240 s after it (plus lateness).
  const lastDue = first + 2 * MINUTE + 7 * MINUTE;

  /** Until the worker is up (its first heartbeat after `since`), at most 20 s. */
  const up = async (since: Date) => {
    for (const until = Date.now() + 20_000; Date.now() < until; await sleep(50)) {
      if ((await db.workerHeartbeat.count({ where: { startedAt: { gte: since } } })) > 0) return;
    }
  };
  let kills = 0;
  while (clock().getTime() < lastDue || kills < 10) {
    const started = clock();
    const w = startWorker();
    await up(started);
    // Killed anywhere in its first few ticks: mid-batch, between batches, or while idle.
    await sleep(rand(50, 1200));
    w.kill('SIGKILL');
    await exited(w);
    kills++;
  }
  const last = startWorker();
  const until = Date.now() + 60_000;
  const open = () => db.schedule.count({ where: { id: { in: ids }, state: 'active' } });
  while (Date.now() < until && ((await open()) > 0 || (await db.pendingAttempt.count({ where: { scheduleId: { in: ids } } })) > 0)) await sleep(250);
  last.kill('SIGKILL');
  await exited(last);
  expect(kills).toBeGreaterThanOrEqual(10);

  const runs = await db.run.findMany({ where: { scheduleId: { in: ids } }, orderBy: [{ scheduledFor: 'asc' }, { attempt: 'asc' }] });
  const byOccurrence = new Map<string, typeof runs>();
  for (const r of runs) {
    const key = `${r.scheduleId} ${r.scheduledFor.toISOString()}`;
    byOccurrence.set(key, [...(byOccurrence.get(key) ?? []), r]);
  }
  expect(byOccurrence.size).toBe(SCHEDULES * 3);
  const problems: string[] = [];
  for (const [key, attempts] of byOccurrence) {
    const numbers = attempts.map((a) => a.attempt);
    if (JSON.stringify(numbers) !== '[1,2,3,4]') problems.push(`${key}: attempts ${numbers.join(',')}`);
    attempts.forEach((a, i) => {
      if (a.status !== 'invocation_error') problems.push(`${key}: attempt ${a.attempt} is ${a.status}`);
      if (i < 3) {
        // Each retry starts no earlier than the back-off after the attempt before it failed.
        const delay = 60_000 * 2 ** i;
        if (a.nextAttemptAt?.getTime() !== a.createdAt.getTime() + delay) problems.push(`${key}: attempt ${a.attempt} next_attempt_at ${a.nextAttemptAt?.toISOString()}`);
        if (attempts[i + 1] && attempts[i + 1].createdAt.getTime() < a.createdAt.getTime() + delay) problems.push(`${key}: attempt ${a.attempt + 1} started early`);
        if (a.exhausted !== null) problems.push(`${key}: attempt ${a.attempt} exhausted ${a.exhausted}`);
      } else if (a.exhausted !== 'maximum_retry_attempts' || a.nextAttemptAt !== null) {
        problems.push(`${key}: last attempt exhausted ${a.exhausted}, next ${a.nextAttemptAt?.toISOString()}`);
      }
    });
  }
  expect(problems).toEqual([]);
  expect(await db.pendingAttempt.count({ where: { scheduleId: { in: ids } } })).toBe(0);
  const letters = await db.deadLetter.findMany({ where: { scheduleId: { in: ids } } });
  expect(letters.length).toBe(SCHEDULES * 3);
  expect(new Set(letters.map((l) => `${l.scheduleId} ${l.scheduledFor.toISOString()}`)).size).toBe(SCHEDULES * 3);
  expect(letters.every((l) => l.attempts === 4 && l.exhausted === 'maximum_retry_attempts')).toBe(true);
  expect(await db.schedule.count({ where: { id: { in: ids }, state: 'completed' } })).toBe(SCHEDULES);
}, 300_000);
