/**
 * Tests of a PostgreSQL connection cut or silenced under the product: a fresh test database reached
 * through a cutting proxy on loopback (lib/testing/cutting-proxy.ts), for a client (`useProxiedDb`) or
 * a worker process with a backlog to fire (`backlogWorkerBehindProxy`), and the exactly-once check
 * that follows (`expectFiredOnce`). PostgreSQL only.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect } from 'vitest';
import { createDb, type Db } from '../db';
import { seed } from '../../prisma/seed';
import { startCuttingProxy, type CuttingProxy } from './cutting-proxy';
import { insertSchedules } from './insert-schedules';
import { createTestDb, type TestDb } from './test-db';
import { exited, sleep, spawnWorker } from './worker-process';

/** `p`, or a rejection naming `what` after `ms` (a wait that never ends shows up as this, not as a hung test). */
export function within<T>(ms: number, p: Promise<T>, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))]);
}

/** `url` with its port replaced by the proxy's (loopback). */
export function throughProxy(url: string, proxy: CuttingProxy): string {
  const proxied = new URL(url);
  proxied.port = String(proxy.port);
  return proxied.toString();
}

/**
 * For the calling `describe`: a fresh PostgreSQL test database (`t`, its own client), a proxy in front
 * of it, and a client (`db`) made by `createDb` with `opts` through the proxy; all closed after.
 */
export function useProxiedDb(opts: Parameters<typeof createDb>[1]): { readonly t: TestDb; readonly proxy: CuttingProxy; readonly db: Db } {
  let t: TestDb | undefined;
  let proxy: CuttingProxy | undefined;
  let db: Db | undefined;
  beforeAll(async () => {
    t = await createTestDb('postgresql');
    proxy = await startCuttingProxy(Number(new URL(t.url).port || 5432));
    db = createDb(throughProxy(t.url, proxy), opts);
  });
  afterAll(async () => {
    await db?.$disconnect();
    await proxy?.stop();
    await t?.cleanup();
  });
  return {
    get t() {
      return t!;
    },
    get proxy() {
      return proxy!;
    },
    get db() {
      return db!;
    },
  };
}

/**
 * `count` schedules far in the future (cron once a year, the demo org's workflow target, described
 * `<label> <i>`) in `t`'s database, and a real worker process (`worker/main.ts`: a pool of 2, batches
 * of 20, polling every 100 ms, plus `env`) that reaches it through a new proxy, once its first
 * heartbeat is stored. The caller makes the schedules due, kills the worker and stops the proxy.
 */
export async function backlogWorkerBehindProxy(
  t: { db: Db; url: string },
  opts: { count: number; label: string; env?: Record<string, string> },
): Promise<{ ids: string[]; proxy: CuttingProxy; worker: ChildProcess; log: string[] }> {
  const ctx = await seed(t.db, undefined);
  const far = new Date(Date.now() + 365 * 86_400_000);
  await insertSchedules(
    t.db,
    Array.from({ length: opts.count }, (_, i) => ({
      revisionId: ctx.schedulerRevisionId,
      createdBy: { type: 'org' as const, id: ctx.orgId },
      cronExpression: '0 0 1 1 ? *',
      description: `${opts.label} ${i}`,
      // As a save stores it (input_data always present).
      invocationTarget: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' }, input_data: [] },
      nextFireAt: far,
    })),
  );
  const ids = (await t.db.schedule.findMany({ where: { description: { startsWith: `${opts.label} ` } }, select: { id: true } })).map((s) => s.id);
  expect(ids.length).toBe(opts.count);

  const proxy = await startCuttingProxy(Number(new URL(t.url).port || 5432));
  const worker = spawnWorker(
    throughProxy(t.url, proxy),
    { DATABASE_POOL_SIZE: '2', WORKER_BATCH_SIZE: '20', WORKER_POLL_INTERVAL_MS: '100', WORKFLOW_EXECUTIONS_PER_SESSION_PER_MINUTE: '100000', LOG_LEVEL: 'info', ...opts.env },
    [],
    { stdout: 'pipe' },
  );
  const log: string[] = [];
  worker.stdout!.on('data', (b: Buffer) => log.push(...b.toString().split('\n').filter(Boolean)));
  const started = new Date();
  const upBy = Date.now() + 30_000;
  while ((await t.db.workerHeartbeat.count({ where: { lastSeenAt: { gte: started } } })) === 0) {
    if (Date.now() > upBy) {
      worker.kill('SIGKILL');
      await proxy.stop();
      throw new Error('the worker did not start within 30 s');
    }
    await sleep(100);
  }
  return { ids, proxy, worker, log };
}

/** SPEC §8: each schedule of `ids` has exactly one successful run for `due`, and each run exactly one execution. */
export async function expectFiredOnce(db: Db, ids: string[], due: Date): Promise<void> {
  const runs = await db.run.findMany({ where: { scheduleId: { in: ids } }, select: { id: true, scheduleId: true, scheduledFor: true, status: true } });
  expect(runs.length).toBe(ids.length);
  expect(new Set(runs.map((r) => r.scheduleId)).size).toBe(ids.length);
  expect(runs.every((r) => r.scheduledFor.getTime() === due.getTime() && r.status === 'success')).toBe(true);
  const executions = await db.execution.findMany({ where: { scheduleId: { in: ids } }, select: { runId: true } });
  expect(executions.length).toBe(ids.length);
  expect(new Set(executions.map((e) => e.runId))).toEqual(new Set(runs.map((r) => r.id)));
}

/**
 * The end of a backlog test (`backlogWorkerBehindProxy`): every schedule of `ids` fires its occurrence
 * at `due` within 60 s (else the failure names how many never fired `after` what, with the worker's
 * last lines), each exactly once (`expectFiredOnce`), and the worker then stops cleanly on SIGTERM
 * within 20 s.
 */
export async function expectDrainedOnceAndStopped(db: Db, backlog: { ids: string[]; worker: ChildProcess; log: string[] }, due: Date, after: string): Promise<void> {
  const { ids, worker, log } = backlog;
  const until = Date.now() + 60_000;
  let left = ids.length;
  while ((left = await db.schedule.count({ where: { id: { in: ids }, nextFireAt: due } })) > 0 && Date.now() < until) await sleep(200);
  expect(left, `${left} of ${ids.length} schedules never fired after ${after}; the worker's last lines:\n${log.slice(-15).join('\n')}`).toBe(0);
  await expectFiredOnce(db, ids, due);
  worker.kill('SIGTERM');
  expect(await within(20_000, exited(worker), 'the worker stopping')).toBe(0);
}
