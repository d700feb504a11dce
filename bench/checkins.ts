/**
 * Outcomes benchmark (SPEC §16): what check-ins and completion deadlines cost.
 *
 *   npm run bench:checkins               (npx tsx bench/checkins.ts; SQLite)
 *   npm run bench:checkins -- --quick    (shorter rounds)
 *   npm run bench:checkins -- --checkins-only   (part 1 alone)
 *   BENCH_PORT=3960                      (the port the web app listens on, loopback)
 *
 * 1. Check-ins/s handled by one web process (the real production app, `scripts/start.ts --web-only`,
 *    no worker) against a route of the same server that does no work (`GET /api/bench-trivial`, the
 *    `/api` catch-all's constant 404), autocannon in this process at 16 connections. Every check-in is
 *    a terminal `POST /api/v1/checkins/<token>` on its own open run (pending, of one of 100 schedules
 *    with `completion`), so each one moves an outcome and folds it into its schedule; the tokens are
 *    minted with the server key the web app is given. Goal: check-ins ≥ 0.5 × trivial.
 * 2. The fire path with `completion` against without: N workflow occurrences made due by one
 *    statement, drained by the real `worker/main.ts`, timed until their runs are committed (as
 *    bench:worker's throughput); with `completion` each run also records its `pending` outcome and
 *    deadline. Goal: with ≥ 0.9 × without.
 * Rounds alternate the two sides of each comparison; medians of the rounds and of their ratios.
 * Figures are measured in the same run, never a pass/fail on time.
 */
import autocannon, { type Request as AutocannonRequest } from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { insertRuns, type Db } from '../lib/db';
import { checkinKey, checkinToken } from '../lib/engine';
import { insertSchedules } from '../lib/testing/insert-schedules';
import { createTestDb } from '../lib/testing/test-db';
import { seed } from '../prisma/seed';
import { stopWeb, waitForWeb } from './web-app';
import { workerArgv } from '../worker/launch';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.argv.includes('--quick');
const CHECKINS_ONLY = process.argv.includes('--checkins-only');
const ROUNDS = QUICK ? 3 : 5;
const PORT = Number(process.env.BENCH_PORT ?? 3960);
const BASE = `http://127.0.0.1:${PORT}`;
const DURATION = QUICK ? 4 : 8;
const CONNECTIONS = 16;
const FIRES = QUICK ? 3_000 : 5_000;
const SERVER_KEY = randomBytes(32);
const TARGET = {
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
  input_data: [{ alias: 'ticket_window', value: { hours: 24 } }],
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** `count` open (`pending`) runs spread over `schedules`, their check-in URL paths in a random order. */
async function openRuns(db: Db, schedules: string[], count: number): Promise<string[]> {
  const key = checkinKey(SERVER_KEY);
  const paths: string[] = [];
  const t0 = Date.now() - 60_000;
  for (let from = 0; from < count; from += 2_000) {
    const batch = Array.from({ length: Math.min(2_000, count - from) }, (_, k) => {
      const i = from + k;
      return {
        id: randomUUID(), scheduleId: schedules[i % schedules.length], scheduledFor: new Date(t0 + i), trigger: 'schedule', status: 'success',
        result: {}, executionId: null, createdAt: new Date(t0 + i),
      };
    });
    await db.$transaction((tx) => insertRuns(tx, batch));
    for (const r of batch) paths.push(`/api/v1/checkins/${checkinToken(key, r.id)}`);
  }
  await db.run.updateMany({ where: { scheduleId: { in: schedules } }, data: { outcome: 'pending', startedAt: new Date(t0), outcomeDueAt: new Date(Date.now() + 86_400_000) } });
  return paths.sort(() => Math.random() - 0.5);
}

/** One autocannon run; `next` gives each request's path. Returns requests/s and unexpected answers. */
async function drive(method: 'GET' | 'POST', expected: number, next: () => string, seconds: number): Promise<{ rps: number; unexpected: number; total: number }> {
  const r = await autocannon({
    url: BASE,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 30,
    requests: [{ method, setupRequest: (req: AutocannonRequest) => ({ ...req, path: next() }) }],
  });
  const unexpected = (expected === 404 ? r['2xx'] : r.non2xx) + r.errors + r.timeouts;
  return { rps: r.requests.average, unexpected, total: r.requests.total };
}

async function checkinsVsTrivial(): Promise<{ checkins: number; trivial: number; ratio: number; moved: number; answered: number }> {
  const t = await createTestDb('sqlite');
  try {
    const ctx = await seed(t.db, undefined);
    const schedules = await insertSchedules(
      t.db,
      Array.from({ length: 100 }, (_, i) => ({ revisionId: ctx.schedulerRevisionId, alias: `job-${i}`, createdBy: { type: 'org' as const, id: ctx.orgId }, invocationTarget: TARGET, nextFireAt: null })),
    );
    await t.db.schedule.updateMany({ where: { id: { in: schedules } }, data: { completionExpectSeconds: 3600 } });
    // Enough open runs that no check-in repeats a token (each token is rate limited to 30 a minute).
    const paths = await openRuns(t.db, schedules, QUICK ? 30_000 : 60_000);
    await t.db.$disconnect();
    let cursor = 0;
    const nextCheckin = () => paths[cursor++ % paths.length];
    const web = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--web-only'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, PORT: String(PORT), HOSTNAME: '127.0.0.1', DATABASE_URL: t.url, SCHEDULER_SECRET_KEY: SERVER_KEY.toString('hex'), NODE_ENV: 'production' },
    });
    try {
      await waitForWeb(web, BASE);
      const probe = await fetch(`${BASE}${nextCheckin()}`, { method: 'POST' });
      if (probe.status !== 200) throw new Error(`bench: a check-in answered ${probe.status}: ${await probe.text()}`);
      await drive('GET', 404, () => '/api/bench-trivial', 2);
      await drive('POST', 200, nextCheckin, 2);
      const trivial: number[] = [];
      const checkins: number[] = [];
      const ratios: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const a = await drive('GET', 404, () => '/api/bench-trivial', DURATION);
        const b = await drive('POST', 200, nextCheckin, DURATION);
        if (a.unexpected || b.unexpected) throw new Error(`bench: unexpected answers (trivial ${a.unexpected}, check-ins ${b.unexpected})`);
        trivial.push(a.rps);
        checkins.push(b.rps);
        ratios.push(b.rps / a.rps);
        console.log(`  round ${r + 1}: trivial ${fmt(a.rps)} req/s, check-ins ${fmt(b.rps)} req/s (${fmt(b.rps / a.rps, 2)}×)`);
      }
      if (cursor > paths.length) console.log(`note: ${cursor - paths.length} check-ins repeated a token (answered without a change)`);
      const db = (await import('../lib/db')).createDb(t.url);
      try {
        const moved = await db.run.count({ where: { outcome: 'succeeded' } });
        return { checkins: median(checkins), trivial: median(trivial), ratio: median(ratios), moved, answered: cursor };
      } finally {
        await db.$disconnect();
      }
    } finally {
      await stopWeb(web);
    }
  } finally {
    await t.cleanup();
  }
}

