/**
 * Attempts of after-commit drivers (SPEC §13: `http`, `aws`, any driver of mode `after-commit`),
 * delivered outside the database transaction:
 *
 * 1. the fire transaction (fire.ts, or manual-fire.ts for run now and replay) stores the attempt IN
 *    FLIGHT (a `pending_attempts` row with `in_flight` set whose `due_at` is the end of its lease) and
 *    commits;
 * 2. `deliverEach` delivers it through its driver and the process's bounded delivery pool;
 * 3. `recordDelivered` records its run and what it leads to (a retry, a dead letter, a pause, the
 *    completion) in one transaction that deletes the in-flight row.
 *
 * Guarantee (docs/architecture.md): at least once for after-commit targets. A process that dies
 * between 2 and 3 leaves the row; once its lease ends, a worker claims it again, delivers it once more
 * with the same occurrence id (receivers de-duplicate by it) and records the run with
 * `repeated_delivery: true` when it had been sent. Each send is counted in the database before its
 * request leaves (`markSendsStarted`), so an attempt already sent twice is recorded
 * `delivery_interrupted` without a third send, and one that never left is delivered normally. Each
 * attempt's run is recorded exactly once (the DELETE of its row decides).
 */
import type { HttpAllowList } from '../config';
import { inTransaction, lockFiringSchedules, markSendsStarted, renewInFlight, takeInFlight, undeliverableInFlight, type Db, type FiringSchedule, type PendingAttemptInsert } from '../db';
import { toError } from '../errors';
import { createDeliveryPool, DeliveryCancelled, driverOf, recordedTarget, watchAttributes, type DeliveryDeps, type DeliveryPool, type FireTrigger } from '../targets';
import { SchedulerFactCache } from './context';
import type { EngineDeps } from './deps';
import { FIRE_TX, type FireOutcome } from './outcomes';
import { settleAttempts, type RunOutcome, type SettledAttempt } from './settle';

/**
 * `DeliveryDeps` from the process's configuration (its edge calls this once): one pool per process,
 * of `concurrency` deliveries, at most `perOrg` of one org and `perSchedule` of one schedule (SPEC §2:
 * one tenant's slow receivers cannot hold the others' deliveries), and the orgs that may deliver AWS
 * targets with the worker's own credentials (SPEC §13.5).
 */
export function createDeliveryDeps(config: {
  delivery: { httpAllowList: HttpAllowList; concurrency: number; perOrg?: number; perSchedule?: number; awsWorkerCredentialsOrgs: readonly string[] };
}): DeliveryDeps {
  const { concurrency, perOrg, perSchedule } = config.delivery;
  return { pool: createDeliveryPool({ concurrency, perOrg, perSchedule }), allowList: config.delivery.httpAllowList, awsWorkerCredentialsOrgs: config.delivery.awsWorkerCredentialsOrgs };
}

/** A renewed lease lasts this long, in ms: longer than any attempt (30 s webhook timeout) plus a margin. */
const RENEWED_LEASE_MS = 90_000;

/**
 * Renew the leases of in-flight attempts `pendingIds` this process is delivering (SPEC §13), to
 * `now` + 90 s, in one statement. Call at least every `LEASE_RENEW_MS` of the same clock.
 */
export async function renewInFlightLeases(db: Db, pendingIds: string[], now: Date): Promise<void> {
  await inTransaction(db, (tx) => renewInFlight(tx, pendingIds, new Date(now.getTime() + RENEWED_LEASE_MS)));
}

/** How long an in-flight attempt's lease lasts past its delivery's own longest attempt, in ms. */
const LEASE_MARGIN_MS = 60_000;

/**
 * When an in-flight attempt's lease ends (UTC): `now` + the driver's longest attempt of the stored
 * target + a margin. The delivering process renews it while the attempt waits for a pool slot or
 * runs (`LEASE_RENEW_MS`).
 */
