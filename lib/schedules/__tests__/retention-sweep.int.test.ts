/**
 * The retention sweep (SPEC §9 `scheduler.run_retention_days`, `workflow.execution_retention_days`;
 * docs/decisions.md 116–118): which executions go and which stay, the bounded batches of the
 * execution phase (its cursor steps over kept executions), the link the sweep relies on as the fire
 * path writes it, and on SQLite the pages given back. Runs on the TEST_DATABASE dialect.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETE_BATCH_SQL, deleteExpiredSql, insertExecutions, insertRuns, sqliteSpace, withSqliteConnection, type Db } from '../../db';
import { insertSchedules } from '../../testing/insert-schedules';
import { TEST_LIMITS } from '../../testing/limits';
import { seedHistory } from '../../testing/seed-history';
import { createTestDb, testDialect, type TestDb } from '../../testing/test-db';
import { seed } from '../../../prisma/seed';
import { RetentionSweep, SWEEP_SQLITE_CACHE_KIB, type SweepBatch } from '../operations/retention-sweep';
import { runSchedule } from '../runs/run-schedule';

const DAY = 86_400_000;
/** 2031-03-01T12:00:00Z: the sweeps' `now`. */
const NOW = new Date('2031-03-01T12:00:00.000Z');
const TARGET = {
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
  input_data: [],
};

let t: TestDb;
let db: Db;
let ctx: Awaited<ReturnType<typeof seed>>;
let sessionId: string;
let definitionId: string;
let scheduleId: string;
beforeAll(async () => {
  t = await createTestDb();
  db = t.db;
  ctx = await seed(db, undefined);
  sessionId = (await db.workflowSession.findFirstOrThrow({ where: { revisionId: ctx.proceduresRevisionId, alias: 'nightly-batch' } })).id;
  definitionId = (await db.definition.findFirstOrThrow({ where: { revisionId: ctx.proceduresRevisionId, alias: 'triage' } })).id;
  [scheduleId] = await insertSchedules(db, [{ revisionId: ctx.schedulerRevisionId, createdBy: { type: 'org', id: ctx.orgId }, invocationTarget: TARGET, nextFireAt: null }]);
});
afterAll(() => t.cleanup());

/** An execution created `ageMs` before NOW, naming run `runId` (null: created by `create_execution`, no run). */
function execution(ageMs: number, runId: string | null) {
  return {
    id: randomUUID(), revisionId: ctx.proceduresRevisionId, sessionId, definitionId, description: null, inputData: [],
    createdByType: 'org', createdById: ctx.orgId, scheduleId: runId ? scheduleId : null, runId, createdAt: new Date(NOW.getTime() - ageMs),
  };
}
/** A run created `ageMs` before NOW naming `executionId`. */
function run(ageMs: number, executionId: string | null, id = randomUUID()) {
  const at = new Date(NOW.getTime() - ageMs);
  return { id, scheduleId, scheduledFor: new Date(at.getTime() - Math.floor(Math.random() * 1e9)), trigger: 'manual', status: 'success', result: {}, executionId, createdAt: at };
}
/** An execution and the run that links it (both ways, as a fire writes them). */
function pair(execAgeMs: number, runAgeMs = execAgeMs) {
  const runId = randomUUID();
  const e = execution(execAgeMs, runId);
  return { e, r: run(runAgeMs, e.id, runId) };
}
async function insert(pairs: { e?: ReturnType<typeof execution>; r?: ReturnType<typeof run> }[]) {
  await db.$transaction(async (tx) => {
    await insertExecutions(tx, pairs.flatMap((p) => (p.e ? [p.e] : [])));
    await insertRuns(tx, pairs.flatMap((p) => (p.r ? [p.r] : [])));
  });
}
async function sweepAll(sweep: RetentionSweep, now = NOW): Promise<SweepBatch[]> {
  sweep.start(now);
  const out: SweepBatch[] = [];
  for (let b = await sweep.step(); ; b = await sweep.step()) {
    out.push(b);
    if (b.done) return out;
  }
}
const exists = async (id: string) => (await db.execution.count({ where: { id } })) === 1;
const runExists = async (id: string) => (await db.run.count({ where: { id } })) === 1;

