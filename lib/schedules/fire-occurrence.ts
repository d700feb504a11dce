/**
 * The worker's fire of due occurrences (SPEC §8), with the catch-up window. One transaction per
 * batch: claim (lib/db/sql/claim-due.ts), advance next_fire_at with an ownership check
 * (advance-next-fire.ts), invoke, record the runs (insert-runs.ts). Commit makes all of it visible at
 * once; a crash before commit leaves every occurrence of the batch due, so each fires exactly once.
 */
import type { Limits } from '../config';
import { advanceNextFire, claimDue, claimOccurrence, findFiredOccurrences, inTransaction, type ClaimedSchedule, type Db, type Tx } from '../db';
import { toError } from '../errors';
import { invokeTargets, type InvokeOutcome } from './invoke-target';
import { nextOccurrenceInWindow, type ScheduleTiming } from './occurrences';

/** Most occurrences counted one by one when skipping a long outage; beyond it we jump ahead. */
const MAX_SKIP_WALK = 100_000;

/**
 * Interactive-transaction bounds for a batch. `maxWait` covers waiting for SQLite's write lock
 * (another worker's batch) or a PostgreSQL connection; `timeout` is far above a batch's real cost
 * and only stops a wedged transaction (it then rolls back: nothing fired).
 */
const FIRE_TX = { maxWait: 30_000, timeout: 120_000 } as const;

export type FireOutcome =
  | { kind: 'fired'; scheduleId: string; scheduledFor: Date; lateMs: number; run: InvokeOutcome; completed: boolean }
  | { kind: 'skipped'; scheduleId: string; scheduledFor: Date; skipped: number; completed: boolean }
  /** The occurrence already has a scheduled run: next_fire_at was advanced, nothing fired again. */
  | { kind: 'already-fired'; scheduleId: string; scheduledFor: Date; completed: boolean }
  /** Another worker (or a save) moved next_fire_at first: nothing was written. */
  | { kind: 'lost-race'; scheduleId: string; scheduledFor: Date }
  /** The following occurrence could not be computed: the schedule was left as it was. */
  | { kind: 'error'; scheduleId: string; scheduledFor: Date; error: Error };

export interface FireDueOptions {
  db: Db;
  /** Occurrences with next_fire_at ≤ now are due. */
  now: Date;
  /** Most occurrences claimed and fired in this one transaction (≥ 1). */
  limit: number;
  limits: Limits;
  /** The fire's instant (runs' `created_at`, lateness, catch-up), read once after the claim. Default: `now`. */
  clock?: () => Date;
}

/**
 * Claim up to `limit` due occurrences (oldest first) and fire them, in one transaction. Returns one
 * outcome per claimed occurrence, oldest first; an empty array when nothing was due (or, on
 * PostgreSQL, when every due row is held by other workers).
 */
export async function fireDue(opts: FireDueOptions): Promise<FireOutcome[]> {
  const { db, now, limit, limits } = opts;
  return inTransaction(db, async (tx) => {
    // The claim is the transaction's first statement: see claim-due.ts for what it locks.
    const claimed = await claimDue(tx, now, limit);
    if (claimed.length === 0) return [];
    return fireClaimed(tx, claimed, opts.clock?.() ?? now, limits);
  }, FIRE_TX);
}

export interface FireOccurrenceOptions {
  db: Db;
  scheduleId: string;
  /** The occurrence the caller saw as due (the schedule's next_fire_at when it was listed). */
  scheduledFor: Date;
  now: Date;
  limits: Limits;
}

/**
 * Fire the one occurrence `scheduledFor` of `scheduleId` (or skip it beyond the catch-up window), in
 * its own transaction; `lost-race` when the schedule no longer waits for that occurrence. The same
 * path as `fireDue`, for one named occurrence (the worker's fallback when a batch fails, and tests).
 */
export async function fireOccurrence(opts: FireOccurrenceOptions): Promise<FireOutcome> {
  const { db, scheduleId, scheduledFor, now, limits } = opts;
  const [outcome] = await inTransaction(db, async (tx) => {
    const row = await claimOccurrence(tx, scheduleId, scheduledFor);
    if (!row) return [{ kind: 'lost-race', scheduleId, scheduledFor } as const];
    return fireClaimed(tx, [row], now, limits);
  }, FIRE_TX);
  return outcome;
}

function timingOf(row: ClaimedSchedule): ScheduleTiming {
  return { ...row, repeat: row.repeat as ScheduleTiming['repeat'] };
}

type Plan =
  | { kind: 'fire'; row: ClaimedSchedule; next: Date | null }
  | { kind: 'already-fired'; row: ClaimedSchedule; next: Date | null }
  | { kind: 'skip'; row: ClaimedSchedule; next: Date | null; skipped: number }
  | { kind: 'error'; row: ClaimedSchedule; error: Error };

/**
 * Fire claimed rows at instant `now`: decide each (fire, skip beyond the catch-up window, or already
 * fired), advance them all in one statement, then invoke and record runs for the ones that advanced.
 */