export function inFlightLeaseEnd(schedule: Pick<FiringSchedule, 'invocationTargetType' | 'invocationTarget'>, now: Date): Date {
  const driver = driverOf(schedule.invocationTargetType);
  const attemptMs = driver?.mode === 'after-commit' ? driver.attemptMs(schedule.invocationTarget) : 0;
  return new Date(now.getTime() + attemptMs + LEASE_MARGIN_MS);
}

/** How often a delivering process renews the leases of its in-flight attempts, in ms (a third of the shortest lease). */
export const LEASE_RENEW_MS = 20_000;

/** One attempt stored in flight, to deliver and then record. */
export interface InFlightAttempt {
  /** Its `pending_attempts` row. */
  pendingId: string;
  /** The run id its record will have. */
  runId: string;
  scheduleId: string;
  revisionId: string;
  /** The schedule's name in its group (its ARN's last part, SPEC §14). */
  name: string;
  alias: string | null;
  scheduledFor: Date;
  trigger: FireTrigger;
  attempt: number;
  /** Sends of this attempt already started before this delivery: 0, or 1 for a repeat after an interrupted one. */
  deliveries: number;
  /** A manual replay: the dead letter it replays. */
  deadLetterId: string | null;
  /** `invocation_target_type` at the claim: the driver that delivers it. */
  targetType: string;
  /** The stored target at the claim: what is delivered. */
  target: unknown;
  /** What a facade stored beside the schedule at the claim (its identity, SPEC §14). */
  facadeData: unknown;
  /** When the attempt was due (lateness counts from it), and when it was claimed. */
  dueAt: Date;
  claimedAt: Date;
}

/** An attempt delivered: its outcome as its run records it (what it sent included). */
export interface DeliveredAttempt {
  attempt: InFlightAttempt;
  outcome: RunOutcome;
}

/** The in-flight attempt of `schedule`'s fire, claimed at `now`. */
export function inFlightAttemptOf(
  schedule: FiringSchedule,
  fire: { pendingId: string; runId: string; scheduledFor: Date; trigger: FireTrigger; attempt: number; deliveries: number; deadLetterId: string | null; dueAt: Date; now: Date },
): InFlightAttempt {
  return {
    pendingId: fire.pendingId,
    runId: fire.runId,
    scheduleId: schedule.id,
    revisionId: schedule.revisionId,
    alias: schedule.alias,
    name: schedule.name,
    scheduledFor: fire.scheduledFor,
    trigger: fire.trigger,
    attempt: fire.attempt,
    deliveries: fire.deliveries,
    deadLetterId: fire.deadLetterId,
    targetType: schedule.invocationTargetType,
    target: schedule.invocationTarget,
    facadeData: schedule.facadeData,
    dueAt: fire.dueAt,
    claimedAt: fire.now,
  };
}

/** The `pending_attempts` row of an attempt in flight: due (claimable again) when its lease ends. */
export function inFlightRow(fire: InFlightAttempt, schedule: FiringSchedule, now: Date, checkin?: unknown): PendingAttemptInsert {
  return {
    id: fire.pendingId,
    scheduleId: fire.scheduleId,
    scheduledFor: fire.scheduledFor,
    trigger: fire.trigger,
    attempt: fire.attempt,
    dueAt: inFlightLeaseEnd(schedule, now),
    inFlight: true,
    deliveries: fire.deliveries,
    deadLetterId: fire.deadLetterId,
    // SPEC §16.1: the check-in URL names the run id; check-ins before the record are kept here.
    runId: fire.runId,
    checkin: checkin ?? null,
    createdAt: now,
  };
}

/**
 * Deliver in-flight attempts (SPEC §13), each through its driver and `deps.pool`, never rejecting — a
 * failure is the attempt's outcome. Reads each scheduler's facts once, as its drivers need them.
 * Resolves in the order of `attempts`; the caller may also take each promise as it settles.
 */