describe('which executions a sweep deletes', () => {
  it('both retentions 30 days: expired pairs go; an old execution a kept run links stays; unlinked old ones go; the cutoff is exclusive', async () => {
    const expired = pair(30 * DAY + 1);
    const atCutoff = pair(30 * DAY);
    const fresh = pair(DAY);
    // An execution 40 days old that a fresh (kept) run links: kept with its run.
    const linkedOld = pair(40 * DAY, DAY);
    // Created by create_execution (no run), 31 days old: goes.
    const unlinked = { e: execution(31 * DAY, null) };
    // Names a fresh run that does not name it back: not linked, goes.
    const halfLinked = pair(31 * DAY, DAY);
    halfLinked.r.executionId = null;
    await insert([expired, atCutoff, fresh, linkedOld, unlinked, halfLinked]);

    const batches = await sweepAll(new RetentionSweep({ db, runRetentionDays: 30, executionRetentionDays: 30 }));
    expect(await runExists(expired.r.id)).toBe(false);
    expect(await exists(expired.e.id)).toBe(false); // its run went first, in the same sweep
    expect([await runExists(atCutoff.r.id), await exists(atCutoff.e.id)]).toEqual([true, true]);
    expect([await runExists(fresh.r.id), await exists(fresh.e.id)]).toEqual([true, true]);
    expect([await runExists(linkedOld.r.id), await exists(linkedOld.e.id)]).toEqual([true, true]);
    expect(await exists(unlinked.e.id)).toBe(false);
    expect([await runExists(halfLinked.r.id), await exists(halfLinked.e.id)]).toEqual([true, false]);
    const executions = batches.filter((b) => b.phase === 'executions');
    expect(executions.reduce((n, b) => n + b.deleted, 0)).toBe(3);
    expect(executions.every((b) => b.cutoff?.toISOString() === '2031-01-30T12:00:00.000Z')).toBe(true);
  });

  it('execution retention shorter than run retention: a linked execution stays as long as its run, an unlinked one goes at its own cutoff', async () => {
    const linked = pair(10 * DAY); // run kept (30 days), execution past 7 days
    const unlinked = { e: execution(10 * DAY, null) };
    const both = pair(31 * DAY);
    await insert([linked, unlinked, both]);
    await sweepAll(new RetentionSweep({ db, runRetentionDays: 30, executionRetentionDays: 7 }));
    expect([await runExists(linked.r.id), await exists(linked.e.id)]).toEqual([true, true]);
    expect(await exists(unlinked.e.id)).toBe(false);
    expect([await runExists(both.r.id), await exists(both.e.id)]).toEqual([false, false]);
  });

  it('execution retention longer than run retention: the run goes, its execution stays until its own cutoff', async () => {
    const middle = pair(40 * DAY);
    const ancient = pair(61 * DAY);
    await insert([middle, ancient]);
    await sweepAll(new RetentionSweep({ db, runRetentionDays: 30, executionRetentionDays: 60 }));
    expect([await runExists(middle.r.id), await exists(middle.e.id)]).toEqual([false, true]);
    expect([await runExists(ancient.r.id), await exists(ancient.e.id)]).toEqual([false, false]);
    await db.execution.deleteMany({ where: { id: middle.e.id } });
  });
});

it('the execution phase reads at most `limit` rows per statement and steps past the ones it keeps', async () => {
  // 40 old executions alternately kept (a fresh run links them) and not linked, all older than the cutoff.
  const rows = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? pair(35 * DAY + i * 1000, DAY + i) : { e: execution(35 * DAY + i * 1000, null) }));
  await insert(rows);
  const batches = await sweepAll(new RetentionSweep({ db, runRetentionDays: 30, executionRetentionDays: 30, maxBatch: 10 }));
  const executions = batches.filter((b) => b.phase === 'executions');
  for (const b of executions) {
    expect(b.limit).toBeLessThanOrEqual(10);
    expect(b.scanned).toBeLessThanOrEqual(b.limit);
    expect(b.deleted).toBeLessThanOrEqual(b.scanned);
  }
  // Every old execution is looked at once: 20 kept + the earlier tests' kept ones, 20 deleted.
  expect(executions.reduce((n, b) => n + b.deleted, 0)).toBe(20);
  expect(executions.length).toBeGreaterThanOrEqual(4);
  for (const [i, p] of rows.entries()) expect(await exists(p.e!.id)).toBe(i % 2 === 0);
  // A second sweep finds nothing more to delete and still reads each kept one once.
  const again = (await sweepAll(new RetentionSweep({ db, runRetentionDays: 30, executionRetentionDays: 30, maxBatch: 10 }))).filter((b) => b.phase === 'executions');
  expect(again.reduce((n, b) => n + b.deleted, 0)).toBe(0);
  await db.run.deleteMany({ where: { executionId: { in: rows.map((p) => p.e!.id) } } });
  await db.execution.deleteMany({ where: { id: { in: rows.map((p) => p.e!.id) } } });
});

it('the link the sweep follows is the one a fire writes: run.execution_id and execution.run_id name each other', async () => {
  const revision = await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } });
  const fired = await runSchedule({ db, actor: { type: 'org', id: ctx.orgId, roleCap: null }, revision: { id: revision.id, blobId: revision.blobId }, scheduleRef: scheduleId, now: new Date(NOW.getTime() - DAY), limits: TEST_LIMITS });
  expect(fired.status).toBe('success');
  const r = await db.run.findUniqueOrThrow({ where: { id: fired.id } });
  expect(r.executionId).not.toBeNull();
  const e = await db.execution.findUniqueOrThrow({ where: { id: r.executionId! } });
  expect(e.runId).toBe(r.id);
});

