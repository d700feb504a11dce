/**
 * Step 4 of a fire, ATTEMPT (SPEC §8, §12.2, §13): every attempt of the batch — the first attempt of
 * each advanced occurrence, each claimed retry, each recovered in-flight delivery — goes to its
 * driver by the driver's mode: an in-transaction driver makes it here, in the claim's transaction; an
 * after-commit driver's attempt is stored in flight, for the caller to deliver after commit. The
 * engine knows drivers only through the registry (`driverOf`).
 */
import type { Limits } from '../config';
import { insertPendingAttempts, type ClaimedRetry, type FiringSchedule, type PendingAttemptInsert, type Tx } from '../db';
import { newId } from '../ids';
import { driverOf, recordedTarget, watchAttributes, type InTransactionAttempt, type InTransactionDriver, type FireTrigger } from '../targets';
import { SchedulerFactCache } from './context';
import type { EngineDeps } from './deps';
import { cancelledOutcome, inFlightAttemptOf, inFlightRow, interruptedOutcome, type InFlightAttempt } from './in-flight';
import type { Plan } from './plan';
import type { RunOutcome, SettledAttempt } from './settle';

/** One attempt to make in this batch: an occurrence's first attempt, a claimed retry or a recovery. */
interface Attempt {
  schedule: FiringSchedule;
  trigger: FireTrigger;
  scheduledFor: Date;
  attempt: number;
  /** When the attempt was due (lateness is measured from it). */
  dueAt: Date;
  /** The claimed pending row (a retry or a recovery), or null for an occurrence's first attempt. */
  retry: ClaimedRetry | null;
}

/** The first attempt of an occurrence claimed elsewhere than `plans` (a backfill's, SPEC §18.1). */
export interface FirstAttempt {
  schedule: FiringSchedule;
  trigger: FireTrigger;
  scheduledFor: Date;
  dueAt: Date;
}

/** An attempt made (or refused) in this transaction, to settle now; `dueAt` for its lateness. */
export type MadeAttempt = SettledAttempt & { dueAt: Date };

export interface Attempted {
  /** Attempts settled in this transaction, in occurrence order. */
  made: MadeAttempt[];
  /** Attempts stored in flight: the caller delivers them after commit (SPEC §13). */
  delivering: InFlightAttempt[];
  /** Claimed retries of schedules no longer enabled: cancelled, not made (SPEC §12.2). */
  cancelled: ClaimedRetry[];
}

/**
 * Make the batch's attempts at instant `now`: `plans` whose schedules `advanced`, and `retries`. In
 * the claim's transaction `tx`: in-flight rows are stored (before anything completes a schedule: they
 * keep it active), in-transaction drivers deliver. Nothing is recorded here (settle.ts does).
 */
export async function makeAttempts(tx: Tx, deps: EngineDeps, plans: Plan[], advanced: Set<string>, retries: ClaimedRetry[], now: Date, limits: Limits, firsts: FirstAttempt[] = []): Promise<Attempted> {
  // A backfill's claimed occurrences (SPEC §18.1): first attempts, with their own trigger.
  const attempts: Attempt[] = firsts.map((f) => ({ ...f, attempt: 1, retry: null }));
  for (const p of plans) {
    if (p.kind !== 'fire' || !advanced.has(p.row.id)) continue;
    attempts.push({ schedule: p.row, trigger: 'schedule', scheduledFor: p.row.nextScheduledFor, attempt: 1, dueAt: p.row.nextFireAt, retry: null });
  }
  // A waiting retry of a disabled schedule is cancelled; an interrupted delivery (in flight when its
  // process died) is recovered whatever the schedule's state: it may have been sent, so it is recorded.
  const cancelled = retries.filter((r) => !r.enabled && !r.inFlight);
  for (const r of retries) {
    if (!r.enabled && !r.inFlight) continue;
    attempts.push({ schedule: r.schedule, trigger: r.trigger, scheduledFor: r.scheduledFor, attempt: r.attempt, dueAt: r.dueAt, retry: r });
  }
  // Serialization is desired: occurrences of one schedule end in occurrence order, so its failure
  // count (SPEC §12.5) folds them in the order they happened.
  attempts.sort((a, b) => a.scheduledFor.getTime() - b.scheduledFor.getTime());

  // SPEC §13: after-commit attempts are delivered after commit. A recovery is delivered again only if
  // it was sent at most once and its target's driver still delivers after commit and it is still
  // firing; else it is recorded now as interrupted (at most one repeated delivery per attempt).
  const delivering: InFlightAttempt[] = [];
  const inFlightRows: PendingAttemptInsert[] = [];
  const made: { attempt: Attempt; outcome: RunOutcome | null; checkin: unknown }[] = [];
  for (const a of attempts) {
    const r = a.retry;
    const afterCommit = driverOf(a.schedule.invocationTargetType)?.mode === 'after-commit';
    const recovery = r !== null && r.inFlight;
    if (recovery && (r.deliveries >= 2 || !afterCommit || (r.trigger === 'schedule' && !r.enabled))) {
      const fire = inFlightAttemptOf(a.schedule, { pendingId: r.pendingId, runId: r.runId ?? newId(), scheduledFor: r.scheduledFor, trigger: r.trigger, attempt: r.attempt, deliveries: r.deliveries, deadLetterId: r.deadLetterId, dueAt: r.dueAt, now });
      // Never sent (its count is 0) and its schedule disabled since: cancelled, as the delivering
      // process would have (in-flight.ts); otherwise it may have been sent: interrupted.
      const unsent = r.deliveries === 0 && r.trigger === 'schedule' && !r.enabled;
      made.push({ attempt: a, outcome: (unsent ? cancelledOutcome(fire) : interruptedOutcome(fire)).outcome, checkin: r.checkin });
      continue;
    }
    if (!afterCommit) {
      made.push({ attempt: a, outcome: null, checkin: null });
      continue;
    }
    const fire = inFlightAttemptOf(a.schedule, {
      pendingId: newId(),
      // A recovery keeps its run id, so its check-in URL stays the one the receiver may hold (SPEC §16.1).
      runId: (recovery ? r.runId : null) ?? newId(),
      scheduledFor: a.scheduledFor,
      trigger: a.trigger,
      attempt: a.attempt,
      // Sends already started: a recovery keeps its count (the run says repeated_delivery when ≥ 1).
      deliveries: recovery ? r.deliveries : 0,
      deadLetterId: r?.deadLetterId ?? null,
      dueAt: a.dueAt,
      now,
    });
    delivering.push(fire);
    inFlightRows.push(inFlightRow(fire, a.schedule, now, recovery ? r.checkin : null));
  }
  // The in-flight rows come before the settle step's completion: they keep their schedules from completing.
  await insertPendingAttempts(tx, inFlightRows);

  const open = made.filter((m) => m.outcome === null);
  const outcomes = await deliverInTransaction(tx, deps, open.map((m) => ({ schedule: m.attempt.schedule, trigger: m.attempt.trigger, scheduledFor: m.attempt.scheduledFor, attempt: m.attempt.attempt })), now, limits);
  open.forEach((m, i) => (m.outcome = outcomes[i]));
  return {
    made: made.map(({ attempt: a, outcome, checkin }) => ({
      schedule: a.schedule,
      targetType: a.schedule.invocationTargetType,
      trigger: a.trigger,
      scheduledFor: a.scheduledFor,
      attempt: a.attempt,
      enabled: a.retry?.enabled ?? true,
      deadLetterId: a.retry?.deadLetterId ?? null,
      outcome: outcome!,
      checkin,
      dueAt: a.dueAt,
    })),
    delivering,
    cancelled,
  };
}

