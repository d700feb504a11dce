/**
 * The worker loop (SPEC §8). Only this file reads the clock, through the injected `clock`;
 * `tick(now)` takes `now` as a parameter so tests drive time without fake timers.
 *
 * Each tick claims and fires one batch of due occurrences in one transaction (`fireDue`); any number
 * of workers may run against one database (PostgreSQL: they share the backlog through SKIP LOCKED;
 * SQLite: their batches take turns on the write lock). Between ticks the loop runs one batch of the
 * retention sweep when one is pending (once at start, then every 24 h) and records a heartbeat.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Limits } from '../lib/config';
import type { Db } from '../lib/db';
import { toError } from '../lib/errors';
import {
  findEarliestDue,
  listDueOccurrences,
  listDueRetries,
  markWorkerStopped,
  recordHeartbeat,
  createDeliveryDeps,
  LEASE_RENEW_MS,
  NO_ALLOWED_HOSTS,
  RetentionSweep,
  schedulerEngine,
  checkSilence,
  realertIncidents,
  sendDueAlerts,
  sweepAlerts,
  endAlertingOfDeletedSchedules,
  type DeliveryDeps,
  type Engine,
  type FireOutcome,
  type InFlightAttempt,
} from '../lib/schedules';
import { DeliveryRunner } from './deliveries';
import { WorkerEvents } from './events';

export interface WorkerOptions {
  db: Db;
  limits: Limits;
  /** Due occurrences claimed and fired per tick, in one transaction. */
  batchSize: number;
  /** Longest pause between ticks when nothing was due, in ms (the loop wakes sooner for an earlier next_fire_at). */
  pollIntervalMs: number;
  clock?: () => Date;
  /** Pause between two retention sweeps, in ms. Default 24 h (SPEC §9: a daily sweep). */
  sweepIntervalMs?: number;
  /** Pause between two heartbeats, in ms. Default 5 s. */
  heartbeatIntervalMs?: number;
  /**
   * The pool and destination rules http and aws attempts are delivered with (SPEC §13; the edge
   * builds it with `createDeliveryDeps(config)`). Default: a pool of 16 and no allowed private hosts.
   */
  delivery?: DeliveryDeps;
  /**
   * The fire engine: the product's with the facades the process serves (the edge layers them:
   * `schedulerEngine.with(…)`). Default: the product's alone.
   */
  engine?: Engine;
  /**
   * SPEC §17: where alerts link to (SCHEDULER_PUBLIC_URL) and the dead man's switch
   * (SCHEDULER_HEARTBEAT_URL, requested every minute while the worker fires normally). Default: links
   * to http://127.0.0.1:3000, no heartbeat URL.
   */
  alerts?: { publicUrl: string; heartbeatUrl?: string };
}


const DAY_MS = 86_400_000;
/** Least pause between two looks for waiting deliveries to cancel (deleted or disabled schedules), in ms of the worker's clock. */
const CANCEL_CHECK_MS = 1_000;
/** Pause between two silence and re-alert checks, and between two heartbeat-URL requests, in ms of the worker's clock (SPEC §17: every minute). */
const ALERT_CHECK_MS = 60_000;
/** A heartbeat-URL request gives up after this long, in ms. */
const HEARTBEAT_URL_TIMEOUT_MS = 10_000;
/** Pause before looking again when due occurrences exist but other workers hold them, in ms. */
const BUSY_RETRY_MS = 50;
/**
 * While the loop drains a backlog (every tick full, no sleep between them), the housekeeping between
 * ticks (`deliveryStep`: completion deadlines, dead-letter sends, alert sends, leases) runs at most this
 * often, in ms of the worker's clock; a loop that sleeps between ticks runs it every time. 1 s is the
 * default poll interval, so nothing it decides waits longer than it would on an idle worker.
 */
const HOUSEKEEPING_WHILE_BUSY_MS = 1_000;

