/**
 * Tests and benchmarks only: what one expired row costs the retention sweep as the history around it
 * grows (bench/retention.ts prints it; docs/performance.md "Retention"). On a fresh migrated database
 * of `dialect`: the seed's catalog, `schedules` minutely schedules and `keptPairs` executions + runs
 * made in the last day (kept by the sweep: the history the expired rows sit in); then `rounds` times:
 * `expiredPairs` pairs created a day before the retention cutoff (the oldest minutes of the same
 * schedules), settled (SQLite: WAL checkpointed into the file; PostgreSQL: the tables analyzed), and
 * one `RetentionSweep` run to its end, statement by statement, as the worker runs it. Each round
 * reports the time the `runs` and `executions` statements held the database and what they deleted.
 */
import type { Limits } from '../config';
import { withSqliteConnection, type Db, type Dialect } from '../db';
import { RetentionSweep, retentionCutoff, type SweepPhase } from '../schedules';
import { seed } from '../../prisma/seed';
import { insertSchedules } from './insert-schedules';
import { TEST_LIMITS } from './limits';
import { seedHistory } from './seed-history';
import { HISTORY_TARGET, withSweptDb } from './retention-scenario';

export interface RetentionScalingOptions {
  dialect: Dialect;
  /** Pairs (execution + run) inside the retention: the history the expired ones are deleted from. */
  keptPairs: number;
  /** Expired pairs each round deletes. */
  expiredPairs: number;
  schedules: number;
  rounds: number;
}

export interface RetentionScalingRound {
  /** Held time (ms) and rows deleted per phase; `vacuum`: pages given back (SQLite). */
  heldMs: Record<SweepPhase, number>;
  deleted: Record<SweepPhase, number>;
  statements: number;
  /** CPU this process spent in the sweep's statements (µs, user + system): on SQLite the statements run in this process, so this is the sweep's own work whatever else the machine runs; on PostgreSQL only the client's. */
  cpuUs: number;
}

export interface RetentionScalingResult {
  dialect: Dialect;
  /** Building the kept history (set-based SQL), ms. */
  buildMs: number;
  rounds: RetentionScalingRound[];
  /** Runs + executions of the history rows left after the last round (expected: 2 × keptPairs). */
  keptLeft: number;
}

const DAY = 86_400_000;

/** Run the measurement; the database is dropped at the end. See the file comment. */
export async function runRetentionScaling(opts: RetentionScalingOptions): Promise<RetentionScalingResult> {
  return withSweptDb(opts.dialect, async (t) => {
    const db = t.db;
    const limits: Limits = TEST_LIMITS;
    const ctx = await seed(db, undefined);
    const session = await db.workflowSession.findFirstOrThrow({ where: { revisionId: ctx.proceduresRevisionId, alias: 'nightly-batch' } });
    const definition = await db.definition.findFirstOrThrow({ where: { revisionId: ctx.proceduresRevisionId, alias: 'triage' } });
    const blob = await db.blob.create({ data: { orgId: ctx.orgId, alias: 'history', type: 'scheduler', name: 'History' } });
    const revision = await db.revision.create({ data: { blobId: blob.id, state: 'managed' } });
    const by = { type: 'org' as const, id: ctx.orgId };
    await insertSchedules(db, Array.from({ length: opts.schedules }, () => ({ revisionId: revision.id, createdBy: by, invocationTarget: HISTORY_TARGET, nextFireAt: null })), new Date(Date.now() - 60 * DAY));
    const target = { schedulerRevisionId: revision.id, workflowRevisionId: ctx.proceduresRevisionId, sessionId: session.id, definitionId: definition.id, orgId: ctx.orgId };
    const now = new Date();
    const cutoff = Math.min(retentionCutoff(now, limits.runRetentionDays).getTime(), retentionCutoff(now, limits.executionRetentionDays).getTime());
    const started = performance.now();
    await seedHistory(db, target, { count: opts.keptPairs, from: new Date(now.getTime() - DAY) });
    const buildMs = performance.now() - started;
    const rounds: RetentionScalingRound[] = [];
    const expiredMinutes = Math.ceil(opts.expiredPairs / opts.schedules);
    for (let r = 0; r < opts.rounds; r++) {
      // Each round's rows at minutes of their own (the runs' UNIQUE key), all older than the cutoff.
      await seedHistory(db, target, { count: opts.expiredPairs, from: new Date(cutoff - DAY - r * (expiredMinutes + 1) * 60_000) });
      await settle(db, opts.dialect);
      const sweep = new RetentionSweep({ db, runRetentionDays: limits.runRetentionDays, executionRetentionDays: limits.executionRetentionDays });
      sweep.start(now);
      const round: RetentionScalingRound = { heldMs: { runs: 0, activity: 0, executions: 0, vacuum: 0 }, deleted: { runs: 0, activity: 0, executions: 0, vacuum: 0 }, statements: 0, cpuUs: 0 };
      for (;;) {
        const cpu = process.cpuUsage();
        const b = await sweep.step();
        const used = process.cpuUsage(cpu);
        if (b.phase === 'runs' || b.phase === 'executions') round.cpuUs += used.user + used.system;
        round.heldMs[b.phase] += b.durationMs;
        round.deleted[b.phase] += b.deleted;
        round.statements += 1;
        if (b.done) break;
      }
      rounds.push(round);
    }
    const keptLeft = (await db.run.count({ where: { schedule: { revisionId: revision.id } } })) + (await db.execution.count({ where: { sessionId: session.id } }));
    return { dialect: opts.dialect, buildMs, rounds, keptLeft };
  });
}

/** The database at rest before a sweep: SQLite's WAL in the file; PostgreSQL's statistics current. */
async function settle(db: Db, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    await withSqliteConnection(db, (c) => c.pragma('wal_checkpoint(TRUNCATE)'));
    return;
  }
  await db.$executeRawUnsafe('VACUUM (ANALYZE) runs, executions');
}
