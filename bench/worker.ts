/**
 * Worker benchmark (SPEC §8): fires/s, fire lateness and tick cost, for SQLite and for PostgreSQL
 * with 1 and 4 worker processes.
 *
 *   npm run bench:worker                 (npx tsx bench/worker.ts)
 *   npm run bench:worker -- --quick      (smaller N, for a smoke run)
 *   BENCH_SKIP_POSTGRES=1 …              (SQLite only; PostgreSQL needs the server of TEST_POSTGRES_URL,
 *                                         see `bash scripts/postgres-local.sh`)
 *
 * Every scenario uses a fresh migrated database, the seed's org/scheduler/workflow, and schedules
 * with a one-minute cadence (`* * * * ? *`) all targeting session `nightly-batch` / definition
 * `triage`. Schedules are inserted directly (lib/testing/insert-schedules.ts) with the next_fire_at
 * each scenario needs; the worker processes are the real `worker/main.ts`.
 *
 * 1. Throughput: N occurrences due at once (one statement makes them all due, like a minute
 *    boundary of N minutely schedules), W workers started and idle first.
 *    fires/s = N / (last run's created_at − the instant that statement committed). WORKER_BATCH_SIZE 500 (the default) and 2000.
 * 2. Lateness at 1,000 due/s: occurrences spread evenly over a window, one per millisecond (1,000 per
 *    second), default worker settings (batch 500, poll 1 s). They are one-time schedules, so each
 *    fires once: with a one-minute cron cadence every second occurrence lands on the same minute
 *    boundary (cron fires at :00), which is scenario 1's burst. Lateness = run created_at −
 *    scheduled_for; p50 / p99 / max over every fire in the window.
 * 3. Tick cost: one in-process tick claiming and firing 100 due occurrences (and one idle tick, nothing
 *    due) with 1,000 vs 100,000 schedules in the table; median of 15 ticks, and the 100k/1k ratio.
 * 4. What bounds throughput: CPU per fire. In-process `fireDue` batches over a 10,000-occurrence
 *    backlog: this process's CPU (process.cpuUsage) and, for PostgreSQL, the server's CPU (every
 *    `postgres` process in /proc, Linux only), per fire, at batch 100, 500 and 2000.
 *
 * Machines are noisy: the output is medians and ratios, never a pass/fail on time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Limits } from '../lib/config';
import type { Db, Dialect } from '../lib/db';
import { fireDue } from '../lib/schedules';
import { insertSchedules, type ScheduleFixture } from '../lib/testing/insert-schedules';
import { createTestDb, type TestDb } from '../lib/testing/test-db';
import { seed } from '../prisma/seed';
import { Worker } from '../worker/worker';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.argv.includes('--quick');
const SKIP_PG = process.env.BENCH_SKIP_POSTGRES === '1';
const THROUGHPUT_N = QUICK ? 5_000 : 20_000;
const LATENESS_SECONDS = QUICK ? 10 : 30;
const LATENESS_RATE = 1_000;
const TICK_SIZES = QUICK ? [1_000, 20_000] : [1_000, 100_000];
const TICK_ROUNDS = 15;
const TICK_DUE = 100;
// No per-session limit in the way: the bench measures the fire path, not the limit's refusals. The
// in-process fires get it through LIMITS, the worker processes through their environment.
const NO_LIMIT = '1000000000';
const LIMITS: Limits = { ...loadConfig().limits, executionsPerSessionPerMinute: Number(NO_LIMIT) };
const TARGET = {
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
  input_data: [{ alias: 'ticket_window', value: { hours: 24 } }],
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

interface Env {
  t: TestDb;
  fixture: (nextFireAt: Date | null) => ScheduleFixture;
  revisionId: string;
}

async function freshDb(dialect: Dialect): Promise<Env> {
  const t = await createTestDb(dialect);
  const ctx = await seed(t.db, undefined);
  return {
    t,
    revisionId: ctx.schedulerRevisionId,
    fixture: (nextFireAt) => ({ revisionId: ctx.schedulerRevisionId, createdBy: { type: 'org', id: ctx.orgId }, invocationTarget: TARGET, nextFireAt }),
  };
}

function startWorkers(url: string, count: number, env: Record<string, string>): ChildProcess[] {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn', WORKFLOW_EXECUTIONS_PER_SESSION_PER_MINUTE: NO_LIMIT, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
}

async function waitForHeartbeats(db: Db, count: number): Promise<void> {
  const until = Date.now() + 60_000;
  while ((await db.workerHeartbeat.count()) < count) {
    if (Date.now() > until) throw new Error(`bench: ${count} workers did not start within 60 s`);
    await sleep(100);
  }
}

async function stopWorkers(workers: ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map((w) => new Promise<void>((resolve) => {
      if (w.exitCode !== null) return resolve();
      w.once('exit', () => resolve());
      w.kill('SIGTERM');
    })),
  );
}

async function lastRunAt(db: Db, scheduledFor: Date): Promise<number> {
  const agg = await db.run.aggregate({ where: { scheduledFor }, _max: { createdAt: true } });
  return agg._max.createdAt?.getTime() ?? 0;
}

/** Scenario 1: a backlog of `n` due occurrences drained by `workerCount` workers. */
async function throughput(dialect: Dialect, workerCount: number, n: number, batch: number): Promise<{ firesPerSecond: number; seconds: number }> {
  const { t, fixture } = await freshDb(dialect);
  const workers = startWorkers(t.url, workerCount, { WORKER_BATCH_SIZE: String(batch), WORKER_POLL_INTERVAL_MS: '50' });
  try {
    await waitForHeartbeats(t.db, workerCount);
    // Inserted far in the future, then made due by ONE statement: its commit is the instant the whole
    // backlog appears (no worker can start on it while it is still being inserted).
    await insertSchedules(t.db, Array.from({ length: n }, () => fixture(new Date('2099-01-01T00:00:00Z'))));
    const dueAt = new Date(Date.now() - 1000);
    await t.db.schedule.updateMany({ where: { nextFireAt: { not: null } }, data: { nextFireAt: dueAt } });
    const start = Date.now();
    const until = start + 600_000;
    // Only this occurrence counts: a drain that crosses a minute boundary starts firing the next one.
    while ((await t.db.run.count({ where: { scheduledFor: dueAt } })) < n) {
      if (Date.now() > until) throw new Error('bench: throughput run did not finish in 10 minutes');
      await sleep(250);
    }
    const seconds = (await lastRunAt(t.db, dueAt)) / 1000 - start / 1000;
    return { firesPerSecond: n / seconds, seconds };
  } finally {
    await stopWorkers(workers);
    await t.cleanup();
  }
}

