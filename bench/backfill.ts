/**
 * Backfill benchmark (SPEC §18.1, issue 29): backfill fires/s against the worker's own fire rate on the
 * same fixture, both through the real worker loop (worker/worker.ts, in process), on SQLite and
 * PostgreSQL.
 *
 *   npm run bench:backfill                 (npx tsx bench/backfill.ts; N = 2,000, 5 rounds)
 *   npm run bench:backfill -- --quick      (N = 1,000, 3 rounds)
 *   BENCH_SKIP_POSTGRES=1 …                (SQLite only; PostgreSQL needs the server of TEST_POSTGRES_URL,
 *                                           see `bash scripts/postgres-local.sh`)
 *
 * Each round uses a fresh migrated database with the seed's catalog (its demo schedules disabled) and
 * one worker (batch 100, the default poll interval), every fire creating an execution in the seeded
 * session `procedures` / `nightly-batch` / `triage` (the per-session limit raised out of the way):
 * - own: N schedules on a yearly cron, all due at once (one statement, like a minute boundary); timed
 *   from the worker's start until its N runs are committed (this process counts them every 20 ms);
 * - backfill: ONE schedule of the same target, a backfill of its last N minutely occurrences with
 *   `max_concurrency: 100` (the batch size); timed the same way, from the worker's start.
 * The figure is fires/s = N / elapsed; the ratio is backfill / own per round; medians of the rounds.
 * It ends with `goal backfill-vs-own-<dialect>: <ratio>× (target ≥ 0.8×): met|missed`.
 * Machines are noisy: medians and same-run ratios, never a pass/fail on time.
 */
import type { Limits } from '../lib/config';
import type { Db, Dialect } from '../lib/db';
import { backfillSchedule } from '../lib/schedules';
import { insertSchedules } from '../lib/testing/insert-schedules';
import { TEST_LIMITS } from '../lib/testing/limits';
import { createTestDb } from '../lib/testing/test-db';
import { seed } from '../prisma/seed';
import { Worker } from '../worker/worker';

const QUICK = process.argv.includes('--quick');
const SKIP_PG = process.env.BENCH_SKIP_POSTGRES === '1';
const N = QUICK ? 1_000 : 2_000;
const ROUNDS = QUICK ? 3 : 5;
const BATCH = 100;
const MINUTE = 60_000;
const TARGET = {
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
  input_data: [],
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Run a worker on `db` until `count()` reaches `n`; fires/s from its start. */
async function timeWorker(db: Db, limits: Limits, n: number, count: () => Promise<number>): Promise<number> {
  const worker = new Worker({ db, limits, batchSize: BATCH, pollIntervalMs: 1000, sweepIntervalMs: 365 * 86_400_000 });
  // The retention sweep's first pass runs at start: let it run before the clock starts.
  await worker.sweepStep(new Date());
  while (worker.sweeping) await worker.sweepStep(new Date());
  const started = performance.now();
  const running = worker.run();
  for (const until = Date.now() + 120_000; Date.now() < until; await sleep(20)) if ((await count()) >= n) break;
  const elapsed = (performance.now() - started) / 1000;
  worker.stop('bench done');
  await running;
  if ((await count()) < n) throw new Error(`only ${await count()} of ${n} fired within 2 minutes`);
  return n / elapsed;
}

async function fresh(dialect: Dialect) {
  const t = await createTestDb(dialect);
  const ctx = await seed(t.db, undefined);
  await t.db.schedule.updateMany({ data: { enabled: false, nextFireAt: null } });
  return { ...t, ctx };
}

async function ownRound(dialect: Dialect, limits: Limits): Promise<number> {
  const t = await fresh(dialect);
  try {
    await insertSchedules(
      t.db,
      Array.from({ length: N }, () => ({ revisionId: t.ctx.schedulerRevisionId, createdBy: { type: 'org' as const, id: t.ctx.orgId }, invocationTarget: TARGET, cronExpression: '0 0 1 1 ? *', nextFireAt: null })),
    );
    // Due at once, by one statement.
    await t.db.schedule.updateMany({ where: { enabled: true }, data: { nextFireAt: new Date(Date.now() - 1000) } });
    return await timeWorker(t.db, limits, N, () => t.db.run.count({ where: { trigger: 'schedule' } }));
  } finally {
    await t.cleanup();
  }
}

async function backfillRound(dialect: Dialect, limits: Limits): Promise<number> {
  const t = await fresh(dialect);
  try {
    const [id] = await insertSchedules(t.db, [{ revisionId: t.ctx.schedulerRevisionId, createdBy: { type: 'org', id: t.ctx.orgId }, invocationTarget: TARGET, cronExpression: '* * * * ? *', nextFireAt: new Date(Date.now() + 86_400_000) }]);
    const rev = await t.db.revision.findUniqueOrThrow({ where: { id: t.ctx.schedulerRevisionId } });
    const to = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE);
    const b = await backfillSchedule({
      db: t.db,
      actor: { type: 'org', id: t.ctx.orgId, roleCap: null },
      revision: { id: rev.id, blobId: rev.blobId },
      scheduleRef: id,
      from: new Date(to.getTime() - N * MINUTE),
      to,
      maxConcurrency: BATCH,
      now: new Date(),
    });
    if (b.total !== N) throw new Error(`the backfill selected ${b.total}, not ${N}`);
    return await timeWorker(t.db, limits, N, () => t.db.run.count({ where: { trigger: `backfill:${b.id}` } }));
  } finally {
    await t.cleanup();
  }
}

async function main(): Promise<void> {
  const limits: Limits = { ...TEST_LIMITS, executionsPerSessionPerMinute: 10 * N };
  const dialects: Dialect[] = SKIP_PG ? ['sqlite'] : ['sqlite', 'postgresql'];
  const goals: string[] = [];
  console.log(`bench:backfill: N = ${N} fires per measure, ${ROUNDS} rounds, worker batch ${BATCH}, backfill max_concurrency ${BATCH}`);
  for (const dialect of dialects) {
    const own: number[] = [];
    const backfill: number[] = [];
    const ratios: number[] = [];
    for (let r = 1; r <= ROUNDS; r++) {
      const o = await ownRound(dialect, limits);
      const b = await backfillRound(dialect, limits);
      own.push(o);
      backfill.push(b);
      ratios.push(b / o);
      console.log(`${dialect} round ${r}: own ${o.toFixed(0)} fires/s · backfill ${b.toFixed(0)} fires/s · ratio ${(b / o).toFixed(2)}×`);
    }
    const ratio = median(ratios);
    console.log(`${dialect}: median own ${median(own).toFixed(0)} fires/s · median backfill ${median(backfill).toFixed(0)} fires/s · median ratio ${ratio.toFixed(2)}×`);
    goals.push(`goal backfill-vs-own-${dialect}: ${ratio.toFixed(2)}× (target ≥ 0.8×): ${ratio >= 0.8 ? 'met' : 'missed'}`);
  }
  for (const g of goals) console.log(g);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
