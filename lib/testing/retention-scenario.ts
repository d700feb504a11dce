/**
 * Tests and benchmarks only: the retention sweep at scale, as the worker runs it, while another
 * writer commits (worker/__tests__/worker.retention-scale.int.test.ts asserts on it, bench/retention.ts
 * prints it). The caller hands in the worker (`(opts) => new Worker(opts)`: lib/testing may not import
 * worker/).
 *
 * On a fresh migrated database of `dialect`: the seed's catalog; `schedules` minutely schedules
 * holding `oldPairs` executions + runs that expired (created from about a day before the run cutoff
 * up to an hour before it) and `freshPairs` made a day ago; one old execution a fresh run still links
 * (kept), one old execution no run links (swept); `liveSchedules` schedules that come due one after
 * the other while the sweep runs. Then a history writer process starts (lib/testing/history-writer.ts),
 * and a real in-process `Worker` runs its loop with the real clock: at start it sweeps, a statement
 * between two ticks, and fires the live schedules between them. When the sweep reports `done`, the
 * worker and the writer stop and the result says what is left.
 */
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import type { Limits } from '../config';
import { insertExecutions, insertRuns, withSqliteConnection, type Db, type Dialect } from '../db';
import { retentionCutoff, type SweepBatch, type SweepPhase } from '../schedules';
import { seed } from '../../prisma/seed';
import { spawnHistoryWriter, type HistoryWriterReport } from './history-writer';
import { insertSchedules } from './insert-schedules';
import { TEST_LIMITS } from './limits';
import { seedHistory } from './seed-history';
import { createTestDb, type TestDb } from './test-db';

/** What the scenario needs of worker/worker.ts `Worker`. */
export interface SweepingWorker {
  run(): Promise<void>;
  stop(reason: string): void;
  events: { on(event: 'retention:swept', listener: (batch: SweepBatch & { totals: Record<SweepPhase, number> | null }) => void): unknown };
}

export interface RetentionScenarioOptions {
  dialect: Dialect;
  /** `(opts) => new Worker(opts)`: a worker on the scenario's database, with the real clock. */
  worker: (opts: { db: Db; limits: Limits; batchSize: number; pollIntervalMs: number }) => SweepingWorker;
  /** Expired execution + run pairs to sweep. */
  oldPairs: number;
  /** Pairs made a day ago (kept). */
  freshPairs: number;
  /** Schedules the pairs are spread over (each minute of history has one fire per schedule). */
  schedules: number;
  /** Schedules that come due during the sweep, one every `liveEveryMs`. */
  liveSchedules: number;
  liveEveryMs: number;
}

export interface RetentionScenarioResult {
  dialect: Dialect;
  seedMs: { executions: number; runs: number };
  /** Rows of the two tables and the database's size (SQLite: file + WAL; PostgreSQL: both tables with their indexes), before the sweep. */
  before: { runs: number; executions: number; bytes: number };
  /** The same once the sweep is done, the writer stopped and (SQLite) the WAL checkpointed. */
  after: { runs: number; executions: number; bytes: number };
  /** SQLite: file + WAL as the sweep left them at `done` (its own passive checkpoint); PostgreSQL: as `after`. */
  bytesAtDone: number;
  /** Every statement of the sweep, with when it ended (epoch ms). */
  batches: (SweepBatch & { at: number })[];
  totals: Record<SweepPhase, number>;
  /** From the worker's start to the sweep's last statement, ms. */
  sweepMs: number;
  sweepWindow: { start: number; end: number };
  writer: HistoryWriterReport;
  left: {
    /** Expired runs / executions still there (0 expected). */
    oldRuns: number;
    oldExecutions: number;
    freshRuns: number;
    freshExecutions: number;
    linkedOldExecution: boolean;
    unlinkedOldExecution: boolean;
    writerRuns: number;
    writerExecutions: number;
  };
  /** Runs the worker fired during the sweep (live schedules), and how many of them are left. */
  liveFiredDuringSweep: number;
  liveRunsLeft: number;
}

const DAY = 86_400_000;
/** The invocation target of the history's schedules (also lib/testing/retention-scaling.ts). */
export const HISTORY_TARGET = {
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
  input_data: [{ alias: 'ticket_window', value: { hours: 24 } }],
};
const TARGET = HISTORY_TARGET;

/** Run the scenario; the database is dropped at the end. See the file comment. */
export async function runRetentionScenario(opts: RetentionScenarioOptions): Promise<RetentionScenarioResult> {
  return withSweptDb(opts.dialect, (t) => scenario(t.db, t.url, opts));
}

/**
 * `fn` on a fresh test database of `dialect` whose `runs` and `executions` it sweeps; the database is
 * dropped after, also on PostgreSQL where the swept tables keep an autovacuum worker busy.
 */