/** Fires/s of `FIRES` due workflow occurrences through one real worker, with or without `completion`. */
async function fireRate(completion: boolean): Promise<number> {
  const t = await createTestDb('sqlite');
  let worker: ChildProcess | null = null;
  try {
    const ctx = await seed(t.db, undefined);
    await t.db.schedule.updateMany({ data: { enabled: false, nextFireAt: null } });
    const far = new Date(Date.UTC(2099, 0, 1));
    const fixture = (description: string) => ({ revisionId: ctx.schedulerRevisionId, createdBy: { type: 'org' as const, id: ctx.orgId }, cronExpression: '0 0 1 1 ? *', invocationTarget: TARGET, nextFireAt: far, description });
    await insertSchedules(t.db, [...Array.from({ length: FIRES }, () => fixture('due')), ...Array.from({ length: 20 }, () => fixture('warm'))]);
    if (completion) await t.db.schedule.updateMany({ where: { description: { in: ['due', 'warm'] } }, data: { completionExpectSeconds: 3600 } });
    worker = spawn(process.execPath, workerArgv(), {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DATABASE_URL: t.url, LOG_LEVEL: 'warn', WORKER_POLL_INTERVAL_MS: '50', WORKFLOW_EXECUTIONS_PER_SESSION_PER_MINUTE: String(FIRES * 10) },
    });
    const until = Date.now() + 60_000;
    while ((await t.db.workerHeartbeat.count()) < 1) {
      if (Date.now() > until) throw new Error('bench: the worker did not start within 60 s');
      await sleep(100);
    }
    // Warm-up fires, untimed: the worker has compiled its statements.
    await t.db.schedule.updateMany({ where: { description: 'warm' }, data: { nextFireAt: new Date(Date.now() - 1000) } });
    while ((await t.db.run.count()) < 20) await sleep(20);
    await sleep(200);
    // ONE statement makes the backlog due: its commit is the instant the backlog appears.
    await t.db.schedule.updateMany({ where: { description: 'due' }, data: { nextFireAt: new Date(Date.now() - 1000) } });
    const start = Date.now();
    while ((await t.db.run.count()) - 20 < FIRES) {
      if (Date.now() - start > 600_000) throw new Error('bench: the backlog was not drained in 10 minutes');
      await sleep(20);
    }
    const seconds = (Date.now() - start) / 1000;
    const ok = await t.db.run.count({ where: { status: 'success', ...(completion ? { outcome: 'pending' } : { outcome: null }) } });
    if (ok !== FIRES + 20) throw new Error(`bench: ${FIRES + 20 - ok} runs did not succeed with the expected outcome`);
    return FIRES / seconds;
  } finally {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((r) => worker!.once('exit', r));
      worker.kill('SIGTERM');
      await exited;
    }
    await t.cleanup();
  }
}

async function main(): Promise<void> {
  console.log(`bench:checkins — ${ROUNDS} rounds, ${DURATION} s each at ${CONNECTIONS} connections; ${FIRES} fires a round (SQLite)`);
  const c = await checkinsVsTrivial();
  console.log(`check-ins/s (web process): ${fmt(c.checkins)}   trivial route/s: ${fmt(c.trivial)}   ratio ${fmt(c.ratio, 2)} (goal ≥ 0.5: ${c.ratio >= 0.5 ? 'met' : 'NOT met'})`);
  console.log(`  ${fmt(c.answered)} check-ins sent, ${fmt(c.moved)} outcomes moved to succeeded`);
  if (CHECKINS_ONLY) return;
  const with_: number[] = [];
  const without: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const b = await fireRate(false);
    const a = await fireRate(true);
    without.push(b);
    with_.push(a);
    ratios.push(a / b);
    console.log(`  round ${r + 1}: without ${fmt(b)} fires/s, with completion ${fmt(a)} fires/s`);
  }
  const ratio = median(ratios);
  console.log(`fire path: with completion ${fmt(median(with_))} fires/s, without ${fmt(median(without))} fires/s, ratio ${fmt(ratio, 2)} (goal ≥ 0.9: ${ratio >= 0.9 ? 'met' : 'NOT met'})`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
