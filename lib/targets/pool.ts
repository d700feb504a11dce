/**
 * The bounded delivery pool outbound deliveries go through (SPEC §13; "delivery outside the database
 * transaction"): one concurrency limit shared by webhooks, AWS calls and dead letters, so a slow
 * receiver or a throttled service holds at most `concurrency` slots and never the worker's claim,
 * its database connection or the event loop. The process's edge makes one (`createDeliveryPool`
 * with `SCHEDULER_DELIVERY_CONCURRENCY` and the per-org and per-schedule caps) and passes it to
 * every delivery.
 *
 * Fair between tenants (SPEC §2: orgs are apart): a keyed delivery (the engine keys each attempt by
 * its org and schedule) also needs a free slot of its org (`perOrg`) and of its schedule
 * (`perSchedule`), so one org's hanging receivers hold at most `perOrg` slots and the others' deliveries
 * find free ones. Waiting deliveries are taken round-robin across orgs, then across an org's
 * schedules; each schedule's deliveries leave in the order they were handed in (FIFO), so a schedule's
 * occurrences are still sent oldest first. Unkeyed deliveries (dead letters) count only against
 * `concurrency` and wait in their own FIFO, taken in turn with the orgs.
 */

/** Who a delivery is for: the caps it counts against, and its id for `cancel`. */
export interface DeliveryKey {
  org: string;
  schedule: string;
  /** The attempt's id (its `pending_attempts` row), for `cancel`. */
  attempt: string;
}

/** A delivery still waiting for a slot was cancelled (its schedule was deleted or disabled): it never ran. */
export class DeliveryCancelled extends Error {
  constructor(readonly attempt: string) {
    super(`delivery ${attempt} was cancelled before it was sent`);
    this.name = 'DeliveryCancelled';
  }
}

export interface DeliveryPool {
  /**
   * Run `send` when a slot is free (and, with `key`, a slot of its org and of its schedule), holding
   * the slot(s) until it settles. Rejects with `DeliveryCancelled`, without calling `send`, when
   * `cancel` names it while it waits.
   */
  run<T>(send: () => Promise<T>, key?: DeliveryKey): Promise<T>;
  /** Deliveries in flight and waiting (for metrics and tests). */
  load(): { active: number; pending: number };
  /** Cancel the waiting deliveries of attempts `ids` (running ones are not touched); returns how many. */
  cancel(ids: ReadonlySet<string>): number;
}

/** The pool's bounds (each ≥ 1; the per-org and per-schedule caps are clamped to the ones above them). */
export interface DeliveryCaps {
  /** Deliveries in flight at once, in all. */
  concurrency: number;
  /** Keyed deliveries of one org in flight at once. Default: `concurrency`. */
  perOrg?: number;
  /** Keyed deliveries of one schedule in flight at once. Default: the org cap. */
  perSchedule?: number;
}

interface Waiter {
  key: DeliveryKey | undefined;
  start: () => void;
  cancel: () => void;
}

/** The waiting deliveries of one org: a FIFO per schedule, the schedules in turn (Map order). */
type OrgQueue = Map<string, Waiter[]>;

/** The queue of unkeyed deliveries, taking its turn among the orgs. */
const UNKEYED = '\u0000unkeyed';

/** A pool bounded by `caps` (or a plain number: `concurrency`, no per-org or per-schedule cap). */
export function createDeliveryPool(caps: number | DeliveryCaps): DeliveryPool {
  const c = typeof caps === 'number' ? { concurrency: caps } : caps;
  const concurrency = Math.max(1, c.concurrency);
  const perOrg = Math.max(1, Math.min(concurrency, c.perOrg ?? concurrency));
  const perSchedule = Math.max(1, Math.min(perOrg, c.perSchedule ?? perOrg));
  const queues = new Map<string, OrgQueue>();
  const activeByOrg = new Map<string, number>();
  const activeBySchedule = new Map<string, number>();
  let active = 0;
  let pending = 0;

  const bump = (m: Map<string, number>, k: string, by: number) => {
    const n = (m.get(k) ?? 0) + by;
    if (n === 0) m.delete(k);
    else m.set(k, n);
  };

  /** The next waiter allowed to start, removed from its queue; the org and schedule it came from go last in turn. */
  const take = (): Waiter | undefined => {
    for (const [org, schedules] of queues) {
      if (org !== UNKEYED && (activeByOrg.get(org) ?? 0) >= perOrg) continue;
      for (const [schedule, fifo] of schedules) {
        if (org !== UNKEYED && (activeBySchedule.get(schedule) ?? 0) >= perSchedule) continue;
        // Ordering: a schedule's deliveries start in the order they were handed in (FIFO).
        const w = fifo.shift()!;
        schedules.delete(schedule);
        if (fifo.length) schedules.set(schedule, fifo); // its next one goes last among the org's schedules
        queues.delete(org);
        if (schedules.size) queues.set(org, schedules); // the org goes last among the orgs
        return w;
      }
    }
    return undefined;
  };

  const pump = () => {
    while (active < concurrency) {
      const w = take();
      if (!w) return;
      pending--;
      w.start();
    }
  };

  return {
    run<T>(send: () => Promise<T>, key?: DeliveryKey): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const waiter: Waiter = {
          key,
          start: () => {
            active++;
            if (key) {
              bump(activeByOrg, key.org, 1);
              bump(activeBySchedule, key.schedule, 1);
            }
            // Slots are released when the delivery settles, whatever its outcome.
            void (async () => send())()
              .then(resolve, reject)
              .finally(() => {
                active--;
                if (key) {
                  bump(activeByOrg, key.org, -1);
                  bump(activeBySchedule, key.schedule, -1);
                }
                pump();
              });
          },
          cancel: () => reject(new DeliveryCancelled(key?.attempt ?? '')),
        };
        const org = key?.org ?? UNKEYED;
        const schedule = key?.schedule ?? UNKEYED;
        let schedules = queues.get(org);
        if (!schedules) queues.set(org, (schedules = new Map()));
        const fifo = schedules.get(schedule);
        if (fifo) fifo.push(waiter);
        else schedules.set(schedule, [waiter]);
        pending++;
        pump();
      });
    },
    load: () => ({ active, pending }),
    cancel(ids) {
      let cancelled = 0;
      for (const [org, schedules] of queues) {
        for (const [schedule, fifo] of schedules) {
          const keep = fifo.filter((w) => !(w.key && ids.has(w.key.attempt)));
          if (keep.length === fifo.length) continue;
          for (const w of fifo) if (w.key && ids.has(w.key.attempt)) w.cancel();
          cancelled += fifo.length - keep.length;
          if (keep.length) schedules.set(schedule, keep);
          else schedules.delete(schedule);
        }
        if (schedules.size === 0) queues.delete(org);
      }
      pending -= cancelled;
      return cancelled;
    },
  };
}