/** Scenario 2: `rate` occurrences per second over `seconds`, default worker settings. */
async function lateness(dialect: Dialect, workerCount: number, seconds: number, rate: number) {
  const { t, fixture } = await freshDb(dialect);
  const workers = startWorkers(t.url, workerCount, {});
  try {
    await waitForHeartbeats(t.db, workerCount);
    const n = seconds * rate;
    const start = Date.now() + 10_000;
    // One-time occurrences, so each fires once: minutely ones would all come due again together at
    // the next minute boundary, which is the throughput scenario, not this one.
    await insertSchedules(
      t.db,
      Array.from({ length: n }, (_, i) => {
        const at = new Date(start + Math.floor((i * 1000) / rate));
        return { ...fixture(at), repeat: 'one_time' as const, invocationTime: at.toISOString().slice(0, 19) };
      }),
    );
    if (Date.now() >= start) throw new Error('bench: inserting the lateness fixture took longer than its 10 s head start');
    const until = start + seconds * 1000 + 120_000;
    while ((await t.db.run.count()) < n) {
      if (Date.now() > until) throw new Error('bench: lateness run did not finish');
      await sleep(500);
    }
    const runs = await t.db.run.findMany({ select: { createdAt: true, scheduledFor: true } });
    const late = runs.map((r) => r.createdAt.getTime() - r.scheduledFor.getTime()).sort((a, b) => a - b);
    return { fires: late.length, p50: pct(late, 50), p99: pct(late, 99), max: late[late.length - 1] };
  } finally {
    await stopWorkers(workers);
    await t.cleanup();
  }
}