export class Worker {
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  readonly events = new WorkerEvents();
  private stopping = false;
  private wake: (() => void) | null = null;
  private readonly clock: () => Date;
  private readonly startedAt: Date;
  /** When the retention sweep last started (null: never, so it runs at start). */
  private lastSweepAt: number | null = null;
  /** The retention sweep: one bounded statement per loop, its batch sizes learned across sweeps. */
  private readonly retention: RetentionSweep;
  /** Outcomes of the last tick: all of them, and those other than `error` (progress made). */
  private lastClaimed = 0;
  private lastProgress = 0;
  /** http and aws attempts in hand: delivering, or delivered and waiting for their record (SPEC §13). */
  readonly deliveries: DeliveryRunner;
  private readonly delivery: DeliveryDeps;
  private readonly engine: Engine;
  private lastRenewAt = 0;
  /** When the loop last ran `deliveryStep` (worker's clock, ms; never: −∞). */
  private lastHousekeepingAt = -Infinity;
  private lastAlertCheckAt: number | null = null;
  /** The batch of alert sends in progress beside the loop, if any (`alertStep`). */
  private alertSends: Promise<void> | null = null;
  private lastHeartbeatUrlAt: number | null = null;
  private lastCancelCheckAt = 0;

  constructor(private readonly opts: WorkerOptions) {
    this.clock = opts.clock ?? (() => new Date());
    this.startedAt = this.clock();
    this.delivery = opts.delivery ?? createDeliveryDeps({ delivery: { concurrency: 16, httpAllowList: NO_ALLOWED_HOSTS, awsWorkerCredentialsOrgs: [] } });
    this.engine = opts.engine ?? schedulerEngine;
    this.retention = new RetentionSweep({
      db: opts.db,
      runRetentionDays: opts.limits.runRetentionDays,
      executionRetentionDays: opts.limits.executionRetentionDays,
    });
    this.deliveries = new DeliveryRunner(
      opts.db,
      this.engine,
      this.delivery,
      this.clock,
      (outcomes) => {
        outcomes.forEach((o) => this.report(o));
        // SPEC §18.1: a backfill's delivery that ended frees room for its next occurrence: look now.
        if (outcomes.some((o) => o.kind === 'fired' && o.trigger?.startsWith('backfill:'))) this.wake?.();
      },
      (error) => this.events.emit('delivery:error', { error }),
    );
  }

  /**
   * One pass: claim and fire up to `batchSize` occurrences due at `now`, in one transaction. Returns
   * how many were claimed (a full batch means more may be due). If the batch fails as a whole, each
   * due occurrence is retried in its own transaction, so one bad occurrence cannot stall the others.
   */
  async tick(now: Date): Promise<number> {
    const started = performance.now();
    this.events.emit('tick:start', { now });
    let outcomes: FireOutcome[];
    try {
      outcomes = await this.engine.fireDue({ db: this.opts.db, now, limit: this.opts.batchSize, limits: this.opts.limits, clock: this.clock });
    } catch (e) {
      this.events.emit('tick:error', { error: toError(e) });
      outcomes = await this.fireOneByOne(now);
    }
    let fired = 0;
    this.lastProgress = 0;
    // SPEC §13: the batch committed its after-commit attempts in flight; deliver them beside the loop.
    const inFlight: InFlightAttempt[] = outcomes.flatMap((o) => (o.kind === 'delivering' ? [o.delivery] : []));
    this.deliveries.start(inFlight);
    for (const out of outcomes) {
      if (out.kind === 'fired' || out.kind === 'delivering') fired++;
      if (out.kind !== 'error') this.lastProgress++;
      this.report(out);
    }
    this.lastClaimed = outcomes.length;
    this.events.emit('tick:end', { now, claimed: outcomes.length, fired, durationMs: performance.now() - started });
    return outcomes.length;
  }

  /** The fallback after a failed batch: the same due occurrences and due retries, one transaction each. */
  private async fireOneByOne(now: Date): Promise<FireOutcome[]> {
    const due = await listDueOccurrences(this.opts.db, now, this.opts.batchSize);
    const retries = await listDueRetries(this.opts.db, now, this.opts.batchSize);
    const outcomes: FireOutcome[] = [];
    // Serialization is desired, as below. A failing retry is reported and skipped like an occurrence.
    for (const { pendingId, scheduleId, scheduledFor } of retries) {
      try {
        outcomes.push(...(await this.engine.fireRetry({ db: this.opts.db, pendingId, now: this.clock(), limits: this.opts.limits })));
      } catch (e) {
        outcomes.push({ kind: 'error', scheduleId, scheduledFor, error: toError(e) });
      }
    }
    // Serialization is desired: one transaction at a time keeps SQLite's single writer uncontended.
    for (const { scheduleId, scheduledFor } of due) {
      try {
        outcomes.push(await this.engine.fireOccurrence({ db: this.opts.db, scheduleId, scheduledFor, now: this.clock(), limits: this.opts.limits }));
      } catch (e) {
        outcomes.push({ kind: 'error', scheduleId, scheduledFor, error: toError(e) });
      }
    }
    return outcomes;
  }

