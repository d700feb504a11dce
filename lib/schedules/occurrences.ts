/**
 * When a schedule fires: its occurrences inside the `start_date..end_date` window (SPEC §5.1, §7).
 * Pure: every function takes its reference instant; nothing here reads the clock.
 */
import { nextOccurrence, resolveLocalTime } from '../cron';

/** The time part of a schedule ("spec" in STYLE §3.1), as stored. Instants are UTC `Date`s. */
export interface ScheduleTiming {
  repeat: 'one_time' | 'recurring_cron';
  cronExpression: string | null;
  invocationTime: string | null;
  timezone: string;
  /** Inclusive lower bound of fires, or null. */
  startDate: Date | null;
  /** Inclusive upper bound of fires, or null. */
  endDate: Date | null;
}

/**
 * The first occurrence strictly after `after` that lies inside the window, or null when none is left
 * (which completes the schedule, SPEC §5.3). One-time: its instant, if after `after` and inside the window.
 * Throws the time engine's errors for an invalid expression or zone (validated at save, so not expected).
 */
export function nextOccurrenceInWindow(t: ScheduleTiming, after: Date): Date | null {
  if (t.repeat === 'one_time') {
    const at = resolveLocalTime(t.invocationTime ?? '', t.timezone);
    return at > after && inWindow(t, at) ? at : null;
  }
  // Occurrences before start_date never fire: start looking just before it.
  const from = t.startDate && t.startDate.getTime() - 1 > after.getTime() ? new Date(t.startDate.getTime() - 1) : after;
  const next = nextOccurrence(t.cronExpression ?? '', t.timezone, from);
  if (!next) return null;
  return t.endDate && next > t.endDate ? null : next;
}

/** True when `at` lies inside the schedule's inclusive window. */
export function inWindow(t: ScheduleTiming, at: Date): boolean {
  if (t.startDate && at < t.startDate) return false;
  if (t.endDate && at > t.endDate) return false;
  return true;
}
