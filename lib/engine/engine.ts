/**
 * The fire engine bound to its deps (`EngineDeps`): every verb of the fire path, with the facts,
 * facade and activity log its caller composed. lib/schedules makes the product's (`schedulerEngine`);
 * a process edge layers its facades on it with `with` (worker/main.ts, lib/api/runtime.ts).
 */
import type { Db, Tx } from '../db';
import type { DeliveryDeps } from '../targets';
import { fireBackfills, type BackfillsFired, type FireBackfillsOptions } from './backfill';
import { recordCheckIn, timeOutRuns, type CheckinAnswer, type CheckinKind } from './completion';
import { sendDueDeadLetters, type DeadLetterSendReport } from './dead-letter-sends';
import type { EngineDeps, EngineOverrides } from './deps';
import { fireDue, fireOccurrence, fireRetry, type FireDueOptions, type FireOccurrenceOptions } from './fire';
import { deliverAndRecord, deliverEach, recordDelivered, type DeliveredAttempt, type InFlightAttempt } from './in-flight';
import { finishManualFire, startManualFire, type StartedManualFire } from './manual-fire';
import type { FireOutcome } from './outcomes';
import type { Limits } from '../config';
import type { FiringSchedule } from '../db';
import type { ScheduleIdentity } from '../targets';
import { SchedulerFactCache, type ContextInput } from './context';

export interface Engine {
  readonly deps: EngineDeps;
  /** This engine with `overrides` (a facade's facts, a fact source) layered on its deps. */
  with(overrides: EngineOverrides): Engine;
  /** Claim and fire what is due at `now`, one transaction (fire.ts). */
  fireDue(opts: FireDueOptions): Promise<FireOutcome[]>;
  /** Claim and fire the running backfills' next occurrences, one transaction (SPEC §18.1, backfill.ts). */
  fireBackfills(opts: FireBackfillsOptions): Promise<BackfillsFired>;
  /** Fire one named occurrence in its own transaction (the worker's fallback). */
  fireOccurrence(opts: FireOccurrenceOptions): Promise<FireOutcome>;
  /** Fire one named pending attempt in its own transaction (the worker's fallback). */
  fireRetry(opts: { db: Db; pendingId: string; now: Date; limits: Limits }): Promise<FireOutcome[]>;
  /** Deliver in-flight attempts after commit, each promise settling with its outcome (in-flight.ts). */
  deliverEach(db: Db, attempts: InFlightAttempt[], delivery: DeliveryDeps, now: Date): Promise<DeliveredAttempt>[];
  /** Record delivered attempts in one transaction (exactly one run each). */
  recordDelivered(db: Db, delivered: DeliveredAttempt[], now: Date): Promise<FireOutcome[]>;
  /** Deliver and record, waiting for all (manual fires, tests). */
  deliverAndRecord(db: Db, attempts: InFlightAttempt[], delivery: DeliveryDeps, clock: () => Date): Promise<FireOutcome[]>;
  /** Begin a manual fire in the caller's transaction (manual-fire.ts). */
  startManualFire(tx: Tx, schedule: FiringSchedule, opts: { scheduledFor: Date; now: Date; limits: Limits; deadLetterId?: string | null; overlap?: 'allow_all' | 'skip' }): Promise<StartedManualFire>;
  /** Finish a manual fire after its transaction committed. */
  finishManualFire(db: Db, started: StartedManualFire, delivery: DeliveryDeps | undefined): Promise<void>;
  /** Send the dead letters whose SQS send is due (dead-letter-sends.ts). */
  sendDueDeadLetters(db: Db, delivery: DeliveryDeps, now: Date): Promise<DeadLetterSendReport>;
  /** Record a check-in for run `runId` (SPEC §16.1, completion.ts); null when no such run or attempt exists. */
  recordCheckIn(db: Db, opts: { runId: string; checkin: CheckinKind; message: string | null; now: Date }): Promise<CheckinAnswer>;
  /** Decide `timed_out` for runs past their completion deadline at `now` (SPEC §16.1, completion.ts). */
  timeOutRuns(db: Db, now: Date): Promise<{ runId: string; scheduleId: string }[]>;
  /**
   * How schedule `s` names itself in its fires (SPEC §13.3, §13.4, §14): the identity a facade stored
   * with it, else its org's account, region and `…:schedule/<scheduler name>/<alias or id>` — what
   * its attempts' context attributes say (the form's payload preview).
   */
  identityOf(db: Db, s: Pick<ContextInput, 'scheduleId' | 'revisionId' | 'name' | 'facadeData'>): Promise<ScheduleIdentity>;
}

/** The engine with `deps`. */
export function createEngine(deps: EngineDeps): Engine {
  return {
    deps,
    with: (o) => createEngine({ ...deps, ...(o.facade ? { facade: o.facade } : {}), ...(o.checkins !== undefined ? { checkins: o.checkins } : {}), ...(o.raise !== undefined ? { raise: o.raise ?? undefined } : {}), facts: { ...deps.facts, ...o.facts } }),
    fireDue: (opts) => fireDue(deps, opts),
    fireOccurrence: (opts) => fireOccurrence(deps, opts),
    fireBackfills: (opts) => fireBackfills(deps, opts),
    fireRetry: (opts) => fireRetry(deps, opts),
    deliverEach: (db, attempts, delivery, now) => deliverEach(db, deps, attempts, delivery, now),
    recordDelivered: (db, delivered, now) => recordDelivered(db, deps, delivered, now),
    deliverAndRecord: (db, attempts, delivery, clock) => deliverAndRecord(db, deps, attempts, delivery, clock),
    startManualFire: (tx, schedule, opts) => startManualFire(tx, deps, schedule, opts),
    finishManualFire: (db, started, delivery) => finishManualFire(db, deps, started, delivery),
    sendDueDeadLetters: (db, delivery, now) => sendDueDeadLetters(db, deps, delivery, now),
    recordCheckIn: (db, opts) => recordCheckIn(db, deps, opts),
    timeOutRuns: (db, now) => timeOutRuns(db, deps, now),
    identityOf: (db, s) => new SchedulerFactCache({ kind: 'db', db }, deps, new Date()).identity(s),
  };
}