/** Scenario 3: median cost of one tick that fires TICK_DUE occurrences, and of an idle tick, with `size` schedules. */
async function tickCost(dialect: Dialect, size: number): Promise<{ busyMs: number; idleMs: number }> {
  const { t, fixture } = await freshDb(dialect);
  try {
    const future = new Date('2099-01-01T00:00:00Z');
    await insertSchedules(t.db, Array.from({ length: size - TICK_DUE }, () => fixture(future)));
    const due = await insertSchedules(t.db, Array.from({ length: TICK_DUE }, () => fixture(future)));
    const base = new Date('2030-01-01T00:00:00Z').getTime();
    const busy: number[] = [];
    const idle: number[] = [];
    for (let round = 0; round < TICK_ROUNDS + 2; round++) {
      // Each round re-arms the same rows on a new occurrence (a fresh minute), so no run collides.
      const at = new Date(base + round * 60_000);
      await t.db.schedule.updateMany({ where: { id: { in: due } }, data: { nextFireAt: at, state: 'active' } });
      const worker = new Worker({ db: t.db, limits: LIMITS, batchSize: TICK_DUE, pollIntervalMs: 1000, clock: () => new Date(at.getTime() + 50) });
      let t0 = performance.now();
      await worker.tick(new Date(at.getTime() - 1)); // nothing due yet
      const idleMs = performance.now() - t0;
      t0 = performance.now();
      const claimed = await worker.tick(new Date(at.getTime() + 50));
      const busyMs = performance.now() - t0;
      if (claimed !== TICK_DUE) throw new Error(`bench: tick claimed ${claimed}, expected ${TICK_DUE}`);
      if (round >= 2) {
        busy.push(busyMs); // the first two rounds warm up
        idle.push(idleMs);
      }
    }
    return { busyMs: median(busy), idleMs: median(idle) };
  } finally {
    await t.cleanup();
  }
}

/** CPU ms used so far by every `postgres` process (utime + stime from /proc; 0 where /proc is absent). */
function postgresCpuMs(): number {
  let ticks = 0;
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks * 10; // USER_HZ = 100 on Linux
}

/** Scenario 4: CPU per fire for in-process batches of `batch` over a backlog of `n`. */
async function cpuPerFire(dialect: Dialect, batch: number, n: number) {
  const { t, fixture } = await freshDb(dialect);
  try {
    const now = new Date('2030-01-01T00:00:30Z');
    await insertSchedules(t.db, Array.from({ length: n }, (_, i) => fixture(new Date(now.getTime() - 20_000 + Math.floor((i * 10_000) / n)))));
    await fireDue({ db: t.db, now, limit: batch, limits: LIMITS }); // warm-up batch
    const wall0 = performance.now();
    const cpu0 = process.cpuUsage();
    const pg0 = postgresCpuMs();
    let fires = 0;
    for (let k; (k = (await fireDue({ db: t.db, now, limit: batch, limits: LIMITS })).length) > 0; ) fires += k;
    const cpu = process.cpuUsage(cpu0);
    const wallMs = performance.now() - wall0;
    return {
      firesPerSecond: (fires / wallMs) * 1000,
      nodeUs: (cpu.user + cpu.system) / fires,
      pgUs: dialect === 'postgresql' ? ((postgresCpuMs() - pg0) * 1000) / fires : 0,
    };
  } finally {
    await t.cleanup();
  }
}

