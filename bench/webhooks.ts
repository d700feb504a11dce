/**
 * Webhook delivery benchmark (SPEC §13.1, issue "Near the ceilings" item 2): the real worker process
 * delivering webhooks against a raw loop measured in the same run, on SQLite and PostgreSQL.
 *
 *   npm run bench:webhooks                 (npx tsx bench/webhooks.ts; 20,000 webhooks, 3 rounds)
 *   npm run bench:webhooks -- --quick      (5,000 webhooks, 2 rounds)
 *   BENCH_SKIP_POSTGRES=1 …                (SQLite only; PostgreSQL needs the server of TEST_POSTGRES_URL,
 *                                           see `bash scripts/postgres-local.sh`)
 *   TEST_PORT_BASE=…                       (the receiver's first port)
 *
 * Each side of a pair gets a fresh migrated database with the seed's catalog (its demo schedules
 * disabled) and N `http` schedules on a yearly cron to a real receiver on loopback
 * (lib/testing/receiver.ts, 200 at once), plus 200 warm-up ones. Sides:
 * - product: the real `worker/main.ts` (default batch 500, poll 50 ms, delivery pool
 *   SCHEDULER_DELIVERY_CONCURRENCY, default 64). All schedules are one org's, so its per-org cap is
 *   raised to the pool size: the pool is the one bound, as it is the raw loop's.
 * - raw: bench/raw-webhooks.ts, the same client (node:http, a connection per request), the same
 *   pool size, the same receiver, the product's own SQL texts for the same writes (claim + advance +
 *   in-flight row in one transaction, a send count per send, then the run record and the in-flight
 *   row's removal), Standard Webhooks signatures, on better-sqlite3 / node-postgres directly.
 * The warm-up schedules are made due first and drained, untimed; then ONE statement makes the N due
 * (its commit is the start). This process counts runs every 20 ms on its own connection:
 * deliveries/s = N / (first count that sees all N committed − start); lateness p50/p99 = when the
 * count first reached 50 % / 99 % of N − start (time to COMMIT, not to the request).
 * Each pair product/raw runs back to back; the ratio is per pair, the figures are medians of the rounds.
 *
 * It ends with a table and one line per dialect:
 * `goal webhook delivery vs raw loop (<dialect>, pool N): <ratio>× (A vs B deliveries/s) (target ≥ 0.6×): met|missed`.
 * Machines are noisy: medians and same-run ratios, never a pass/fail on time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../lib/config';
import type { Db, Dialect } from '../lib/db';
import { insertSchedules, type ScheduleFixture } from '../lib/testing/insert-schedules';
import { startReceiver, type Receiver } from '../lib/testing/receiver';
import { createTestDb } from '../lib/testing/test-db';
import { seed } from '../prisma/seed';
import { WORKER_NODE_ARGS } from '../worker/launch';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.argv.includes('--quick');
const SKIP_PG = process.env.BENCH_SKIP_POSTGRES === '1';
const N = QUICK ? 5_000 : 20_000;
const ROUNDS = QUICK ? 2 : 3;
const WARM = 200;
const TARGET_RATIO = 0.6;
const POOL = loadConfig().delivery.concurrency;
const FAR = new Date('2099-01-01T00:00:00Z');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The middle value (the mean of the two middle ones for an even count). */
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
/** A ratio to 2 decimals, rounded down: a printed 0.60× is never a missed 0.6× goal. */
const ratio = (r: number) => fmt(Math.floor(r * 100) / 100, 2);

type Runner = 'product' | 'raw';

interface Side {
  perSecond: number;
  p50: number;
  p99: number;
}

const countRuns = async (db: Db) => Number((await db.$queryRawUnsafe<{ n: number | bigint }[]>('SELECT COUNT(*) AS n FROM runs'))[0].n);