  private report(out: FireOutcome): void {
    const { scheduleId, scheduledFor } = out;
    switch (out.kind) {
      case 'fired': {
        const error = typeof out.run.result.error === 'string' ? out.run.result.error : undefined;
        this.events.emit('occurrence:fired', {
          scheduleId,
          scheduledFor,
          attempt: out.attempt,
          lateMs: out.lateMs,
          status: out.run.status,
          error,
          runId: out.run.runId,
          nextAttemptAt: out.nextAttemptAt,
          exhausted: out.exhausted,
          completed: out.completed,
          deleted: out.deleted,
          paused: out.paused,
          ...(out.trigger?.startsWith('backfill:') ? { backfillId: out.trigger.slice('backfill:'.length) } : {}),
        });
        return;
      }
      case 'delivering':
        this.events.emit('occurrence:delivering', { scheduleId, scheduledFor, attempt: out.attempt, lateMs: out.lateMs, deliveries: out.delivery.deliveries });
        return;
      case 'skipped':
        this.events.emit('occurrence:skipped', { scheduleId, scheduledFor, skipped: out.skipped, reason: out.reason, skippedOutsideWindow: out.skippedOutsideWindow, completed: out.completed, deleted: out.deleted });
        return;
      case 'already-fired':
        this.events.emit('occurrence:already-fired', { scheduleId, scheduledFor, completed: out.completed, deleted: out.deleted });
        return;
      case 'retry-cancelled':
        this.events.emit('retry:cancelled', { scheduleId, scheduledFor, attempt: out.attempt });
        return;
      case 'lost-race':
        this.events.emit('occurrence:lost-race', { scheduleId, scheduledFor });
        return;
      case 'overlap':
        this.events.emit('occurrence:overlap', { scheduleId, scheduledFor, action: out.action, inProgressRunId: out.inProgressRunId });
        return;
      case 'error':
        this.events.emit('occurrence:error', { scheduleId, scheduledFor, error: out.error });
        return;
      default:
        out satisfies never;
    }
  }

  /**
   * The longest pause this worker keeps between two heartbeats, in ms: it beats at most every
   * `heartbeatIntervalMs`, but only between ticks, which can be `pollIntervalMs` apart.
   */
  get heartbeatEveryMs(): number {
    return Math.max(this.opts.heartbeatIntervalMs ?? 5_000, this.opts.pollIntervalMs);
  }

  /** Record this worker's liveness (GET /api/health, the web app's banner) and prune dead workers' rows. */
  async heartbeat(now: Date): Promise<void> {
    const { pruned } = await recordHeartbeat(this.opts.db, { workerId: this.id, startedAt: this.startedAt, intervalMs: this.heartbeatEveryMs, now });
    if (pruned > 0) this.events.emit('worker:pruned', { pruned });
  }

  /** True while a retention sweep has statements left (the loop then does not sleep between ticks). */
  get sweeping(): boolean {
    return this.retention.running;
  }

  /**
   * One step of the retention sweep, if one is pending or due (at start, then every
   * `sweepIntervalMs`): one bounded statement (runs, activity, executions, then on SQLite the
   * incremental vacuum; lib/schedules/operations/retention-sweep.ts), so fires go on between two batches.
   */
  async sweepStep(now: Date): Promise<void> {
    const interval = this.opts.sweepIntervalMs ?? DAY_MS;
    if (!this.retention.running && (this.lastSweepAt === null || now.getTime() - this.lastSweepAt >= interval)) {
      this.retention.start(now);
      this.lastSweepAt = now.getTime();
    }
    if (!this.retention.running) return;
    const batch = await this.retention.step();
    this.events.emit('retention:swept', { ...batch, totals: batch.done ? { ...this.retention.totals } : null });
  }

