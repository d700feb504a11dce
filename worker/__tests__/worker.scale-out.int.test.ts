/**
 * SPEC §8 with several workers: four worker processes over the same 2,000 due occurrences record
 * exactly 2,000 runs (PostgreSQL: they share the backlog through FOR UPDATE SKIP LOCKED; SQLite:
 * their batches take turns on the write lock). Then SIGTERM stops each one gracefully (exit 0).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { childEnv } from '../../lib/config';
import type { Db, Dialect } from '../../lib/db';
import { insertSchedules } from '../../lib/testing/insert-schedules';
import { createTestDb } from '../../lib/testing/test-db';
import { seed } from '../../prisma/seed';
import { workerArgv } from '../launch';

const ROOT = path.resolve(__dirname, '../..');
const TARGET = {
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
  input_data: [],
};
const WORKERS = 4;
const SCHEDULES = 2000;

let db: Db;
let url: string;
let dialect: Dialect;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, url, dialect, cleanup } = await createTestDb());
});
afterAll(async () => cleanup());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const exited = (c: ChildProcess) => new Promise<number | null>((r) => (c.exitCode !== null ? r(c.exitCode) : c.once('exit', (code) => r(code))));

it(`§8 ${WORKERS} workers over the same ${SCHEDULES} due occurrences record exactly ${SCHEDULES} runs`, async () => {
  const ctx = await seed(db, undefined);
  const fired = new Map<number, number>();
  const workers = Array.from({ length: WORKERS }, (_, n) => {
    const child = spawn(process.execPath, workerArgv(), {
      cwd: ROOT,
      env: childEnv({ DATABASE_URL: url, WORKER_POLL_INTERVAL_MS: '100', WORKER_BATCH_SIZE: '50', LOG_LEVEL: 'info', WORKFLOW_EXECUTIONS_PER_SESSION_PER_MINUTE: '100000' }),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) if (line.includes('"occurrence fired"')) fired.set(n, (fired.get(n) ?? 0) + 1);
    });
    return child;
  });
  try {
    // All four up (each has written its first heartbeat) before anything is due.
    const until = Date.now() + 60_000;
    while (Date.now() < until && (await db.workerHeartbeat.count()) < WORKERS) await sleep(100);
    expect(await db.workerHeartbeat.count()).toBe(WORKERS);

    const dueAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000);
    const local = dueAt.toISOString().slice(0, 19); // one_time: fires once, then completes
    const ids = await insertSchedules(
      db,
      Array.from({ length: SCHEDULES }, () => ({
        revisionId: ctx.schedulerRevisionId,
        createdBy: { type: 'org' as const, id: ctx.orgId },
        invocationTarget: TARGET,
        repeat: 'one_time' as const,
        invocationTime: local,
        nextFireAt: dueAt,
      })),
    );
    const mine = { revisionId: ctx.schedulerRevisionId, repeat: 'one_time' };
    while (Date.now() < until && (await db.schedule.count({ where: { ...mine, state: 'active' } })) > 0) await sleep(200);

    const runs = await db.run.findMany({ where: { schedule: mine }, select: { id: true, scheduleId: true, status: true } });
    expect(new Set(runs.map((r) => r.scheduleId))).toEqual(new Set(ids));
    expect(runs.length).toBe(SCHEDULES);
    expect(new Set(runs.map((r) => r.scheduleId)).size).toBe(SCHEDULES);
    expect(runs.every((r) => r.status === 'success')).toBe(true);
    const executions = await db.execution.findMany({ where: { scheduleId: { not: null } }, select: { runId: true } });
    expect(new Set(executions.map((e) => e.runId))).toEqual(new Set(runs.map((r) => r.id)));
    expect(executions.length).toBe(SCHEDULES);

    for (const w of workers) w.kill('SIGTERM');
    expect(await Promise.all(workers.map(exited))).toEqual(Array(WORKERS).fill(0));
    const shares = [...Array(WORKERS).keys()].map((n) => fired.get(n) ?? 0);
    console.log(`${dialect}: fires per worker ${shares.join(' / ')}`);
    expect(shares.reduce((a, b) => a + b, 0)).toBe(SCHEDULES);
    // PostgreSQL: SKIP LOCKED hands different rows to concurrent claims, so the work is shared.
    if (dialect === 'postgresql') expect(shares.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
  } finally {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  }
}, 180_000);