export function deliverEach(db: Db, engine: EngineDeps, attempts: InFlightAttempt[], deps: DeliveryDeps, now: Date): Promise<DeliveredAttempt>[] {
  const facts = new SchedulerFactCache({ kind: 'db', db }, engine, now);
  const mark = sendMarker(db);
  return attempts.map((a) => deliverOne(a, facts, deps, mark));
}

/** One send marker per client: every delivery of the process shares its group commit. */
const markers = new WeakMap<Db, (pendingId: string) => Promise<boolean>>();

/**
 * Count sends before they leave (SPEC §13, at most one repeated delivery), in group commits: the ids
 * asked for while a mark commits (and those asked in the same turn of the event loop) share the next
 * transaction, one UPDATE on the driver connection (`markSendsStarted`). Each caller waits for its
 * group's COMMIT and learns whether its attempt may be sent (false: its schedule was deleted or
 * disabled meanwhile, or the row is no longer in flight). A failed mark fails its group's deliveries
 * (nothing is sent without its count).
 */
function sendMarker(db: Db): (pendingId: string) => Promise<boolean> {
  const known = markers.get(db);
  if (known) return known;
  let next: { ids: string[]; done: Promise<Set<string>> } | null = null;
  let committing: Promise<unknown> = Promise.resolve();
  const mark = async (pendingId: string): Promise<boolean> => {
    if (!next) {
      const group: { ids: string[]; done: Promise<Set<string>> } = { ids: [], done: Promise.resolve(new Set()) };
      group.done = committing
        .then(() => new Promise((resolve) => setImmediate(resolve)))
        .then(() => {
          // From here on, new asks form the next group (they wait for this one's commit).
          next = null;
          return inTransaction(db, (tx) => markSendsStarted(tx, group.ids));
        });
      committing = group.done.catch(() => undefined);
      next = group;
    }
    next.ids.push(pendingId);
    // Exactly-once rule: the send leaves only after the COMMIT that counted it.
    return (await next.done).has(pendingId);
  };
  markers.set(db, mark);
  return mark;
}

async function deliverOne(a: InFlightAttempt, facts: SchedulerFactCache, deps: DeliveryDeps, mark: (pendingId: string) => Promise<boolean>): Promise<DeliveredAttempt> {
  const failed = (result: Record<string, unknown>): DeliveredAttempt => notSent(a, result);
  try {
    const scheduler = await facts.scheduler(a.revisionId);
    if (!scheduler) return failed({ error: 'target_not_found', message: 'the scheduler of this schedule no longer exists' });
    const driver = driverOf(a.targetType);
    if (driver?.mode !== 'after-commit') return failed({ error: 'unsupported_target', message: `no driver delivers ${a.targetType} targets after commit` });
    // The stored target is parsed again: the EventBridge API stores ARNs of services SPEC §13.2 does
    // not deliver to (kinesis, …); each of their attempts fails `unsupported_target`.
    const parsed = driver.parse(a.target);
    if (!parsed.ok) return failed({ error: 'unsupported_target', message: `this ${a.targetType} target cannot be delivered: ${parsed.message}` });
    // The attempt waits for a slot of the pool and of its org and schedule (fair between tenants); its
    // lease is renewed meanwhile by the delivering process, and its schedule's attempts leave in order.
    // A backfill's deliveries share their own per-schedule slots (SPEC §18.1: it never delays the
    // schedule's own occurrences, which would otherwise queue behind it); max_concurrency bounds them.
    const key = { org: scheduler.orgId, schedule: a.trigger.startsWith('backfill:') ? `${a.scheduleId}|${a.trigger}` : a.scheduleId, attempt: a.pendingId };
    const pool: DeliveryPool = {
      ...deps.pool,
      run: (send) =>
        deps.pool.run(async () => {
          // Exactly-once rule: each send is counted durably just before its request leaves (after
          // taking its slot); an attempt the count refuses (schedule deleted or disabled) is never sent.
          let counted: boolean;
          try {
            counted = await mark(a.pendingId);
          } catch (thrown) {
            throw new SendNotCounted(thrown);
          }
          if (!counted) throw new DeliveryCancelled(a.pendingId);
          return send();
        }, key),
    };
    const watched = watchAttributes(facts.context({ ...a, now: a.claimedAt }));
    const out = await driver.deliver({ target: parsed.target, ctx: watched.ctx }, { ...deps, pool, facts: await facts.factsOf(scheduler, driver.needs) });
    // SPEC §13 at-least-once: the second send of an interrupted attempt says so on its run.
    const result = a.deliveries >= 1 ? { ...out.result, repeated_delivery: true } : out.result;
    // SPEC §13.4: the run records the payload as sent, substituted (the check-in token masked).
    const recorded = await recordedTarget(driver, a.target, watched.resolved());
    return { attempt: a, outcome: { ...out, result, runId: a.runId, ...(recorded === undefined ? {} : { recordedTarget: recorded }) } };
  } catch (thrown) {
    if (thrown instanceof DeliveryCancelled) return cancelledOutcome(a);
    if (thrown instanceof SendNotCounted) return notCountedOutcome(a, thrown);
    return failed({ error: 'internal_error', message: toError(thrown).message.slice(0, 1000) });
  }
}

