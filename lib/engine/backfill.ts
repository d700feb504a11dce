/**
 * SPEC §18.1 backfills in the fire path: the worker claims each running backfill's next occurrences,
 * as many as its `max_concurrency` leaves room for, and fires them as first attempts with the trigger
 * `backfill:<id>` and their nominal `scheduled_for` — the schedule's target, retry policy and dead
 * letter (settle.ts), neither the catch-up window nor the overlap policy (plan.ts is not involved).
 * Its own transaction, after the worker's batch of the schedules' own occurrences (worker/worker.ts):
 * a backfill never takes a schedule's row lock or moves its `next_fire_at`, so it never delays them.
 */
import type { Limits } from '../config';
import { anyRunningBackfill, claimBackfillOccurrences, countBackfillEnded, finishBackfill, inTransaction, lockRunningBackfills, readFiringSchedules, type Db } from '../db';
import { backfillTrigger } from '../targets';
import type { FirstAttempt } from './attempt';
import type { EngineDeps } from './deps';
import { fireClaimed } from './fire';
import { nextOccurrenceInWindow, type ScheduleTiming } from './occurrences';
import { FIRE_TX, type FireOutcome } from './outcomes';

export interface FireBackfillsOptions {
  db: Db;
  now: Date;
  /** Most occurrences fired in this one transaction, over every backfill (≥ 1); also most backfills looked at. */
  limit: number;
  limits: Limits;
  /** The fire's instant (runs' `created_at`), read once after the claim. Default: `now`. */
  clock?: () => Date;
}

/** What one `fireBackfills` call did: the fires (as the occurrence claim reports them) and the backfills it completed. */
export interface BackfillsFired {
  outcomes: FireOutcome[];
  /** Backfills whose every occurrence was fired and ended: now `completed`. */
  completed: string[];
  /** Running backfills that still have occurrences to claim (the worker loops again soon when > 0). */
  waiting: number;
}

/**
 * Claim and fire, in one transaction, the next occurrences of the running backfills (oldest backfill
 * first), each up to `max_concurrency` − its occurrences in flight, at most `limit` in all; complete
 * the backfills with nothing left in flight.
 */
export async function fireBackfills(deps: EngineDeps, opts: FireBackfillsOptions): Promise<BackfillsFired> {
  const { db, now, limit, limits } = opts;
  // Most loops have no backfill running: one indexed read instead of a write transaction (~1 ms of a
  // PostgreSQL worker's CPU a loop). A backfill started after it is fired from the next loop on.
  if (!(await anyRunningBackfill(db))) return { outcomes: [], completed: [], waiting: 0 };
  return inTransaction(db, async (tx) => {
    // The backfill rows are locked first: see lib/db/sql/backfills.ts for what that guards.
    const running = await lockRunningBackfills(tx, limit);
    if (running.length === 0) return { outcomes: [], completed: [], waiting: 0 };
    const schedules = await readFiringSchedules(tx, running.map((b) => b.scheduleId));
    const firsts: FirstAttempt[] = [];
    const completed: string[] = [];
    let waiting = 0;
    let budget = limit;
    // Serialization is desired: one transaction client runs one statement at a time.
    for (const b of running) {
      const schedule = schedules.get(b.scheduleId);
      // Held by another transaction (a delete, its own claim or record; PostgreSQL): a later loop
      // fires it (a deleted schedule's backfills went with it).
      if (!schedule) {
        waiting++;
        continue;
      }
      const trigger = backfillTrigger(b.id);
      const ended = await countBackfillEnded(tx, b, trigger, schedule.completionExpectSeconds !== null);
      if (b.fired >= b.total) {
        if (ended >= b.fired && (await finishBackfill(tx, b.id, 'completed', now))) completed.push(b.id);
        continue;
      }
      waiting++;
      // SPEC §18.1: at most max_concurrency of its occurrences in flight (claimed and not ended).
      const room = Math.min(b.maxConcurrency - (b.fired - ended), budget);
      if (room <= 0) continue;
      const instants = await claimBackfillOccurrences(tx, b, room, now);
      budget -= instants.length;
      for (const scheduledFor of instants) firsts.push({ schedule, trigger, scheduledFor, dueAt: now });
      if (budget <= 0) break;
    }
    if (firsts.length === 0) return { outcomes: [], completed, waiting };
    const outcomes = await fireClaimed(tx, deps, [], [], opts.clock?.() ?? now, limits, firsts);
    return { outcomes, completed, waiting };
  }, FIRE_TX);
}

/**
 * The occurrences of a schedule's timing with `from < scheduled_for ≤ to` (SPEC §18.1, Temporal's
 * bounds) inside its start/end dates, oldest first, at most `max` + 1 of them (one more than `max`
 * tells the caller the range holds too many). Pure.
 */
export function occurrencesInRange(t: ScheduleTiming, from: Date, to: Date, max: number): Date[] {
  const out: Date[] = [];
  for (let at = nextOccurrenceInWindow(t, from); at && at.getTime() <= to.getTime() && out.length <= max; at = nextOccurrenceInWindow(t, at)) out.push(at);
  return out;
}
