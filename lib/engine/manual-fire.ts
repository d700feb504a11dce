/**
 * A manual fire (`run_schedule`, `replay_dead_letter`; SPEC §3.1, §12.3) to any target type. An
 * in-transaction driver's attempt is made and recorded in the caller's transaction. An after-commit
 * driver's attempt (SPEC §13) is stored in flight there; after the caller commits, `finishManualFire`
 * delivers it through the process's pool and records its run (a crash in between leaves it to a
 * worker's recovery, as for scheduled attempts).
 */
import type { Limits } from '../config';
import { findInProgress, insertPendingAttempts, type Db, type FiringSchedule, type Tx } from '../db';
import { newId } from '../ids';
import { driverOf, NO_ALLOWED_HOSTS, type DeliveryDeps } from '../targets';
import { deliverInTransaction } from './attempt';
import type { EngineDeps } from './deps';
import { createDeliveryDeps, deliverAndRecord, inFlightAttemptOf, inFlightRow, type InFlightAttempt } from './in-flight';
import { recordRuns, withMaskedResult } from './settle';

/** A manual fire begun in a transaction: its run id, and the attempt to deliver after commit (after-commit targets). */
export interface StartedManualFire {
  runId: string;
  status: string | null;
  inFlight: InFlightAttempt | null;
}

/**
 * Begin a manual fire of `schedule` (as read in `tx`) for instant `scheduledFor`, at `now` (UTC):
 * attempt 1, `trigger: "manual"`, linked to `deadLetterId` when it replays one.
 */
export async function startManualFire(
  tx: Tx,
  deps: EngineDeps,
  schedule: FiringSchedule,
  opts: { scheduledFor: Date; now: Date; limits: Limits; deadLetterId?: string | null; overlap?: 'allow_all' | 'skip' },
): Promise<StartedManualFire> {
  const { scheduledFor, now } = opts;
  const deadLetterId = opts.deadLetterId ?? null;
  // SPEC §16.2 `run_schedule(overlap: "skip")`: while a run is in progress (a schedule with
  // completion), the manual run is recorded `skipped` and not delivered.
  if (opts.overlap === 'skip' && schedule.completionExpectSeconds !== null) {
    const inProgress = (await findInProgress(tx, [schedule.id])).get(schedule.id);
    if (inProgress?.runId) {
      const runId = newId();
      const outcome = { runId, status: 'skipped' as const, result: { error: 'overlap', in_progress_run_id: inProgress.runId }, executionId: null, request: null, retryable: false };
      await recordRuns(tx, [{ schedule, trigger: 'manual', scheduledFor, attempt: 1, outcome }], [{ deadLetterId }], now);
      return { runId, status: 'skipped', inFlight: null };
    }
  }
  if (driverOf(schedule.invocationTargetType)?.mode !== 'after-commit') {
    const attempt = { schedule, trigger: 'manual' as const, scheduledFor, attempt: 1 };
    const [delivered] = await deliverInTransaction(tx, deps, [attempt], now, opts.limits);
    const outcome = withMaskedResult(deps, delivered);
    await recordRuns(tx, [{ ...attempt, outcome }], [{ deadLetterId }], now);
    return { runId: outcome.runId, status: outcome.status, inFlight: null };
  }
  const fire = inFlightAttemptOf(schedule, { pendingId: newId(), runId: newId(), scheduledFor, trigger: 'manual', attempt: 1, deliveries: 0, deadLetterId, dueAt: now, now });
  // Exactly once (SPEC §13): the in-flight row commits with the caller's transaction; its record deletes it.
  await insertPendingAttempts(tx, [inFlightRow(fire, schedule, now)]);
  return { runId: fire.runId, status: null, inFlight: fire };
}

/** Used when a caller passes no pool (tests, scripts): small, no private destination allowed, no org granted the worker's AWS credentials. */
let fallback: DeliveryDeps | null = null;

/**
 * After the transaction of `startManualFire` committed: deliver its in-flight attempt and record the
 * run (nothing to do for an in-transaction target). `delivery`: the process's pool and destination rules.
 */
export async function finishManualFire(db: Db, deps: EngineDeps, started: StartedManualFire, delivery: DeliveryDeps | undefined): Promise<void> {
  if (!started.inFlight) return;
  fallback ??= createDeliveryDeps({ delivery: { concurrency: 4, httpAllowList: NO_ALLOWED_HOSTS, awsWorkerCredentialsOrgs: [] } });
  await deliverAndRecord(db, deps, [started.inFlight], delivery ?? fallback, () => new Date());
}
