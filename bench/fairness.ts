/**
 * Fair delivery benchmark (SPEC §2 tenants apart, §13): does org B with 200 hanging webhooks delay org
 * A's canary webhook? Through the real fire path: a real worker process (`worker/main.ts`, default pool
 * SCHEDULER_DELIVERY_CONCURRENCY 64 with its per-org and per-schedule caps), a fresh SQLite database, a
 * real receiver on loopback that answers A at once and never answers B (each B request holds its slot
 * until the webhook's timeout).
 *
 *   npm run bench:fairness                  (npx tsx bench/fairness.ts; TEST_PORT_BASE picks the receiver's port)
 *   npm run bench:fairness -- --quick       (fewer canaries)
 *   npm run bench:fairness -- --uncapped    (also a third phase: a worker whose org cap is the whole pool,
 *                                            i.e. the pool without fairness, for comparison)
 *
 * Time is compressed: A's "minutely" canary is a one-time webhook every CANARY_EVERY_MS (2 s) instead of
 * every minute, all inserted before the phase starts (so the worker sleeps until each is due, as for a
 * recurring schedule); B's 200 schedules fire together at the phase's start, each hanging for its
 * timeout (B_TIMEOUT_S), as the finding's once-a-minute wave does. A canary's lateness = when the
 * receiver had its request − when it was due.
 *
 * Each phase starts a fresh worker process and waits for one warm-up webhook of A (not measured: a
 * cold process's first delivery loads modules and makes the scheduler's signing secret).
 * Phases, in one run, one worker process each: B idle (A alone); B hanging (B's wave, then A's canaries
 * beside it; at the end B's schedules are deleted and the B requests that still arrive afterwards are
 * counted: queued attempts must be cancelled, not sent); optionally the same without caps.
 * Printed: A's lateness p50/p99 per phase and the p99 ratio hanging / idle; never a pass/fail on time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../lib/db';
import { insertSchedules } from '../lib/testing/insert-schedules';
import { startReceiver, type Receiver } from '../lib/testing/receiver';
import { createTenant, type Tenant } from '../lib/testing/tenant';
import { createTestDb } from '../lib/testing/test-db';
import { seed } from '../prisma/seed';
import { workerArgv } from '../worker/launch';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.argv.includes('--quick');
const UNCAPPED = process.argv.includes('--uncapped');
const CANARIES = QUICK ? 10 : 30;
const CANARY_EVERY_MS = 2_000;
const B_WEBHOOKS = 200;
const B_TIMEOUT_S = 30;

const ms = (x: number) => Math.round(x);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];

/** One-time webhooks of `t` due at `dues[i]` to `path/<i>`. */
function webhooks(db: Db, t: { orgId: string; revision: Pick<Tenant['revision'], 'id'> }, receiver: Receiver, pathPrefix: string, dues: Date[], timeoutS: number) {
  return insertSchedules(
    db,
    dues.map((due, i) => ({
      revisionId: t.revision.id,
      createdBy: { type: 'org' as const, id: t.orgId },
      invocationTargetType: 'http',
      invocationTarget: { url: receiver.url(`${pathPrefix}/${i}`), timeout_seconds: timeoutS },
      repeat: 'one_time' as const,
      invocationTime: due.toISOString().slice(0, 19),
      timezone: 'UTC',
      nextFireAt: due,
    })),
  );
}

