/**
 * SPEC §8 "exactly once" through crashes: worker processes are killed with SIGKILL at random moments
 * and restarted while 120 occurrences come due; afterwards every occurrence has exactly one run and
 * one workflow execution. Then SIGTERM stops the last worker gracefully (exit 0).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../lib/db';
import { createSchedule } from '../../lib/schedules';
import { createTestDb } from '../../lib/testing/sqlite-db';
import { seed } from '../../prisma/seed';

const ROOT = path.resolve(__dirname, '../..');
const TARGET = {
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
};
const LIMITS = { schedulesPerRevision: 1000, minIntervalSeconds: 60, runRetentionDays: 30, catchupWindowSeconds: 300, executionsPerSessionPerMinute: 100_000 };

let db: Db;
let url: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ db, url, cleanup } = await createTestDb());
});
afterAll(async () => cleanup());

function startWorker(): ChildProcess {
  // `node --import tsx` is one process, so SIGKILL/SIGTERM reach the worker itself.
  return spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, WORKER_POLL_INTERVAL_MS: '100', WORKER_BATCH_SIZE: '10', LOG_LEVEL: 'error', WORKFLOW_EXECUTIONS_PER_SESSION_PER_MINUTE: '100000' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const exited = (c: ChildProcess) => new Promise<number | null>((r) => (c.exitCode !== null ? r(c.exitCode) : c.once('exit', (code) => r(code))));

it('§8 SIGKILL at random moments never loses or duplicates a fire', async () => {
  const ctx = await seed(db, undefined);
  const rev = await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } });
  const actor = { type: 'org' as const, id: ctx.orgId, roleCap: null };
  const start = Date.now();
  const ids: string[] = [];
  // 120 one-time schedules due over ~20 s, in bursts of 6 every second, starting 6 s from now.
  for (let i = 0; i < 120; i++) {
    const at = new Date(Math.ceil(start / 1000) * 1000 + 6000 + Math.floor(i / 6) * 1000);
    const local = at.toISOString().slice(0, 19);
    const s = await createSchedule({
      db, actor, revision: { id: rev.id, blobId: rev.blobId }, limits: LIMITS, now: new Date(),
      input: { repeat: 'one_time', invocation_time: local, timezone: 'UTC', description: `burst ${i}`, invocation_target: TARGET },
    });
    ids.push(s.id);
  }

  let kills = 0;
  const deadline = start + 30_000;
  while (Date.now() < deadline || kills < 10) {
    const w = startWorker();
    await sleep(700 + Math.random() * 1800);
    w.kill('SIGKILL');
    await exited(w);
    kills++;
  }
  // A last worker finishes whatever is left, then stops gracefully.
  const lastStarted = new Date();
  const last = startWorker();
  const until = Date.now() + 60_000;
  // Wait until it is up (its first heartbeat), so SIGTERM meets its handler, not Node's default.
  while (Date.now() < until && (await db.workerHeartbeat.count({ where: { lastSeenAt: { gte: lastStarted } } })) === 0) await sleep(200);
  while (Date.now() < until && (await db.schedule.count({ where: { id: { in: ids }, state: 'active' } })) > 0) await sleep(500);
  last.kill('SIGTERM');
  expect(await exited(last)).toBe(0);

  expect(kills).toBeGreaterThanOrEqual(10);
  const runs = await db.run.findMany({ where: { scheduleId: { in: ids } } });
  const perSchedule = new Map<string, number>();
  for (const r of runs) perSchedule.set(r.scheduleId, (perSchedule.get(r.scheduleId) ?? 0) + 1);
  expect(ids.filter((id) => perSchedule.get(id) !== 1)).toEqual([]);
  expect(runs.every((r) => r.status === 'success')).toBe(true);
  const executions = await db.execution.findMany({ where: { scheduleId: { in: ids } } });
  expect(executions.length).toBe(120);
  expect(new Set(executions.map((e) => e.runId)).size).toBe(120);
  expect(await db.schedule.count({ where: { id: { in: ids }, state: 'completed' } })).toBe(120);
}, 180_000);
