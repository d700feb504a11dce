/**
 * The save-time rules of SPEC §5.2 that need the clock but not the server, checked before `deploy`
 * writes so a schedule the server would refuse is found first: a one-time `invocation_time` in the past
 * or outside the window, an `end_date` already passed, a cron expression with no occurrence left inside
 * the window. Pure: `now` is a parameter.
 */
import { nextOccurrence, resolveLocalTime } from '../lib/cron';
import type { ScheduleCreateInput } from '../lib/schedules/contract';

/** A timing problem with its SPEC code and the field at fault. */
export interface TimingProblem {
  code: 'invalid_invocation_time' | 'invalid_date_window' | 'invalid_cron_expression';
  path: string;
  message: string;
}

/**
 * The first reason the server would refuse to save `input` at `now`, or null. Mirrors the server's
 * window rule: fires only at instants `start_date <= t <= end_date` (both inclusive, SPEC §5.1).
 */
export function checkTiming(input: ScheduleCreateInput, now: Date): TimingProblem | null {
  const start = input.start_date ? new Date(input.start_date) : null;
  const end = input.end_date ? new Date(input.end_date) : null;
  if (input.repeat === 'one_time') {
    const at = resolveLocalTime(input.invocation_time ?? '', input.timezone);
    if (at <= now) return { code: 'invalid_invocation_time', path: 'invocation_time', message: `invocation_time ${input.invocation_time} in ${input.timezone} (${at.toISOString()}) is in the past` };
    if ((start && at < start) || (end && at > end)) {
      return { code: 'invalid_invocation_time', path: 'invocation_time', message: 'invocation_time lies outside the start_date..end_date window' };
    }
    return null;
  }
  if (end && end <= now) return { code: 'invalid_date_window', path: 'end_date', message: `end_date ${end.toISOString()} is in the past, so the schedule could never fire` };
  const from = start && start.getTime() - 1 > now.getTime() ? new Date(start.getTime() - 1) : now;
  const next = nextOccurrence(input.cron_expression ?? '', input.timezone, from);
  if (!next || (end && next > end)) {
    return { code: 'invalid_cron_expression', path: 'cron_expression', message: `cron_expression "${input.cron_expression}" never fires inside the schedule's window` };
  }
  return null;
}