  /** Run until `stop()`: tick, then sleep unless the batch was full. */
  async run(): Promise<void> {
    this.events.emit('worker:start', { workerId: this.id });
    const beatEvery = this.opts.heartbeatIntervalMs ?? 5_000;
    let lastBeat = 0;
    let backoffMs = this.opts.pollIntervalMs;
    while (!this.stopping) {
      let claimed = 0;
      let sleepMs = this.opts.pollIntervalMs;
      try {
        const now = this.clock();
        if (now.getTime() - lastBeat >= beatEvery) {
          await this.heartbeat(now);
          lastBeat = now.getTime();
        }
        await this.sweepStep(now);
        // A loop draining a backlog keeps its housekeeping to once a second (HOUSEKEEPING_WHILE_BUSY_MS).
        if (this.lastClaimed < this.opts.batchSize || now.getTime() - this.lastHousekeepingAt >= HOUSEKEEPING_WHILE_BUSY_MS) {
          this.lastHousekeepingAt = now.getTime();
          await this.deliveryStep(now, { alertsInBackground: true });
        }
        claimed = await this.tick(now);
        // SPEC §18.1: backfills after the schedules' own occurrences; while one fires, loop at once.
        const backfilled = await this.backfillStep(this.clock());
        if (backfilled > 0) claimed = Math.max(claimed, this.opts.batchSize);
        backoffMs = this.opts.pollIntervalMs;
        this.pingHeartbeatUrl(now);
        if (claimed < this.opts.batchSize && !this.sweeping) sleepMs = await this.idleFor(this.clock());
      } catch (e) {
        this.events.emit('tick:error', { error: toError(e) });
        backoffMs = Math.min(backoffMs * 2, 30_000);
        sleepMs = backoffMs;
      }
      if (this.stopping) break;
      // A full batch (or a pending sweep) means more work is waiting: loop again at once.
      if (claimed < this.opts.batchSize && !this.sweeping) await this.sleep(sleepMs);
    }
    // A graceful stop records every attempt in hand first: none is left for recovery.
    await this.deliveries.drain();
    await this.alertSends;
    await markWorkerStopped(this.opts.db, this.id, this.clock()).catch(() => undefined);
  }

  /**
   * Between ticks: renew the leases of the attempts in hand (every 20 s of the worker's clock), cancel
   * those waiting for a slot whose schedule was deleted or disabled (at most every second), send the
   * dead letters whose SQS send is due (SPEC §12.3), and decide `timed_out` for runs past their
   * completion deadline (SPEC §16.1).
   */
  async deliveryStep(now: Date, opts: { alertsInBackground?: boolean } = {}): Promise<void> {
    const timedOut = await this.engine.timeOutRuns(this.opts.db, now);
    if (timedOut.length > 0) this.events.emit('outcome:timed-out', { runs: timedOut });
    if (this.deliveries.size > 0 && now.getTime() - this.lastRenewAt >= LEASE_RENEW_MS) {
      await this.deliveries.renew(now);
      this.lastRenewAt = now.getTime();
    }
    // SPEC §12.2: a deleted or disabled schedule's attempts still waiting for a slot are cancelled at once.
    if (this.deliveries.size > 0 && now.getTime() - this.lastCancelCheckAt >= CANCEL_CHECK_MS) {
      this.lastCancelCheckAt = now.getTime();
      const cancelled = await this.deliveries.cancelWaiting();
      if (cancelled > 0) this.events.emit('deliveries:cancelled', { cancelled });
    }
    const report = await this.engine.sendDueDeadLetters(this.opts.db, this.delivery, now);
    if (report.sent + report.failed > 0) this.events.emit('dead-letters:sent', report);
    await this.alertStep(now, opts);
  }

  /**
   * SPEC §17, between ticks: every minute of the worker's clock, raise `silence` and re-alert rounds
   * (whether or not anything fires); every time, send the alerts that are due. With
   * `alertsInBackground` (the loop's way) the sends run beside the loop, one batch at a time, so a
   * channel that answers slowly (up to its timeout) never holds the next tick back; `run()` waits for
   * the batch in hand before it returns.
   */
  async alertStep(now: Date, opts: { alertsInBackground?: boolean } = {}): Promise<void> {
    if (this.lastAlertCheckAt === null || now.getTime() - this.lastAlertCheckAt >= ALERT_CHECK_MS) {
      this.lastAlertCheckAt = now.getTime();
      const silent = await checkSilence(this.opts.db, now);
      // Rules on schedules the fire path deleted (action_after_completion "delete") go with them (decision 344).
      await endAlertingOfDeletedSchedules(this.opts.db, now);
      const realerts = await realertIncidents(this.opts.db, now);
      if (silent + realerts > 0) this.events.emit('alerts:raised', { silent, realerts });
      // The alert log goes with the runs (SPEC §9 run_retention_days), a bounded batch a minute.
      const swept = await sweepAlerts(this.opts.db, new Date(now.getTime() - this.opts.limits.runRetentionDays * DAY_MS));
      if (swept > 0) this.events.emit('alerts:swept', { deleted: swept });
    }
    if (!opts.alertsInBackground) return this.sendAlerts(now, false);
    this.alertSends ??= this.sendAlerts(now, true)
      .catch((e) => this.events.emit('tick:error', { error: toError(e) }))
      .finally(() => {
        this.alertSends = null;
      });
  }

