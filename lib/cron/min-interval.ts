/**
 * SPEC §9 `scheduler.min_interval_seconds`: the shortest gap between two consecutive occurrences.
 *
 * Every matching day fires at the same wall times of day, so on a day whose UTC offset stays put the
 * gaps are known without stepping: the shortest gap within a day, and the gap from the previous
 * occurrence to the day's first time. Days near an offset change (and the first day) are walked
 * occurrence by occurrence with the DST rule. The scan visits each matching day once up to 2199 and
 * stops early at 60 s, the smallest gap whole-minute fires can have.
 *
 * The days after `from`'s own day do not depend on `from` (only the gap from the last occurrence
 * before them does), so their part of the scan (`Tail`) is kept per expression, zone and first day:
 * saving many schedules of one expression on one day scans up to 2199 once (a frequent cron in a
 * zone with DST walks every transition day occurrence by occurrence: tens of ms a call).
 */
import { civilFromDays, daysFromCivil, MS_PER_DAY, MS_PER_MINUTE, MS_PER_SECOND } from './civil';
import { compile, dayMask, FIRST_YEAR, LAST_YEAR, type CompiledCron } from './match';
import { toCronExpression, walkForward } from './next';
import type { CronExpression, Instant } from './types';
import { beginWork, endWork, overBudget, step, WORK_BUDGETS } from './work';
import { toInstant, zoneRules, type ZoneRules } from './zone';

/**
 * The shortest gap, in seconds, between two consecutive occurrences after `from`, in `timezone`,
 * counting gaps across hour and day boundaries and DST changes (`0,59 * * * ? *` → 60,
 * `0/30 * * * ? *` → 1800). DST (SPEC §7.1): clocks jumping forward can shorten it — `0 1,3 * * ? *` in
 * America/New_York gives 3600, from 01:00 EST (2025-03-09T06:00:00Z) to 03:00 EDT (07:00:00Z); falling back
 * never does, as a repeated hour's second pass does not fire (01:30 EDT 2025-11-02T05:30:00Z fires, 06:30Z not).
 * @returns seconds (≥ 60), or null when fewer than two occurrences exist after `from`.
 * @throws CronExpressionError, TimezoneError, RangeError (invalid `from`); CronWorkBudgetExceeded past
 *   `WORK_BUDGETS.minInterval` steps (never expected; see `nextOccurrence`).
 */
export function minIntervalSeconds(expression: string | CronExpression, timezone: string, from: Date | Instant): number | null {
  const cron = toCronExpression(expression);
  const tables = compile(cron);
  const rules = zoneRules(timezone);
  const fromMs = toInstant(from, 'from');
  beginWork(WORK_BUDGETS.minInterval);
  try {
    return scan(typeof expression === 'string' ? expression : null, tables, rules, timezone, fromMs);
  } catch (e) {
    throw overBudget(e, 'minIntervalSeconds', cron.source, timezone, fromMs);
  } finally {
    endWork();
  }
}

/** `minIntervalSeconds` once its arguments are checked; `text` keys the kept tails (null: none kept). */
function scan(text: string | null, tables: CompiledCron, rules: ZoneRules, timezone: string, fromMs: Instant): number | null {
  const times = tables.timesOfDay;
  const firstTime = times[0] * MS_PER_MINUTE;
  const lastTime = times[times.length - 1] * MS_PER_MINUTE;
  let withinDay = Infinity;
  for (let i = 1; i < times.length; i++) withinDay = Math.min(withinDay, (times[i] - times[i - 1]) * MS_PER_MINUTE);

  let shortest = Infinity;
  let previous = NaN;
  // The scan of the days after `from`'s own day: its first occurrence and the gaps after it.
  let inTail = false;
  const tail: Tail = { first: NaN, shortest: Infinity };
  const record = (at: Instant): boolean => {
    if (!Number.isNaN(previous)) shortest = Math.min(shortest, at - previous);
    if (inTail) {
      if (Number.isNaN(tail.first)) tail.first = at;
      else tail.shortest = Math.min(tail.shortest, at - previous);
    }
    previous = at;
    return shortest > MS_PER_MINUTE;
  };
  /** Records each occurrence after the last recorded one (or `from`) whose wall time is below `endWall`. */
  const walkUntil = (endWall: number) =>
    walkForward(tables, rules, Number.isNaN(previous) ? fromMs : previous, (at, wall) => wall < endWall && record(at));

  const startDay = Math.floor(rules.wallAt(fromMs) / MS_PER_DAY);
  walkUntil((startDay + 1) * MS_PER_DAY);
  const key = text === null ? null : `${text}\n${timezone}\n${startDay + 1}`;
  const known = key === null ? undefined : tails.get(key);
  if (known) {
    if (!Number.isNaN(previous) && !Number.isNaN(known.first)) shortest = Math.min(shortest, known.first - previous);
    shortest = Math.min(shortest, known.shortest);
    return shortest === Infinity ? null : shortest / MS_PER_SECOND;
  }
  inTail = true;
  let complete = true;
  for (const day of matchingDays(tables, startDay + 1)) {
    if (shortest <= MS_PER_MINUTE) {
      complete = false;
      break;
    }
    const wallStart = day * MS_PER_DAY;
    const offset = rules.offsetAt(wallStart - MS_PER_DAY);
    if (offset !== rules.offsetAt(wallStart + 2 * MS_PER_DAY)) {
      walkUntil(wallStart + MS_PER_DAY);
      continue;
    }
    record(wallStart + firstTime - offset);
    if (times.length > 1) {
      shortest = Math.min(shortest, withinDay);
      tail.shortest = Math.min(tail.shortest, withinDay);
      previous = wallStart + lastTime - offset;
    }
  }
  // A scan cut short at 60 s is the tail's own answer only when its own gaps got there (nothing is shorter).
  if (key !== null && (complete || tail.shortest <= MS_PER_MINUTE)) {
    if (tails.size >= 1000) tails.clear();
    tails.set(key, tail);
  }
  return shortest === Infinity ? null : shortest / MS_PER_SECOND;
}

/** What the days from one day on contribute: their first occurrence (NaN if none) and the shortest gap after it. */
interface Tail {
  first: Instant;
  shortest: number;
}

/** Tails by expression text, zone and first day (bounded: cleared at 1,000 entries). */
const tails = new Map<string, Tail>();

/** Tests only: forget the kept tails, so the next call scans to 2199 again. */
export function clearMinIntervalCache(): void {
  tails.clear();
}

/** Days (since 1970-01-01, local) from `fromDay` on whose date matches the expression, ascending, up to 2199. */
function* matchingDays(tables: CompiledCron, fromDay: number): Generator<number> {
  let { year, month, day } = civilFromDays(fromDay);
  if (year < FIRST_YEAR) [year, month, day] = [FIRST_YEAR, 1, 1];
  for (; year <= LAST_YEAR; year++, month = 1, day = 1) {
    if (tables.yearNext[year - FIRST_YEAR] !== year) continue;
    for (; month <= 12; month++, day = 1) {
      if (tables.monthNext[month] !== month) continue;
      const beforeFirst = daysFromCivil(year, month, 1) - 1;
      for (let mask = (dayMask(tables, year, month) >>> day) << day; mask !== 0; mask &= mask - 1) {
        step();
        yield beforeFirst + 31 - Math.clz32(mask & -mask);
      }
    }
  }
}