export async function withSweptDb<T>(dialect: Dialect, fn: (t: TestDb) => Promise<T>): Promise<T> {
  const t = await createTestDb(dialect);
  try {
    return await fn(t);
  } finally {
    if (dialect === 'postgresql') {
      // The swept tables now keep an autovacuum worker busy for a while, and DROP DATABASE cannot end
      // it (test-db.ts): this ALTER cancels it (autovacuum yields to a conflicting lock) and stops it
      // coming back, so the database can be dropped.
      await t.db.$executeRawUnsafe('ALTER TABLE runs SET (autovacuum_enabled = off)').catch(() => undefined);
      await t.db.$executeRawUnsafe('ALTER TABLE executions SET (autovacuum_enabled = off)').catch(() => undefined);
    }
    await t.cleanup();
  }
}

async function scenario(db: Db, url: string, opts: RetentionScenarioOptions): Promise<RetentionScenarioResult> {
  const limits: Limits = { ...TEST_LIMITS, executionsPerSessionPerMinute: 1_000_000 };
  const ctx = await seed(db, undefined);
  const session = await db.workflowSession.findFirstOrThrow({ where: { revisionId: ctx.proceduresRevisionId, alias: 'nightly-batch' } });
  const definition = await db.definition.findFirstOrThrow({ where: { revisionId: ctx.proceduresRevisionId, alias: 'triage' } });
  const writerSession = await db.workflowSession.create({ data: { revisionId: ctx.proceduresRevisionId, alias: 'history-writer', state: 'open' } });
  // The seed's two demo schedules are disabled; the history goes to its own scheduler blob.
  const historyBlob = await db.blob.create({ data: { orgId: ctx.orgId, alias: 'history', type: 'scheduler', name: 'History' } });
  const historyRevision = await db.revision.create({ data: { blobId: historyBlob.id, state: 'managed' } });
  await db.blob.update({ where: { id: historyBlob.id }, data: { defaultRevisionId: historyRevision.id } });
  const by = { type: 'org' as const, id: ctx.orgId };
  await insertSchedules(db, Array.from({ length: opts.schedules }, () => ({ revisionId: historyRevision.id, createdBy: by, invocationTarget: TARGET, nextFireAt: null })), new Date(Date.now() - 60 * DAY));

  const now = Date.now();
  const runCutoff = retentionCutoff(new Date(now), limits.runRetentionDays).getTime();
  const executionCutoff = retentionCutoff(new Date(now), limits.executionRetentionDays).getTime();
  const oldCutoff = Math.min(runCutoff, executionCutoff);
  const target = { schedulerRevisionId: historyRevision.id, workflowRevisionId: ctx.proceduresRevisionId, sessionId: session.id, definitionId: definition.id, orgId: ctx.orgId };
  const oldSpanMs = Math.ceil(opts.oldPairs / opts.schedules) * 60_000;
  const oldSeed = await seedHistory(db, target, { count: opts.oldPairs, from: new Date(oldCutoff - 3_600_000 - oldSpanMs) });
  const freshFrom = new Date(now - DAY);
  await seedHistory(db, target, { count: opts.freshPairs, from: freshFrom });

  // One old execution a fresh (kept) run links, one old execution no run links.
  const [keeperSchedule] = await insertSchedules(db, [{ revisionId: ctx.schedulerRevisionId, createdBy: by, invocationTarget: TARGET, nextFireAt: null }]);
  const linkedOld = randomUUID();
  const unlinkedOld = randomUUID();
  const keptRun = randomUUID();
  const execution = (id: string, runId: string | null, scheduleId: string | null) => ({
    id, revisionId: ctx.proceduresRevisionId, sessionId: session.id, definitionId: definition.id, description: null, inputData: [],
    createdByType: 'org', createdById: ctx.orgId, scheduleId, runId, createdAt: new Date(oldCutoff - 10 * DAY),
  });
  await db.$transaction(async (tx) => {
    await insertExecutions(tx, [execution(linkedOld, keptRun, keeperSchedule), execution(unlinkedOld, null, null)]);
    await insertRuns(tx, [{ id: keptRun, scheduleId: keeperSchedule, scheduledFor: new Date(now - DAY), trigger: 'manual', status: 'success', result: { execution_id: linkedOld }, executionId: linkedOld, createdAt: new Date(now - DAY) }]);
  });

  const [writerSchedule] = await insertSchedules(db, [{ revisionId: ctx.schedulerRevisionId, createdBy: by, invocationTarget: TARGET, nextFireAt: null }]);

  const before = { runs: await db.run.count(), executions: await db.execution.count(), bytes: await databaseBytes(db, url, true) };
  const writer = await spawnHistoryWriter(url, { scheduleId: writerSchedule, workflowRevisionId: ctx.proceduresRevisionId, sessionId: writerSession.id, definitionId: definition.id, orgId: ctx.orgId });
  // Live schedules, due one after the other from the worker's start (minutely after their first
  // fire): the first is due at its first tick, after the sweep's first batch, however fast the sweep
  // (a start a fixed 2 s ahead, taken before the setup above, could fall after a quick sweep's end).
  const liveStart = Date.now();
  const liveIds = await insertSchedules(db, Array.from({ length: opts.liveSchedules }, (_, i) => ({
    revisionId: ctx.schedulerRevisionId, createdBy: by, invocationTarget: TARGET, nextFireAt: new Date(liveStart + i * opts.liveEveryMs),
  })));
  let report: HistoryWriterReport | null = null;
  const batches: (SweepBatch & { at: number })[] = [];
  let totals: Record<SweepPhase, number> | null = null;
  const worker = opts.worker({ db, limits, batchSize: 500, pollIntervalMs: 250 });
  const sweepStart = Date.now();
  let running: Promise<void> | null = null;
  try {
    const done = new Promise<void>((resolve) => {
      worker.events.on('retention:swept', (b) => {
        batches.push({ ...b, at: Date.now() });
        if (b.totals) {
          totals = b.totals;
          resolve();
        }
      });
    });
    running = worker.run();
    await Promise.race([done, running.then(() => Promise.reject(new Error('the worker stopped before its sweep was done')))]);
  } finally {
    worker.stop('scenario over');
    await running?.catch(() => undefined);
    report = await writer.stop();
  }
  const sweepEnd = batches.at(-1)!.at;
  const bytesAtDone = await databaseBytes(db, url, false);
  const oldEnd = oldSeed.end;
  const [oldRuns, oldExecutions, freshRuns, freshExecutions, linked, unlinked, writerRuns, writerExecutions, liveFired, liveLeft] = await Promise.all([
    db.run.count({ where: { createdAt: { lt: oldEnd }, schedule: { revisionId: historyRevision.id } } }),
    db.execution.count({ where: { createdAt: { lt: oldEnd }, sessionId: session.id, id: { not: linkedOld } } }),
    db.run.count({ where: { createdAt: { gte: freshFrom }, schedule: { revisionId: historyRevision.id } } }),
    db.execution.count({ where: { createdAt: { gte: freshFrom }, sessionId: session.id, scheduleId: { not: null }, NOT: { scheduleId: { in: liveIds } } } }),
    db.execution.count({ where: { id: linkedOld } }),
    db.execution.count({ where: { id: unlinkedOld } }),
    db.run.count({ where: { scheduleId: writerSchedule } }),
    db.execution.count({ where: { sessionId: writerSession.id } }),
    db.run.count({ where: { scheduleId: { in: liveIds }, createdAt: { gte: new Date(sweepStart), lte: new Date(sweepEnd) } } }),
    db.run.count({ where: { scheduleId: { in: liveIds } } }),
  ]);
  const after = { runs: await db.run.count(), executions: await db.execution.count(), bytes: await databaseBytes(db, url, true) };
  return {
    dialect: opts.dialect,
    seedMs: { executions: oldSeed.executionsMs, runs: oldSeed.runsMs },
    before,
    after,
    bytesAtDone,
    batches,
    totals: totals!,
    sweepMs: sweepEnd - sweepStart,
    sweepWindow: { start: sweepStart, end: sweepEnd },
    writer: report,
    left: {
      oldRuns, oldExecutions, freshRuns, freshExecutions,
      linkedOldExecution: linked === 1, unlinkedOldExecution: unlinked === 1,
      writerRuns, writerExecutions,
    },
    liveFiredDuringSweep: liveFired,
    liveRunsLeft: liveLeft,
  };
}

/**
 * SQLite: the file plus its WAL (after a TRUNCATE checkpoint when `checkpoint`); PostgreSQL: the
 * on-disk size of `runs` and `executions` with their indexes and TOAST.
 */
async function databaseBytes(db: Db, url: string, checkpoint: boolean): Promise<number> {
  if (url.startsWith('file:')) {
    const file = url.slice('file:'.length);
    if (checkpoint) await withSqliteConnection(db, (c) => c.pragma('wal_checkpoint(TRUNCATE)'));
    const size = (f: string) => {
      try {
        return statSync(f).size;
      } catch {
        return 0;
      }
    };
    return size(file) + size(`${file}-wal`);
  }
  const [row] = await db.$queryRawUnsafe<{ bytes: bigint | number }[]>(`SELECT pg_total_relation_size('runs') + pg_total_relation_size('executions') AS bytes`);
  return Number(row.bytes);
}
