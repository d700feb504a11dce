/**
 * The worker's deliveries to after-commit targets (SPEC §13: http, aws), running beside its ticks: each tick
 * hands over the attempts its transaction stored in flight; they go through the process's bounded
 * delivery pool; each one's run is recorded as soon as it settles, grouped into one transaction per
 * flush (`recordDelivered`), so a slow receiver holds a pool slot and nothing else — not the claim,
 * not the next tick, not the other attempts' records.
 *
 * Deliveries wait for slots of the pool, of their org and of their schedule (fair between tenants:
 * lib/targets/pool.ts); a waiting one whose schedule was deleted or disabled is cancelled within a
 * second (`cancelWaiting`), and the send count refuses any that slips past (lib/engine/in-flight.ts).
 *
 * While an attempt is in hand its lease is renewed (`renew`, called from the worker loop on the
 * worker's clock), so no other worker recovers it; if this process dies, the lease ends and
 * another worker re-delivers it once (lib/engine/in-flight.ts).
 */
import type { Db } from '../lib/db';
import { toError } from '../lib/errors';
import { cancelUndeliverable, renewInFlightLeases, type DeliveredAttempt, type DeliveryDeps, type Engine, type FireOutcome, type InFlightAttempt } from '../lib/schedules';

/** Most delivered attempts recorded in one transaction. */
const RECORD_CHUNK = 500;

/**
 * How a failed record is tried again, in ms of real time: after 1 s, then 2 s, then 4 s (about 7 s in
 * all, well inside the 60 s lease margin). A fault that outlasts them leaves the chunk to recovery.
 */
const RECORD_RETRY_DELAYS_MS = [1_000, 2_000, 4_000];

export class DeliveryRunner {
  /** Attempts delivered or delivering, not yet recorded, by pending id. */
  private readonly inHand = new Map<string, InFlightAttempt>();
  private readonly settled: DeliveredAttempt[] = [];
  private flushing: Promise<void> | null = null;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly engine: Engine,
    private readonly deps: DeliveryDeps,
    private readonly clock: () => Date,
    private readonly onRecorded: (outcomes: FireOutcome[]) => void,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Attempts in hand (delivering, or delivered and waiting for their record). */
  get size(): number {
    return this.inHand.size;
  }

  /** Pending ids of the attempts in hand (for lease renewal and tests). */
  get pendingIds(): string[] {
    return [...this.inHand.keys()];
  }

  /** Start delivering `attempts` (just committed in flight); returns at once. */
  start(attempts: InFlightAttempt[]): void {
    if (attempts.length === 0) return;
    for (const a of attempts) this.inHand.set(a.pendingId, a);
    for (const p of this.engine.deliverEach(this.db, attempts, this.deps, this.clock())) {
      void p.then((d) => {
        this.settled.push(d);
        this.kick();
      });
    }
  }

  /** Move the leases of the attempts in hand forward (SPEC §13: no other worker recovers them meanwhile). */
  async renew(now: Date): Promise<void> {
    const ids = this.pendingIds;
    if (ids.length) await renewInFlightLeases(this.db, ids, now);
  }

  /**
   * Cancel the attempts in hand still waiting for a pool slot whose schedule was deleted or disabled
   * (SPEC §12.2): they are never sent; each is recorded `cancelled` like any settled delivery (a deleted
   * schedule's record is dropped with it). Returns how many.
   */
  cancelWaiting(): Promise<number> {
    return cancelUndeliverable(this.db, this.pendingIds, this.deps);
  }

  /** Resolves when every attempt in hand is recorded (graceful stop, tests). */
  drain(): Promise<void> {
    if (this.inHand.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private kick(): void {
    if (this.flushing) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = null;
      if (this.settled.length) this.kick();
      else if (this.inHand.size === 0) for (const w of this.idleWaiters.splice(0)) w();
    });
  }

  private async flush(): Promise<void> {
    while (this.settled.length) {
      const chunk = this.settled.splice(0, RECORD_CHUNK);
      await this.record(chunk);
      for (const d of chunk) this.inHand.delete(d.attempt.pendingId);
    }
  }

  /**
   * Record `chunk` in one transaction; a failed record (a database fault: nothing was recorded) is
   * tried again after each of RECORD_RETRY_DELAYS_MS, the chunk still in hand, so its leases are
   * still renewed and no other worker repeats its deliveries. Exactly once: each try's DELETE of the
   * in-flight rows decides (lib/engine/in-flight.ts `recordDelivered`), so a try after a recovery
   * records nothing. After the last try the in-flight rows stay, their leases are no longer renewed,
   * and a worker recovers them once the leases end (a repeated delivery, said on the run).
   */
  private async record(chunk: DeliveredAttempt[]): Promise<void> {
    for (let tried = 0; ; tried++) {
      try {
        this.onRecorded(await this.engine.recordDelivered(this.db, chunk, this.clock()));
        return;
      } catch (e) {
        this.onError(toError(e));
        if (tried >= RECORD_RETRY_DELAYS_MS.length) return;
        await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_DELAYS_MS[tried]));
      }
    }
  }
}