/** The count of a send failed (a database fault): the request did not leave. */
class SendNotCounted extends Error {
  constructor(cause: unknown) {
    super(toError(cause).message, { cause });
    this.name = 'SendNotCounted';
  }
}

/**
 * The outcome of an attempt whose send could not be counted (docs/decisions.md 433): it was not sent
 * (nothing leaves uncounted), so it is safe to try again: `internal_error`, retryable, and the
 * schedule's retry policy decides, as for a receiver that did not answer.
 */
function notCountedOutcome(a: InFlightAttempt, thrown: SendNotCounted): DeliveredAttempt {
  const message = `the send could not be counted before it left (${thrown.message.slice(0, 500)}); it was not sent`;
  return { attempt: a, outcome: { ...notSent(a, { error: 'internal_error', message }).outcome, retryable: true } };
}

/**
 * The outcome of an attempt cancelled before it was sent (its schedule disabled or deleted while it
 * waited): recorded `cancelled`, never delivered; a disabled schedule's run says so (exhausted
 * `cancelled`, no retry), a deleted schedule's run has gone with it.
 */
export function cancelledOutcome(a: InFlightAttempt): DeliveredAttempt {
  return notSent(a, { error: 'cancelled', message: 'the schedule was disabled or deleted before this attempt was sent; it was not sent' });
}

/** An attempt that ends without a (further) send: its run `invocation_error` with `result`, not retryable. */
function notSent(a: InFlightAttempt, result: Record<string, unknown>): DeliveredAttempt {
  return { attempt: a, outcome: { runId: a.runId, status: 'invocation_error', result, executionId: null, request: null, retryable: false } };
}

/**
 * Cancel, at once, the attempts of `pendingIds` (in this process's hand) that still wait for a pool
 * slot and are no longer deliverable (schedule deleted or disabled; SPEC §12.2): one read, then
 * `deps.pool.cancel`. Each cancelled attempt's delivery settles with `cancelledOutcome`, to be recorded
 * as any other. Attempts already sending are left to finish (their request has left). Returns how many.
 */
export async function cancelUndeliverable(db: Db, pendingIds: string[], deps: DeliveryDeps): Promise<number> {
  if (pendingIds.length === 0 || deps.pool.load().pending === 0) return 0;
  const gone = await undeliverableInFlight(db, pendingIds);
  return gone.size ? deps.pool.cancel(gone) : 0;
}