function startWorker(url: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, workerArgv(), {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn', SCHEDULER_HTTP_ALLOWED_HOSTS: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function stopWorker(worker: ChildProcess): Promise<void> {
  if (worker.exitCode !== null || worker.signalCode !== null) return;
  const exited = new Promise((r) => worker.once('exit', r));
  worker.kill('SIGKILL');
  await exited;
}

async function main() {
  const t = await createTestDb('sqlite');
  const receiver = await startReceiver((req) => (req.path.startsWith('/b/') ? 'hang' : { status: 200, body: 'ok' }));
  let worker: ChildProcess | null = null;
  try {
    const ctx = await seed(t.db, undefined);
    const acme = { orgId: ctx.orgId, revision: { id: ctx.schedulerRevisionId } };
    const arrivals = (prefix: string) => receiver.requests.filter((r) => r.path.startsWith(prefix));

    /** A's canaries due every CANARY_EVERY_MS from a whole second ≥ 2 s ahead; returns each one's lateness, in ms. */
    /** A fresh worker process's first webhook (module loading, the scheduler's first signing secret), not measured. */
    const warmUp = async (phase: string) => {
      const due = new Date(Math.ceil((Date.now() + 1_000) / 1000) * 1000);
      await webhooks(t.db, acme, receiver, `/warm/${phase}`, [due], 10);
      for (const until = Date.now() + 30_000; Date.now() < until && arrivals(`/warm/${phase}/`).length === 0; ) await sleep(100);
    };

    const canaryRound = async (phase: string, beside?: () => Promise<void>) => {
      const first = Math.ceil((Date.now() + 2_000) / 1000) * 1000;
      const dues = Array.from({ length: CANARIES }, (_, i) => new Date(first + i * CANARY_EVERY_MS));
      await webhooks(t.db, acme, receiver, `/a/${phase}`, dues, 10);
      await beside?.();
      const last = dues[dues.length - 1].getTime();
      // performance.now() (the receiver's clock) ↔ epoch ms, measured once.
      const offset = Date.now() - performance.now();
      for (const until = last + 60_000; Date.now() < until && arrivals(`/a/${phase}/`).length < CANARIES; ) await sleep(100);
      return dues.map((due, i) => {
        const got = arrivals(`/a/${phase}/${i}`)[0];
        // A canary that never arrived counts as late as the wait: the figures never hide it.
        return (got ? got.at + offset : Date.now()) - due.getTime();
      });
    };

    const phases: { name: string; late: number[]; afterDelete?: number }[] = [];
    const hangingPhase = async (name: string, env: Record<string, string>) => {
      const b = await createTenant(t.db, `globex-${name}`);
      worker = startWorker(t.url, env);
      await sleep(3_000); // the worker is up and idle
      await warmUp(name);
      const late = await canaryRound(name, async () => {
        // B's wave: 200 hanging webhooks due a second before A's first canary.
        await webhooks(t.db, b, receiver, `/b/${name}`, Array(B_WEBHOOKS).fill(new Date(Math.ceil(Date.now() / 1000) * 1000 + 1_000)), B_TIMEOUT_S);
      });
      // B deletes its schedules: what it had queued must not be sent afterwards.
      await t.db.schedule.deleteMany({ where: { revisionId: b.revision.id } });
      const sentBefore = arrivals(`/b/${name}/`).length;
      await sleep(B_TIMEOUT_S * 1000 + 5_000);
      phases.push({ name, late, afterDelete: arrivals(`/b/${name}/`).length - sentBefore });
      await stopWorker(worker);
    };

    worker = startWorker(t.url);
    await sleep(3_000);
    await warmUp('idle');
    phases.push({ name: 'idle', late: await canaryRound('idle') });
    await stopWorker(worker);
    await hangingPhase('hanging', {});
    if (UNCAPPED) await hangingPhase('uncapped', { SCHEDULER_DELIVERY_ORG_CONCURRENCY: '64', SCHEDULER_DELIVERY_SCHEDULE_CONCURRENCY: '64' });

    const idle = phases[0];
    const i99 = pct(idle.late, 99);
    console.log(`org A: ${CANARIES} canary webhooks, one every ${CANARY_EVERY_MS / 1000} s (a compressed minutely canary); org B: ${B_WEBHOOKS} webhooks to a receiver that never answers (timeout ${B_TIMEOUT_S} s), due together just before A's first canary`);
    console.log('pool: SCHEDULER_DELIVERY_CONCURRENCY 64, per org 16, per schedule 4 (the defaults) unless said otherwise');
    for (const p of phases) {
      const p99 = pct(p.late, 99);
      const label = { idle: 'B idle', hanging: 'B hanging', uncapped: 'B hanging, no per-org cap (org cap = pool 64)' }[p.name] ?? p.name;
      const ratio = p.name === 'idle' ? '' : `; p99 ratio to B idle ${(p99 / Math.max(1, i99)).toFixed(2)}×`;
      const deleted = p.afterDelete === undefined ? '' : `; B requests sent after B deleted its schedules: ${p.afterDelete}`;
      console.log(`A's lateness (due → received), ${label}: p50 ${ms(pct(p.late, 50))} ms, p99 ${ms(p99)} ms, max ${ms(Math.max(...p.late))} ms${ratio}${deleted}`);
      console.log(`  each canary, in order (ms): ${p.late.map(ms).join(' ')}`);
    }
    const h99 = pct(phases[1].late, 99);
    const met = h99 <= 2_000 && h99 <= 1.5 * Math.max(i99, 1);
    console.log(`goal: A's p99 with B hanging ≤ 2000 ms and ≤ 1.5 × its p99 with B idle (${ms(i99)} ms): ${ms(h99)} ms, ${met ? 'met' : 'missed'}`);
  } finally {
    if (worker) await stopWorker(worker);
    await receiver.close();
    await t.cleanup();
  }
}

await main();
