/**
 * SPEC §16.1 `timed_out` decided exactly once through crashes, on the dialect of TEST_DATABASE: 20
 * webhook schedules with `completion` (10 s) whose receiver never checks in, two real worker
 * processes (`worker/main.ts`) deciding deadlines at once, SIGKILLed around the deadline and
 * restarted. The workers' clock runs 20 times faster than real time (`WORKER_TEST_CLOCK`), so the
 * deadline passes half a second after delivery. Afterwards every run is `timed_out` and each
 * schedule counted it once: `consecutive_failures` is 1 and `pause_after_failures: 2` paused none.
 */
import { expect, it } from 'vitest';
import { workerClock } from '../../lib/config';
import { createSchedule } from '../../lib/schedules';
import { TEST_LIMITS } from '../../lib/testing/limits';
import { startReceiver } from '../../lib/testing/receiver';
import { exited, sleep, spawnWorker, useTestDatabase } from '../../lib/testing/worker-process';
import { seed } from '../../prisma/seed';

const SCHEDULES = 20;
const RATE = 20;
const MINUTE = 60_000;

const t = useTestDatabase();

it('§16.1 SIGKILL around the completion deadline, two workers: every run timed_out, each counted once', async () => {
  const receiver = await startReceiver(() => ({ status: 200, body: 'ok' }));
  const epochMs = Date.now();
  const clock = workerClock({ epochMs, rate: RATE });
  const startWorker = () =>
    spawnWorker(t.url, {
      WORKER_POLL_INTERVAL_MS: '50', WORKER_BATCH_SIZE: '5', LOG_LEVEL: 'error', WORKER_TEST_CLOCK: `${epochMs}:${RATE}`,
      SCHEDULER_CATCHUP_WINDOW_SECONDS: '3600', SCHEDULER_HTTP_ALLOWED_HOSTS: '127.0.0.1', SCHEDULER_PUBLIC_URL: 'http://127.0.0.1:9',
    });
  const db = t.db;
  try {
    const ctx = await seed(db, undefined);
    const rev = await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } });
    const actor = { type: 'org' as const, id: ctx.orgId, roleCap: null };
    const now = clock();
    const at = new Date(Math.ceil((now.getTime() + 1) / MINUTE) * MINUTE);
    const ids: string[] = [];
    for (let i = 0; i < SCHEDULES; i++) {
      const s = await createSchedule({
        db, actor, revision: { id: rev.id, blobId: rev.blobId }, limits: TEST_LIMITS, now, httpAllowList: { hosts: [], addresses: ['127.0.0.1'], ranges: [] },
        input: {
          repeat: 'one_time', invocation_time: at.toISOString().slice(0, 19), timezone: 'UTC', completion: { expect_within_seconds: 10 }, pause_after_failures: 2,
          invocation_target_type: 'http', invocation_target: { url: receiver.url(`/job/${i}`), timeout_seconds: 5 },
        },
      });
      ids.push(s.id);
    }
    const waitFor = async (what: () => Promise<boolean>, ms: number) => {
      for (const until = Date.now() + ms; Date.now() < until; await sleep(20)) if (await what()) return true;
      return false;
    };
    const runs = () => db.run.findMany({ where: { scheduleId: { in: ids } }, select: { outcome: true, scheduleId: true } });

    // Two workers; once every run is recorded (pending), kill one just before the deadline and the
    // other just after it, while they decide; restart both.
    let a = startWorker();
    let b = startWorker();
    expect(await waitFor(async () => (await runs()).length === SCHEDULES, 60_000)).toBe(true);
    const deadline = at.getTime() + 10_000;
    await sleep((deadline - clock().getTime()) / RATE - 100);
    a.kill('SIGKILL');
    await sleep(120);
    b.kill('SIGKILL');
    await Promise.all([exited(a), exited(b)]);
    a = startWorker();
    b = startWorker();
    const done = await waitFor(async () => (await runs()).every((r) => r.outcome === 'timed_out'), 60_000);
    a.kill('SIGKILL');
    b.kill('SIGKILL');
    await Promise.all([exited(a), exited(b)]);
    expect(done).toBe(true);

    const all = await runs();
    expect(all.length).toBe(SCHEDULES);
    expect(all.every((r) => r.outcome === 'timed_out')).toBe(true);
    const schedules = await db.schedule.findMany({ where: { id: { in: ids } }, select: { consecutiveFailures: true, enabled: true } });
    // Counted once each: a second decision would have made it 2 and paused the schedule.
    expect(schedules.map((s) => [s.consecutiveFailures, s.enabled])).toEqual(ids.map(() => [1, true]));
  } finally {
    await receiver.close();
  }
}, 180_000);
