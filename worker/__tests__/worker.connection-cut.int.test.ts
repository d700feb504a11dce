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
import { it } from 'vitest';
import { backlogWorkerBehindProxy, expectDrainedOnceAndStopped, within } from '../../lib/testing/proxied-db';
import { testDialect } from '../../lib/testing/test-db';
import { useTestDatabase } from '../../lib/testing/worker-process';

const SCHEDULES = 400;
const CUTS = 5;
const t = useTestDatabase();

it.skipIf(testDialect() !== 'postgresql')(`§8 a worker whose connection is cut at COMMIT ${CUTS} times (pool of 2) keeps firing; every occurrence exactly once`, async () => {
  const db = t.db;
  const { ids, proxy, worker, log } = await backlogWorkerBehindProxy(t, { count: SCHEDULES, label: 'cut' });
  try {
    // One occurrence each, due now (inside the catch-up window).
    const due = new Date(Date.now() - 1_000);
    await db.schedule.updateMany({ where: { id: { in: ids } }, data: { nextFireAt: due } });
    for (let i = 0; i < CUTS; i++) await within(20_000, proxy.cutWhenClientSends('COMMIT'), `cut ${i + 1} (the worker sent no COMMIT: it stopped working)`);

    // The worker drains the rest after the cuts.
    await expectDrainedOnceAndStopped(db, { ids, worker, log }, due, 'the cuts');
  } finally {
    if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
    await proxy.stop();
  }
}, 180_000);