it('each delete names its batch by row address as the created_at walk returns it, never by looking ids up (decision 380)', async () => {
  // A per-row probe of the random `id` index made a deleted row cost 2–5× more at 1M rows than at 1k
  // (bench/retention.ts); the delete by rowid / ctid keeps the walk's order and skips that index.
  const plans: string[] = [];
  for (const sql of [deleteExpiredSql('runs'), deleteExpiredSql('activity'), DELETE_BATCH_SQL.toKey, DELETE_BATCH_SQL.toCutoff]) {
    const stmt = sql[testDialect()];
    const params = (stmt.match(/\?|\$\d+/g) ?? []).map(() => null);
    const rows = testDialect() === 'sqlite'
      ? (await db.$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${stmt}`, ...params)).map((r) => r.detail)
      : (await db.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${stmt}`, ...params)).map((r) => r['QUERY PLAN']);
    plans.push(rows.join('\n'));
  }
  for (const [i, plan] of plans.entries()) {
    const table = i === 1 ? 'activity' : i === 0 ? 'runs' : 'executions';
    if (testDialect() === 'sqlite') {
      expect(plan).toMatch(new RegExp(`SEARCH ${table} USING INTEGER PRIMARY KEY \\(rowid=\\?\\)`));
      expect(plan).not.toMatch(new RegExp(`sqlite_autoindex_${table}_`));
    } else {
      // A TID scan once the table is more than a few pages (here it is nearly empty, so a scan may do).
      expect(plan).toMatch(/ctid = ANY/);
      expect(plan).not.toMatch(new RegExp(`${table}_pkey`));
    }
  }
});

describe.skipIf(testDialect() !== 'sqlite')('SQLite gives the space back', () => {
  it('a migrated file is in incremental auto-vacuum mode; after a sweep its free pages are gone and the file is smaller', async () => {
    expect((await sqliteSpace(db)).incremental).toBe(true);
    const history = await db.blob.create({ data: { orgId: ctx.orgId, alias: 'vacuum-history', type: 'scheduler', name: 'History' } });
    const revision = await db.revision.create({ data: { blobId: history.id, state: 'managed' } });
    await insertSchedules(db, Array.from({ length: 50 }, () => ({ revisionId: revision.id, createdBy: { type: 'org' as const, id: ctx.orgId }, invocationTarget: TARGET, nextFireAt: null })));
    await seedHistory(db, { schedulerRevisionId: revision.id, workflowRevisionId: ctx.proceduresRevisionId, sessionId, definitionId, orgId: ctx.orgId }, { count: 20_000, from: new Date(NOW.getTime() - 40 * DAY) });
    const file = () => withSqliteConnection(db, (c) => {
      c.pragma('wal_checkpoint(TRUNCATE)');
      return Number(c.pragma('page_count', { simple: true }));
    });
    const before = await file();
    const batches = await sweepAll(new RetentionSweep({ db, runRetentionDays: 30, executionRetentionDays: 30 }));
    expect(batches.filter((b) => b.phase === 'runs').reduce((n, b) => n + b.deleted, 0)).toBe(20_000);
    const vacuum = batches.filter((b) => b.phase === 'vacuum');
    expect(vacuum.length).toBeGreaterThan(0);
    expect((await sqliteSpace(db)).freePages).toBe(0);
    const after = await file();
    console.log(`retention vacuum: ${before} pages before the sweep, ${after} after (${vacuum.reduce((n, b) => n + b.deleted, 0)} given back in ${vacuum.length} statements)`);
    expect(after).toBeLessThan(before / 2);
    // The sweep's commits put the connection's auto-checkpoint back as they found it.
    expect(await withSqliteConnection(db, (c) => Number(c.pragma('wal_autocheckpoint', { simple: true })))).toBe(1000);
  });

  it('a sweep reads through a 64 MiB page cache and gives the connection its own cache back when done (decision 380)', async () => {
    const cache = () => withSqliteConnection(db, (c) => Number(c.pragma('cache_size', { simple: true })));
    const own = await cache();
    expect(own).toBeGreaterThan(-SWEEP_SQLITE_CACHE_KIB); // smaller: KiB are negative
    const sweep = new RetentionSweep({ db, runRetentionDays: 30, executionRetentionDays: 30 });
    sweep.start(NOW);
    let b = await sweep.step();
    expect(b.done).toBe(false);
    expect(await cache()).toBe(-SWEEP_SQLITE_CACHE_KIB);
    while (!b.done) b = await sweep.step();
    expect(await cache()).toBe(own);
  });
});