async function fireClaimed(tx: Tx, rows: ClaimedSchedule[], now: Date, limits: Limits): Promise<FireOutcome[]> {
  const windowStart = new Date(now.getTime() - limits.catchupWindowSeconds * 1000);
  const inWindow = rows.filter((r) => r.nextFireAt >= windowStart);
  const alreadyFired = await findFiredOccurrences(tx, inWindow.map((r) => ({ scheduleId: r.id, scheduledFor: r.nextFireAt })));
  const plans = rows.map((row) => plan(row, windowStart, alreadyFired.has(row.id)));

  const advances = plans.flatMap((p) =>
    p.kind === 'error' ? [] : [{ scheduleId: p.row.id, seen: p.row.nextFireAt, next: p.next, skipped: p.kind === 'skip' ? p.skipped : 0 }],
  );
  // Exactly once (SPEC §8): fire ONLY the rows whose next_fire_at this statement moved off the
  // occurrence; it must come before the invocations, in this same transaction.
  const advanced = await advanceNextFire(tx, advances, now);

  const toFire = plans.filter((p): p is Plan & { kind: 'fire' } => p.kind === 'fire' && advanced.has(p.row.id));
  const runs = await invokeTargets(
    tx,
    toFire.map((p) => ({ schedule: p.row, trigger: 'schedule' as const, scheduledFor: p.row.nextFireAt, now })),
    limits,
  );
  const runOf = new Map(toFire.map((p, i) => [p.row.id, runs[i]]));

  return plans.map((p): FireOutcome => {
    const scheduleId = p.row.id;
    const scheduledFor = p.row.nextFireAt;
    if (p.kind === 'error') return { kind: 'error', scheduleId, scheduledFor, error: p.error };
    if (!advanced.has(scheduleId)) return { kind: 'lost-race', scheduleId, scheduledFor };
    const completed = p.next === null;
    switch (p.kind) {
      case 'fire':
        return { kind: 'fired', scheduleId, scheduledFor, lateMs: now.getTime() - scheduledFor.getTime(), run: runOf.get(scheduleId)!, completed };
      case 'skip':
        return { kind: 'skipped', scheduleId, scheduledFor, skipped: p.skipped, completed };
      case 'already-fired':
        return { kind: 'already-fired', scheduleId, scheduledFor, completed };
      default:
        return p satisfies never;
    }
  });
}

/**
 * What to do with one claimed occurrence. Beyond the catch-up window (SPEC §8): count every
 * occurrence older than the window and continue from the first one inside it (which may itself be
 * due now and then fires late on the next tick). A `one_time` schedule missed that way completes
 * with no run.
 */
function plan(row: ClaimedSchedule, windowStart: Date, alreadyFired: boolean): Plan {
  try {
    const timing = timingOf(row);
    const scheduledFor = row.nextFireAt;
    if (scheduledFor < windowStart) {
      let skipped = 0;
      let next: Date | null = scheduledFor;
      while (next && next < windowStart && skipped < MAX_SKIP_WALK) {
        skipped++;
        next = nextOccurrenceInWindow(timing, next);
      }
      if (next && next < windowStart) next = nextOccurrenceInWindow(timing, new Date(windowStart.getTime() - 1));
      return { kind: 'skip', row, next, skipped };
    }
    // Strictly after the occurrence: next_fire_at only ever moves forward.
    const next = nextOccurrenceInWindow(timing, scheduledFor);
    return alreadyFired ? { kind: 'already-fired', row, next } : { kind: 'fire', row, next };
  } catch (e) {
    // Validated at save, so not expected (e.g. a zone dropped from the tz database). The row is
    // neither advanced nor fired; it stays due and is reported on every tick until an operator acts.
    return { kind: 'error', row, error: toError(e) };
  }
}

/**
 * Due occurrences: schedules whose next_fire_at ≤ now, oldest first, through the next_fire_at index
 * (never a scan of every schedule). Disabled and completed schedules have next_fire_at null. A plain
 * read that claims nothing (the worker's fallback, metrics, tests).
 */
export async function listDueOccurrences(db: Db, now: Date, limit: number): Promise<{ scheduleId: string; scheduledFor: Date }[]> {
  const rows = await db.schedule.findMany({
    where: { nextFireAt: { lte: now } },
    orderBy: { nextFireAt: 'asc' },
    take: limit,
    select: { id: true, nextFireAt: true },
  });
  return rows.flatMap((r) => (r.nextFireAt ? [{ scheduleId: r.id, scheduledFor: r.nextFireAt }] : []));
}

/** The earliest next_fire_at of any schedule (index lookup), or null when none is scheduled. */
export async function findEarliestNextFire(db: Db): Promise<Date | null> {
  const row = await db.schedule.findFirst({ where: { nextFireAt: { not: null } }, orderBy: { nextFireAt: 'asc' }, select: { nextFireAt: true } });
  return row?.nextFireAt ?? null;
}