async function main(): Promise<void> {
  const dialects: Dialect[] = SKIP_PG ? ['sqlite'] : ['sqlite', 'postgresql'];
  const configs: { dialect: Dialect; workers: number }[] = [{ dialect: 'sqlite', workers: 1 }];
  if (!SKIP_PG) configs.push({ dialect: 'postgresql', workers: 1 }, { dialect: 'postgresql', workers: 4 });
  console.log(`bench:worker — ${new Date().toISOString()}, node ${process.version}, ${(await import('node:os')).cpus().length} CPUs${QUICK ? ' (quick)' : ''}\n`);

  console.log(`1. Throughput: ${fmt(THROUGHPUT_N)} minutely schedules due at once (a minute boundary)\n`);
  console.log('| database | workers | batch | fires/s | drain time |');
  console.log('|---|---:|---:|---:|---:|');
  const throughputConfigs = configs.flatMap((c) => [{ ...c, batch: 500 }, ...(c.workers === 1 && c.dialect === 'postgresql' ? [] : [{ ...c, batch: 2000 }])]);
  for (const c of throughputConfigs) {
    const r = await throughput(c.dialect, c.workers, THROUGHPUT_N, c.batch);
    console.log(`| ${c.dialect} | ${c.workers} | ${c.batch} | ${fmt(r.firesPerSecond)} | ${fmt(r.seconds, 2)} s |`);
  }

  console.log(`\n2. Lateness at ${fmt(LATENESS_RATE)} due/s, spread evenly, for ${LATENESS_SECONDS} s (${fmt(LATENESS_RATE * LATENESS_SECONDS)} fires), default worker settings\n`);
  console.log('| database | workers | p50 | p99 | max |');
  console.log('|---|---:|---:|---:|---:|');
  for (const c of configs) {
    const r = await lateness(c.dialect, c.workers, LATENESS_SECONDS, LATENESS_RATE);
    console.log(`| ${c.dialect} | ${c.workers} | ${fmt(r.p50)} ms | ${fmt(r.p99)} ms | ${fmt(r.max)} ms |`);
  }

  console.log(`\n3. Tick cost (in-process, median of ${TICK_ROUNDS}): one tick firing ${TICK_DUE} due occurrences, and an idle tick\n`);
  console.log(`| database | ${TICK_SIZES.map((s) => `busy @ ${fmt(s)}`).join(' | ')} | ratio | ${TICK_SIZES.map((s) => `idle @ ${fmt(s)}`).join(' | ')} | ratio |`);
  console.log(`|---|${TICK_SIZES.map(() => '---:').join('|')}|---:|${TICK_SIZES.map(() => '---:').join('|')}|---:|`);
  for (const d of dialects) {
    const [small, large] = [await tickCost(d, TICK_SIZES[0]), await tickCost(d, TICK_SIZES[1])];
    console.log(
      `| ${d} | ${fmt(small.busyMs, 1)} ms | ${fmt(large.busyMs, 1)} ms | ${fmt(large.busyMs / small.busyMs, 2)}× | ${fmt(small.idleMs, 2)} ms | ${fmt(large.idleMs, 2)} ms | ${fmt(large.idleMs / small.idleMs, 2)}× |`,
    );
  }

  const backlog = QUICK ? 4_000 : 10_000;
  console.log(`\n4. CPU per fire (in-process fireDue over a ${fmt(backlog)} backlog, one worker)\n`);
  console.log('| database | batch | fires/s | worker CPU / fire | PostgreSQL CPU / fire | total CPU / fire |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const d of dialects) {
    for (const batch of [100, 500, 2000]) {
      const r = await cpuPerFire(d, batch, backlog);
      const pg = d === 'postgresql' ? `${fmt(r.pgUs)} µs` : '—';
      console.log(`| ${d} | ${batch} | ${fmt(r.firesPerSecond)} | ${fmt(r.nodeUs)} µs | ${pg} | ${fmt(r.nodeUs + r.pgUs)} µs |`);
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
