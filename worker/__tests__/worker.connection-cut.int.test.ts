/**
 * SPEC §8 "exactly once" when the database connection is cut under a firing worker (a PostgreSQL
 * restart or failover, the network): a real worker process (`worker/main.ts`, a pool of 2 connections)
 * reaches real PostgreSQL through a TCP proxy on loopback (lib/testing/cutting-proxy.ts), and while it
 * drains a backlog of 400 due schedules in batches of 20 the test cuts the connection at a COMMIT five
 * times, more often than the pool holds connections. Before lib/db/postgres-adapter.ts gave back the
 * connection of a transaction whose COMMIT failed, the third cut left the worker waiting forever for
 * a connection: it stopped firing. Now it keeps firing, and every occurrence has exactly one run and
 * one execution: a cut batch rolled back whole and was claimed again. PostgreSQL only.
 */
import { expect, it } from 'vitest';
import { startCuttingProxy } from '../../lib/testing/cutting-proxy';
import { insertSchedules } from '../../lib/testing/insert-schedules';
import { testDialect } from '../../lib/testing/test-db';
import { exited, sleep, spawnWorker, useTestDatabase } from '../../lib/testing/worker-process';
import { seed } from '../../prisma/seed';

const SCHEDULES = 400;
const CUTS = 5;
const t = useTestDatabase();

/** `p`, or a rejection naming `what` after `ms`. */
function within<T>(ms: number, p: Promise<T>, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))]);
}

it.skipIf(testDialect() !== 'postgresql')(`§8 a worker whose connection is cut at COMMIT ${CUTS} times (pool of 2) keeps firing; every occurrence exactly once`, async () => {
  const db = t.db;
  const ctx = await seed(db, undefined);
  const far = new Date(Date.now() + 365 * 86_400_000);
  await insertSchedules(
    db,
    Array.from({ length: SCHEDULES }, (_, i) => ({
      revisionId: ctx.schedulerRevisionId,
      createdBy: { type: 'org' as const, id: ctx.orgId },
      cronExpression: '0 0 1 1 ? *',
      description: `cut ${i}`,
      // As a save stores it (input_data always present).
      invocationTarget: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' }, input_data: [] },
      nextFireAt: far,
    })),
  );
  const ids = (await db.schedule.findMany({ where: { description: { startsWith: 'cut ' } }, select: { id: true } })).map((s) => s.id);
  expect(ids.length).toBe(SCHEDULES);

  const proxy = await startCuttingProxy(Number(new URL(t.url).port || 5432));
  const proxied = new URL(t.url);
  proxied.port = String(proxy.port);
  const worker = spawnWorker(proxied.toString(), {
    DATABASE_POOL_SIZE: '2',
    WORKER_BATCH_SIZE: '20',
    WORKER_POLL_INTERVAL_MS: '100',
    WORKFLOW_EXECUTIONS_PER_SESSION_PER_MINUTE: '100000',
    LOG_LEVEL: 'info',
  }, [], { stdout: 'pipe' });
  const log: string[] = [];
  worker.stdout!.on('data', (b: Buffer) => log.push(...b.toString().split('\n').filter(Boolean)));
  try {
    const started = new Date();
    const upBy = Date.now() + 30_000;
    while ((await db.workerHeartbeat.count({ where: { lastSeenAt: { gte: started } } })) === 0) {
      if (Date.now() > upBy) throw new Error('the worker did not start within 30 s');
      await sleep(100);
    }

    // One occurrence each, due now (inside the catch-up window).
    const due = new Date(Date.now() - 1_000);
    await db.schedule.updateMany({ where: { id: { in: ids } }, data: { nextFireAt: due } });
    for (let i = 0; i < CUTS; i++) await within(20_000, proxy.cutWhenClientSends('COMMIT'), `cut ${i + 1} (the worker sent no COMMIT: it stopped working)`);

    // The worker drains the rest after the cuts.
    const until = Date.now() + 60_000;
    let left = SCHEDULES;
    while ((left = await db.schedule.count({ where: { id: { in: ids }, nextFireAt: due } })) > 0 && Date.now() < until) await sleep(200);
    expect(left, `${left} of ${SCHEDULES} schedules never fired after the cuts; the worker's last lines:\n${log.slice(-15).join('\n')}`).toBe(0);

    const runs = await db.run.findMany({ where: { scheduleId: { in: ids } }, select: { id: true, scheduleId: true, scheduledFor: true, status: true } });
    expect(runs.length).toBe(SCHEDULES);
    expect(new Set(runs.map((r) => r.scheduleId)).size).toBe(SCHEDULES);
    expect(runs.every((r) => r.scheduledFor.getTime() === due.getTime() && r.status === 'success')).toBe(true);
    const executions = await db.execution.findMany({ where: { scheduleId: { in: ids } }, select: { runId: true } });
    expect(new Set(executions.map((e) => e.runId))).toEqual(new Set(runs.map((r) => r.id)));
    expect(executions.length).toBe(SCHEDULES);

    worker.kill('SIGTERM');
    expect(await within(20_000, exited(worker), 'the worker stopping')).toBe(0);
  } finally {
    if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
    await proxy.stop();
  }
}, 180_000);