/** One attempt an in-transaction driver makes: of which schedule, which occurrence and attempt. */
export interface InTransactionItem {
  schedule: FiringSchedule;
  trigger: FireTrigger;
  scheduledFor: Date;
  attempt: number;
}

/**
 * Make `items` in the claim's transaction `tx` at instant `now`, each through its type's
 * in-transaction driver (one call per driver for the batch), outcomes in the order of `items`, each
 * with a new run id. A type without such a driver is `unsupported_target`. Throws only when a
 * driver's write fails (the whole batch rolls back).
 */
export async function deliverInTransaction(tx: Tx, deps: EngineDeps, items: InTransactionItem[], now: Date, limits: Limits): Promise<RunOutcome[]> {
  const outcomes: RunOutcome[] = new Array(items.length);
  const facts = new SchedulerFactCache({ kind: 'tx', tx }, deps, now);
  const byDriver = new Map<InTransactionDriver, { index: number; attempt: InTransactionAttempt<unknown>; watched: ReturnType<typeof watchAttributes> }[]>();
  for (const [i, item] of items.entries()) {
    const { schedule } = item;
    const runId = newId();
    const driver = driverOf(schedule.invocationTargetType);
    const parsed = driver?.mode === 'in-transaction' ? driver.parse(schedule.invocationTarget) : null;
    if (!driver || driver.mode !== 'in-transaction' || !parsed?.ok) {
      const message = !parsed || parsed.ok ? `no driver makes ${schedule.invocationTargetType} attempts in the claim's transaction` : `this ${schedule.invocationTargetType} target cannot be delivered: ${parsed.message}`;
      outcomes[i] = { runId, status: 'invocation_error', result: { error: 'unsupported_target', message }, executionId: null, request: null, retryable: false };
      continue;
    }
    const watched = watchAttributes(facts.context({ scheduleId: schedule.id, revisionId: schedule.revisionId, name: schedule.name, facadeData: schedule.facadeData, scheduledFor: item.scheduledFor, trigger: item.trigger, attempt: item.attempt, runId, now }));
    const group = byDriver.get(driver) ?? [];
    group.push({ index: i, attempt: { target: parsed.target, schedule, ctx: watched.ctx }, watched });
    byDriver.set(driver, group);
  }
  // Serialization is desired: one transaction client runs one statement at a time.
  for (const [driver, group] of byDriver) {
    const answers = await driver.deliver(tx, group.map((g) => g.attempt), { limits });
    for (const [k, g] of group.entries()) {
      // SPEC §13.4: the run records the payload as sent, substituted (the check-in token masked).
      // An attempt that resolved no attributes records the stored target: nothing to wait for.
      const resolved = g.watched.resolved();
      const recorded = resolved === undefined ? undefined : await recordedTarget(driver, items[g.index].schedule.invocationTarget, resolved);
      const a = answers[k];
      const outcome: RunOutcome = { status: a.status, result: a.result, executionId: a.executionId, request: a.request, retryable: a.retryable, runId: g.attempt.ctx.runId };
      if (recorded !== undefined) outcome.recordedTarget = recorded;
      outcomes[g.index] = outcome;
    }
  }
  return outcomes;
}
