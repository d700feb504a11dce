/**
 * When a schedule fires: its occurrences inside the `start_date..end_date` window (SPEC §5.1, §7,
 * §12.1), and when each one is due with the flexible time window (SPEC §12.4).
 * Pure: every function takes its reference instant; nothing here reads the clock.
 */
import { nextOccurrence, nextRateOccurrences, parseRateExpression, resolveLocalTime } from '../cron';
import type { Repeat } from '../db/contract';
import { flexibleFireAt } from './flexible-window';

/** The time part of a schedule ("spec" in STYLE §3.1), as stored. Instants are UTC `Date`s. */
export interface ScheduleTiming {
  repeat: Repeat;
  cronExpression: string | null;
  /** `<value> <unit>` (recurring_rate only). */
  rateExpression: string | null;
  /** The instant a rate's intervals count from (recurring_rate only). */
  rateAnchor: Date | null;
  invocationTime: string | null;
  timezone: string;
  /** Inclusive lower bound of fires, or null. */
  startDate: Date | null;
  /** Inclusive upper bound of fires, or null. */
  endDate: Date | null;
}

/**
 * The first occurrence strictly after `after` that lies inside the window, or null when none is left
 * (which completes the schedule, SPEC §5.3). One-time: its instant, if after `after` and inside the
 * window. Rate: `rate_anchor + k × interval` (SPEC §12.1). Occurrences are nominal instants: the
 * flexible-window offset is applied by `fireAtOf`.
 * Throws the time engine's errors for an invalid expression or zone (validated at save, so not expected).
 */
export function nextOccurrenceInWindow(t: ScheduleTiming, after: Date): Date | null {
  if (t.repeat === 'one_time') {
    const at = resolveLocalTime(t.invocationTime ?? '', t.timezone);
    return at > after && inWindow(t, at) ? at : null;
  }
  // Occurrences before start_date never fire: start looking just before it.
  const from = t.startDate && t.startDate.getTime() - 1 > after.getTime() ? new Date(t.startDate.getTime() - 1) : after;
  const next =
    t.repeat === 'recurring_rate'
      ? (nextRateOccurrences(parseRateExpression(t.rateExpression ?? ''), t.rateAnchor ?? t.startDate ?? 0, from, 1)[0] ?? null)
      : nextOccurrence(t.cronExpression ?? '', t.timezone, from);
  if (!next) return null;
  return t.endDate && next > t.endDate ? null : next;
}

/** True when `at` lies inside the schedule's inclusive window. */
export function inWindow(t: ScheduleTiming, at: Date): boolean {
  if (t.startDate && at < t.startDate) return false;
  if (t.endDate && at > t.endDate) return false;
  return true;
}

/**
 * When occurrence `scheduledFor` of schedule `scheduleId` is due: `scheduledFor` plus its
 * deterministic flexible-window offset (SPEC §12.4), or `scheduledFor` itself when the window is off
 * (`windowMinutes` null).
 */
export function fireAtOf(scheduleId: string, windowMinutes: number | null, scheduledFor: Date): Date {
  return flexibleFireAt(scheduleId, scheduledFor, windowMinutes);
}

/**
 * The anchor a rate counts from when saved at `now` (SPEC §12.1): `start_date` when set, else `now`
 * rounded up to the next whole minute (a save at 10:00:00.000 anchors at 10:00, at 10:00:00.001 at 10:01).
 */
export function rateAnchorFor(startDate: Date | null, now: Date): Date {
  if (startDate) return startDate;
  return new Date(Math.ceil(now.getTime() / 60_000) * 60_000);
}

/** Most due occurrences `countDueOccurrences` walks (a long outage): the count stops there. */
const MAX_DUE_WALK = 100_000;

/**
 * How many occurrences are due at `now` and not yet fired, from the pending one (`scheduledFor`, due
 * at `fireAt`) on, under the stored timing (SPEC §8: an edit that makes them unreachable counts them in
 * `skipped_occurrences`). 0 when the pending occurrence is not due yet. Bounded by 100,000.
 */
export function countDueOccurrences(t: ScheduleTiming, scheduleId: string, windowMinutes: number | null, scheduledFor: Date, fireAt: Date, now: Date): number {
  let count = 0;
  let next: { scheduledFor: Date; fireAt: Date } | null = { scheduledFor, fireAt };
  while (next && next.fireAt.getTime() <= now.getTime() && count < MAX_DUE_WALK) {
    count++;
    const following = nextOccurrenceInWindow(t, next.scheduledFor);
    next = following ? { scheduledFor: following, fireAt: fireAtOf(scheduleId, windowMinutes, following) } : null;
  }
  return count;
}