  /** Send the alerts that are due (SPEC §17) and report them. */
  private async sendAlerts(now: Date, inBackground: boolean): Promise<void> {
    const { pool, allowList, resolve } = this.delivery;
    // Beside the loop, each batch reads the worker's clock (its lease counts from its own claim);
    // batches follow one another until none is due or the worker stops.
    const at = inBackground ? () => this.clock() : now;
    const sent = await sendDueAlerts(this.opts.db, { pool, allowList, resolve, publicUrl: this.opts.alerts?.publicUrl ?? 'http://127.0.0.1:3000' }, at, () => this.stopping);
    if (sent.sent + sent.failed > 0) this.events.emit('alerts:sent', sent);
  }

  /**
   * SPEC §17 dead man's switch: request SCHEDULER_HEARTBEAT_URL once a minute of the worker's clock,
   * called only after a loop that fired normally (no error), so a worker that stopped or keeps failing
   * falls silent and the outside monitor notices. Not awaited by the loop; a failed request is logged.
   */
  pingHeartbeatUrl(now: Date): void {
    const url = this.opts.alerts?.heartbeatUrl;
    if (!url || (this.lastHeartbeatUrlAt !== null && now.getTime() - this.lastHeartbeatUrlAt < ALERT_CHECK_MS)) return;
    this.lastHeartbeatUrlAt = now.getTime();
    fetch(url, { method: 'GET', redirect: 'follow', signal: AbortSignal.timeout(HEARTBEAT_URL_TIMEOUT_MS) })
      .then((res) => {
        void res.body?.cancel();
        this.events.emit('heartbeat-url:pinged', { status: res.status });
      })
      .catch((e) => this.events.emit('heartbeat-url:failed', { error: toError(e) }));
  }

  /**
   * How long to sleep when nothing more is due: until the earliest next_fire_at (index lookup), at
   * most `pollIntervalMs` (a schedule saved meanwhile with an earlier occurrence is then seen within
   * one poll interval). When the earliest is already due, other workers hold it (PostgreSQL SKIP
   * LOCKED): look again after BUSY_RETRY_MS. When the last tick claimed only occurrences it could
   * not fire, wait a full poll interval instead of spinning on them.
   */
  private async idleFor(now: Date): Promise<number> {
    if (this.lastProgress === 0 && this.lastClaimed > 0) return this.opts.pollIntervalMs;
    const earliest = await findEarliestDue(this.opts.db);
    if (!earliest) return this.opts.pollIntervalMs;
    const untilDue = earliest.getTime() - now.getTime();
    if (untilDue <= 0) return Math.min(this.opts.pollIntervalMs, BUSY_RETRY_MS);
    return Math.min(this.opts.pollIntervalMs, untilDue);
  }


  /**
   * SPEC §18.1: one transaction of backfill fires, after the tick (the schedules' own occurrences are
   * always claimed first, in their own transaction): each running backfill's next occurrences, as many
   * as its `max_concurrency` leaves room for, at most `batchSize` in all. Returns how many it fired.
   */
  async backfillStep(now: Date): Promise<number> {
    const started = performance.now();
    let result;
    try {
      result = await this.engine.fireBackfills({ db: this.opts.db, now, limit: this.opts.batchSize, limits: this.opts.limits, clock: this.clock });
    } catch (e) {
      this.events.emit('backfill:error', { error: toError(e) });
      return 0;
    }
    const { outcomes, completed, waiting } = result;
    this.deliveries.start(outcomes.flatMap((o) => (o.kind === 'delivering' ? [o.delivery] : [])));
    let fired = 0;
    for (const out of outcomes) {
      if (out.kind === 'fired' || out.kind === 'delivering') fired++;
      this.report(out);
    }
    if (fired > 0 || completed.length > 0) this.events.emit('backfill:tick', { fired, completed, waiting, durationMs: performance.now() - started });
    return fired;
  }

  /** Ask the loop to stop after the batch in hand (graceful shutdown). */
  stop(reason: string): void {
    if (this.stopping) return;
    this.stopping = true;
    this.events.emit('worker:stop', { workerId: this.id, reason });
    this.wake?.();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wake = done;
    });
  }
}