/** The outcome of an attempt interrupted twice (SPEC §13): recorded without a third delivery. */
export function interruptedOutcome(a: InFlightAttempt): DeliveredAttempt {
  return notSent(a, {
    error: 'delivery_interrupted',
    message: 'the worker delivering this attempt stopped twice before recording it; it was not sent a third time (the receiver may have it, under the same webhook-id / event id)',
  });
}

/**
 * Record delivered attempts (SPEC §13): one transaction for all of them. Exactly once: only the
 * attempts whose in-flight row this transaction deletes are recorded (an attempt recorded or
 * recovered elsewhere, or whose schedule was deleted, is not). Each is folded into its schedule as it
 * is now (locked), at instant `now`: a failed attempt of a schedule disabled meanwhile gets no retry.
 * Returns a `fired` outcome per recorded attempt.
 */
export async function recordDelivered(db: Db, engine: EngineDeps, delivered: DeliveredAttempt[], now: Date): Promise<FireOutcome[]> {
  if (delivered.length === 0) return [];
  return inTransaction(db, async (tx) => {
    // Schedules are locked for what a record folds into them (failure counts, pause, buffer_one,
    // completion). A backfill's record folds nothing into its schedule (settle.ts), but the foreign
    // key of its run locks the schedule (FOR KEY SHARE) all the same, so it is locked with the others.
    // Lock order (deadlock freedom, decision 434): the schedules first, in id order, then their
    // in-flight rows, as a schedule's delete does (its row, then the rows that cascade from it). The
    // other way round, a record and a delete each held what the other waited for.
    const schedules = await lockFiringSchedules(tx, delivered.map((d) => d.attempt.scheduleId));
    // The check-ins each row held (SPEC §16.1) are folded into its run.
    const taken = await takeInFlight(tx, delivered.map((d) => d.attempt.pendingId));
    const mine = delivered.filter((d) => taken.has(d.attempt.pendingId));
    // Serialization is desired: occurrences of one schedule end in occurrence order (SPEC §12.5).
    const live = mine.filter((d) => schedules.has(d.attempt.scheduleId)).sort((a, b) => a.attempt.scheduledFor.getTime() - b.attempt.scheduledFor.getTime());
    const attempts: SettledAttempt[] = live.map((d) => {
      const schedule = schedules.get(d.attempt.scheduleId)!;
      const { scheduledFor, trigger, attempt, deadLetterId } = d.attempt;
      return { schedule, targetType: d.attempt.targetType, trigger, scheduledFor, attempt, enabled: schedule.enabled, deadLetterId, outcome: d.outcome, checkin: taken.get(d.attempt.pendingId) ?? null };
    });
    const settled = await settleAttempts(tx, engine, attempts, now, new Set());
    return live.map((d, i): FireOutcome => ({
      kind: 'fired',
      scheduleId: d.attempt.scheduleId,
      scheduledFor: d.attempt.scheduledFor,
      attempt: d.attempt.attempt,
      trigger: d.attempt.trigger,
      lateMs: d.attempt.claimedAt.getTime() - d.attempt.dueAt.getTime(),
      run: d.outcome,
      nextAttemptAt: settled.consequences[i].extras.nextAttemptAt ?? null,
      exhausted: settled.consequences[i].extras.exhausted ?? null,
      ...settled.after(d.attempt.scheduleId),
    }));
  }, FIRE_TX);
}

/**
 * Deliver in-flight attempts and record them (`deliverEach` then `recordDelivered`), waiting for all:
 * a manual fire to an after-commit target (run now, replay), and tests. The worker instead records
 * each delivery as it settles (worker/deliveries.ts), so one slow receiver holds up no other record.
 */
export async function deliverAndRecord(db: Db, engine: EngineDeps, attempts: InFlightAttempt[], deps: DeliveryDeps, clock: () => Date): Promise<FireOutcome[]> {
  const delivered = await Promise.all(deliverEach(db, engine, attempts, deps, clock()));
  return recordDelivered(db, engine, delivered, clock());
}