function startWorker(runner: Runner, url: string): ChildProcess {
  const script = runner === 'product' ? 'worker/main.ts' : 'bench/raw-webhooks.ts';
  // Both with the worker's node flags (worker/launch.ts).
  const env: Record<string, string> =
    runner === 'product'
      ? { WORKER_POLL_INTERVAL_MS: '50', SCHEDULER_HTTP_ALLOWED_HOSTS: '127.0.0.1', SCHEDULER_DELIVERY_ORG_CONCURRENCY: String(POOL) }
      : { POLL_MS: '50', SCHEDULER_DELIVERY_CONCURRENCY: String(POOL) };
  return spawn(process.execPath, [...WORKER_NODE_ARGS, ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), script], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** The product reports through its heartbeat; the raw loop prints `ready`. */
async function waitReady(runner: Runner, db: Db, w: ChildProcess): Promise<void> {
  const until = Date.now() + 60_000;
  if (runner === 'raw') {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('bench: the raw loop did not start within 60 s')), 60_000);
      w.stdout!.on('data', (b: Buffer) => {
        if (b.toString().includes('ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    return;
  }
  w.stdout!.resume();
  while ((await db.workerHeartbeat.count()) < 1) {
    if (Date.now() > until) throw new Error('bench: the worker did not start within 60 s');
    await sleep(100);
  }
}

function stopWorker(w: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (w.exitCode !== null) return resolve();
    w.once('exit', () => resolve());
    w.kill('SIGTERM');
  });
}

/** One side of a pair: N webhooks due at once, delivered by `runner`, timed until their runs are committed. */
async function side(runner: Runner, dialect: Dialect, receiver: Receiver): Promise<Side> {
  const t = await createTestDb(dialect);
  try {
    const ctx = await seed(t.db, undefined);
    await t.db.schedule.updateMany({ data: { enabled: false, nextFireAt: null } });
    const fixture = (i: number, description: string): ScheduleFixture => ({
      revisionId: ctx.schedulerRevisionId,
      createdBy: { type: 'org', id: ctx.orgId },
      invocationTargetType: 'http',
      invocationTarget: { url: receiver.url(`/hook/${i}`) },
      cronExpression: '0 0 1 1 ? *',
      description,
      nextFireAt: FAR,
    });
    await insertSchedules(t.db, [...Array.from({ length: WARM }, (_, i) => fixture(i, 'warm')), ...Array.from({ length: N }, (_, i) => fixture(i, 'due'))]);
    if (dialect === 'postgresql') await t.db.$executeRawUnsafe('ANALYZE');
    const w = startWorker(runner, t.url);
    try {
      await waitReady(runner, t.db, w);
      // Untimed warm-up: statements prepared, JIT warm, connections open.
      await t.db.schedule.updateMany({ where: { description: 'warm' }, data: { nextFireAt: new Date(Date.now() - 1000) } });
      for (const until = Date.now() + 120_000; (await countRuns(t.db)) < WARM; await sleep(20)) {
        if (Date.now() > until) throw new Error(`bench: ${runner} did not deliver the warm-up within 2 minutes`);
      }
      await sleep(300);
      const received = receiver.requests.length;
      // ONE statement makes the whole burst due: its commit is the start.
      await t.db.schedule.updateMany({ where: { description: 'due' }, data: { nextFireAt: new Date() } });
      const start = Date.now();
      let p50 = 0;
      let p99 = 0;
      for (const until = start + 600_000; ; await sleep(20)) {
        const seen = (await countRuns(t.db)) - WARM;
        const at = Date.now() - start;
        if (!p50 && seen >= N * 0.5) p50 = at;
        if (!p99 && seen >= N * 0.99) p99 = at;
        if (seen >= N) break;
        if (Date.now() > until) throw new Error(`bench: ${runner} recorded ${seen} of ${N} deliveries in 10 minutes`);
      }
      const seconds = (Date.now() - start) / 1000;
      const ok = (await t.db.run.count({ where: { status: 'success' } })) - WARM;
      if (ok !== N) throw new Error(`bench: ${N - ok} of ${N} ${runner} deliveries did not succeed`);
      if (receiver.requests.length - received !== N) throw new Error(`bench: the receiver got ${receiver.requests.length - received} requests, expected ${N}`);
      receiver.requests.length = 0;
      return { perSecond: N / seconds, p50, p99 };
    } finally {
      await stopWorker(w);
    }
  } finally {
    await t.cleanup();
  }
}

interface Pair {
  dialect: Dialect;
  product: Side;
  raw: Side;
  ratio: number;
}

async function pair(dialect: Dialect, receiver: Receiver): Promise<Pair> {
  const product: Side[] = [];
  const raw: Side[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const p = await side('product', dialect, receiver);
    const w = await side('raw', dialect, receiver);
    console.log(`  ${dialect} round ${r + 1}: product ${fmt(p.perSecond)}/s, raw ${fmt(w.perSecond)}/s, ratio ${ratio(p.perSecond / w.perSecond)}×`);
    product.push(p);
    raw.push(w);
    ratios.push(p.perSecond / w.perSecond);
  }
  const med = (xs: Side[]): Side => ({ perSecond: median(xs.map((x) => x.perSecond)), p50: median(xs.map((x) => x.p50)), p99: median(xs.map((x) => x.p99)) });
  return { dialect, product: med(product), raw: med(raw), ratio: median(ratios) };
}

async function main(): Promise<void> {
  const receiver = await startReceiver(() => ({ status: 200, body: 'ok' }));
  try {
    console.log(`webhook delivery: ${fmt(N)} webhooks due at once, pool ${POOL}, ${ROUNDS} rounds per dialect, receiver on port ${receiver.port}`);
    const dialects: Dialect[] = SKIP_PG ? ['sqlite'] : ['sqlite', 'postgresql'];
    const pairs: Pair[] = [];
    for (const d of dialects) pairs.push(await pair(d, receiver));
    console.log('');
    console.log('| dialect | product deliveries/s | raw deliveries/s | ratio | product p50 / p99 | raw p50 / p99 |');
    console.log('|---|---|---|---|---|---|');
    for (const p of pairs) {
      console.log(`| ${p.dialect} | ${fmt(p.product.perSecond)} | ${fmt(p.raw.perSecond)} | ${ratio(p.ratio)}× | ${fmt(p.product.p50)} / ${fmt(p.product.p99)} ms | ${fmt(p.raw.p50)} / ${fmt(p.raw.p99)} ms |`);
    }
    console.log('');
    for (const p of pairs) {
      console.log(
        `goal webhook delivery vs raw loop (${p.dialect}, pool ${POOL}): ${ratio(p.ratio)}× (${fmt(p.product.perSecond)} vs ${fmt(p.raw.perSecond)} deliveries/s) (target ≥ ${TARGET_RATIO}×): ${p.ratio >= TARGET_RATIO ? 'met' : 'missed'}`,
      );
    }
  } finally {
    await receiver.close();
  }
}

await main();
