/**
 * Occurrences of a cron expression (SPEC §7.1): the stepping engine walks calendar fields on local
 * wall time (jumping to the next matching year, month, day, hour, minute), then maps each matching
 * wall time to an instant with the DST rule. Every walk ends by year 2199.
 */
import { civilFromDays, MS_PER_DAY, MS_PER_MINUTE, wallMsOf } from './civil';
import { compile, dayMask, FIRST_YEAR, LAST_YEAR, type CompiledCron } from './match';
import { parseCronExpression } from './parse';
import type { CronExpression, Instant } from './types';
import { beginWork, endWork, overBudget, step, WORK_BUDGETS } from './work';
import { toInstant, zoneRules, type ZoneRules } from './zone';

/**
 * The first `count` occurrences strictly after `after`, ascending, evaluated on local wall time in
 * `timezone` (SPEC §7.1). DST: a wall time that does not exist is skipped, not moved (`30 2 * * ? *` in
 * America/New_York has no occurrence on 2026-03-08); a wall time that happens twice fires once, at its
 * earlier instant (`30 1 * * ? *` fires 2026-11-01T05:30:00Z, not again at 06:30Z).
 *
 * @param expression six-field AWS cron text, or a parsed `CronExpression`.
 * @param count whole number ≥ 0.
 * @returns up to `count` Dates; fewer (possibly none) when the expression runs out by 2199.
 *   Always bounded in time, e.g. `0 0 30 2 ? *` returns [] at once.
 * @throws CronExpressionError, TimezoneError, RangeError (invalid `after` or `count`);
 *   CronWorkBudgetExceeded as `nextOccurrence` does.
 */
export function nextOccurrences(expression: string | CronExpression, timezone: string, after: Date | Instant, count: number): Date[] {
  const cron = toCronExpression(expression);
  const tables = compile(cron);
  const rules = zoneRules(timezone);
  const afterMs = toInstant(after, 'after');
  if (!Number.isInteger(count) || count < 0) throw new RangeError('count must be a whole number ≥ 0');
  const found: Date[] = [];
  if (count > 0) {
    beginWork(WORK_BUDGETS.occurrence + count * WORK_BUDGETS.perOccurrence);
    try {
      walkForward(tables, rules, afterMs, (at) => found.push(new Date(at)) < count);
    } catch (e) {
      throw overBudget(e, 'nextOccurrences', cron.source, timezone, afterMs);
    } finally {
      endWork();
    }
  }
  return found;
}

/**
 * The first occurrence strictly after `after`, or null when none is left by 2199 (SPEC §5.3, §7.1), with
 * the DST rule of `nextOccurrences`: `30 2 * * ? *` in America/New_York after 2026-03-07T07:30:00Z gives
 * 2026-03-09T06:30:00Z (02:30 EDT; 2026-03-08 02:30 does not exist); `30 1 * * ? *` after
 * 2026-11-01T00:00:00Z gives 05:30:00Z (01:30 EDT, the first of the two).
 *
 * Bounded work: the call takes at most `WORK_BUDGETS.occurrence + perOccurrence` steps (lib/cron/work.ts),
 * about ten times what any zone of the tz database needs for the worst expressions known (~0.1 s).
 * @throws CronExpressionError, TimezoneError, RangeError (invalid `after`), as `nextOccurrences`.
 * @throws CronWorkBudgetExceeded (`code` `cron_work_budget_exceeded`) when the call would go past that
 *   budget: never expected, but the guarantee that it returns. It concerns this expression and zone
 *   only and comes back on every retry from the same instant (the tz database does not change under a
 *   running process), so a caller planning many schedules records it against this one schedule and
 *   goes on with the others, neither retrying it every tick nor failing its batch.
 */
export function nextOccurrence(expression: string | CronExpression, timezone: string, after: Date | Instant): Date | null {
  return nextOccurrences(expression, timezone, after, 1)[0] ?? null;
}

/**
 * The latest occurrence strictly before `before`, or null when there is none since 1970; same rules as
 * `nextOccurrences` (SPEC §7.1). DST: `* * * * ? *` in America/New_York before 2026-11-01T06:30:00Z
 * (01:30 EST, second pass) gives 05:59:00Z (01:59 EDT), as the second pass never fires; `30 2 * * ? *`
 * before 2026-03-09T00:00:00Z gives 2026-03-07T07:30:00Z, as 2026-03-08 02:30 does not exist.
 * @throws CronExpressionError, TimezoneError, RangeError (invalid `before`); CronWorkBudgetExceeded
 *   past `WORK_BUDGETS.occurrence` steps, as `nextOccurrence`.
 */
export function previousOccurrence(expression: string | CronExpression, timezone: string, before: Date | Instant): Date | null {
  const cron = toCronExpression(expression);
  const tables = compile(cron);
  const rules = zoneRules(timezone);
  const beforeMs = toInstant(before, 'before');
  beginWork(WORK_BUDGETS.occurrence);
  try {
    // Highest wall time any instant < before can show: right after a fall-back it is above wall(before).
    const latest = beforeMs - 1 + Math.max(rules.offsetAt(beforeMs - 1), rules.offsetAt(beforeMs - 1 - MS_PER_DAY));
    let cursor = Math.floor(latest / MS_PER_MINUTE) * MS_PER_MINUTE;
    for (;;) {
      step();
      const wall = seekBackward(tables, cursor);
      if (Number.isNaN(wall)) return null;
      const at = rules.firstInstant(wall);
      // Walking down in wall time walks down in instants, so the first one below `before` is the latest.
      if (at < beforeMs) return new Date(at);
      cursor = wall - MS_PER_MINUTE;
      if (Number.isNaN(at)) {
        // SPEC §7.1: a wall time in a gap is skipped, and so is every earlier minute of the same gap.
        cursor = Math.min(cursor, Math.floor((rules.gapStart(wall) - 1) / MS_PER_MINUTE) * MS_PER_MINUTE);
      }
    }
  } catch (e) {
    throw overBudget(e, 'previousOccurrence', cron.source, timezone, beforeMs);
  } finally {
    endWork();
  }
}

const parsedBySource = new Map<string, CronExpression>();

/** A parsed expression; text is parsed once and kept in a bounded cache. @throws CronExpressionError */
export function toCronExpression(expression: string | CronExpression): CronExpression {
  if (typeof expression !== 'string') return expression;
  let parsed = parsedBySource.get(expression);
  if (!parsed) {
    parsed = parseCronExpression(expression);
    if (parsedBySource.size >= 1000) parsedBySource.clear();
    parsedBySource.set(expression, parsed);
  }
  return parsed;
}

/**
 * Calls `visit(instant, wallMs)` for each occurrence strictly after `afterMs`, ascending, until it
 * returns false or the expression runs out.
 */
export function walkForward(tables: CompiledCron, rules: ZoneRules, afterMs: Instant, visit: (at: Instant, wall: number) => boolean): void {
  // No wall time below wall(after) can map to an instant after `after`.
  let cursor = Math.floor(rules.wallAt(afterMs) / MS_PER_MINUTE) * MS_PER_MINUTE + MS_PER_MINUTE;
  for (;;) {
    step();
    const wall = seekForward(tables, cursor);
    if (Number.isNaN(wall)) return;
    const at = rules.firstInstant(wall);
    if (Number.isNaN(at)) {
      // SPEC §7.1: a wall time in a gap is skipped, and so is every later minute of the same gap.
      cursor = Math.max(wall + MS_PER_MINUTE, Math.ceil(rules.gapEnd(wall) / MS_PER_MINUTE) * MS_PER_MINUTE);
      continue;
    }
    cursor = wall + MS_PER_MINUTE;
    if (at > afterMs && !visit(at, wall)) return;
  }
}

/** Wall ms → [year, month 1–12, day 1–31, hour, minute] (the minute containing it). */
function wallFields(wall: number): [number, number, number, number, number] {
  const days = Math.floor(wall / MS_PER_DAY);
  const date = civilFromDays(days);
  const minuteOfDay = Math.floor((wall - days * MS_PER_DAY) / MS_PER_MINUTE);
  return [date.year, date.month, date.day, Math.floor(minuteOfDay / 60), minuteOfDay % 60];
}

/** The first matching wall minute ≥ `fromWall` (wall ms), or NaN when none by 2199. Counts its turns but the first as steps. */
export function seekForward(tables: CompiledCron, fromWall: number): number {
  if (!Number.isFinite(fromWall)) return NaN;
  let [y, mo, d, h, mi] = wallFields(fromWall);
  if (y < FIRST_YEAR) { y = FIRST_YEAR; mo = 1; d = 1; h = 0; mi = 0; }
  for (let turn = 0; ; turn++) {
    if (turn > 0) step(); // the caller counts the first turn (most calls take one)
    // A field with no match left is pushed past its maximum (fields below restart at their minimum),
    // and the overflow carries into the field above.
    if (mi > 59) { mi = 0; h++; }
    if (h > 23) { h = 0; d++; }
    if (d > 31) { d = 1; mo++; }
    if (mo > 12) { mo = 1; y++; }
    if (y > LAST_YEAR) return NaN;
    const year = tables.yearNext[y - FIRST_YEAR];
    if (year < 0) return NaN;
    if (year !== y) { y = year; mo = 1; d = 1; h = 0; mi = 0; }
    const month = tables.monthNext[mo];
    if (month < 0) {
      mo = 13; d = 1; h = 0; mi = 0;
      continue;
    }
    if (month !== mo) { mo = month; d = 1; h = 0; mi = 0; }
    const laterDays = dayMask(tables, y, mo) >>> d;
    if (laterDays === 0) {
      d = 32; h = 0; mi = 0;
      continue;
    }
    const day = d + 31 - Math.clz32(laterDays & -laterDays);
    if (day !== d) { d = day; h = 0; mi = 0; }
    const hour = tables.hourNext[h];
    if (hour < 0) {
      h = 24; mi = 0;
      continue;
    }
    if (hour !== h) { h = hour; mi = 0; }
    const minute = tables.minuteNext[mi];
    if (minute < 0) {
      mi = 60;
      continue;
    }
    return wallMsOf(y, mo, d, h, minute);
  }
}

/** Bits 0…d set, for d = 0…31. */
const DAYS_UP_TO = Int32Array.from({ length: 32 }, (_, d) => (d === 31 ? -1 : 2 ** (d + 1) - 1));

/** The last matching wall minute ≤ `fromWall` (wall ms), or NaN when none since 1970. Counts its turns but the first as steps. */
export function seekBackward(tables: CompiledCron, fromWall: number): number {
  if (!Number.isFinite(fromWall)) return NaN;
  let [y, mo, d, h, mi] = wallFields(fromWall);
  if (y > LAST_YEAR) { y = LAST_YEAR; mo = 12; d = 31; h = 23; mi = 59; }
  for (let turn = 0; ; turn++) {
    if (turn > 0) step(); // the caller counts the first turn (most calls take one)
    // Mirror of seekForward: a field with no match left is pushed below its minimum (fields below
    // restart at their maximum; day 31 stands for the month's last day, as the day mask has no bits
    // past it), and the underflow borrows from the field above.
    if (mi < 0) { mi = 59; h--; }
    if (h < 0) { h = 23; d--; }
    if (d < 1) { d = 31; mo--; }
    if (mo < 1) { mo = 12; y--; }
    if (y < FIRST_YEAR) return NaN;
    const year = tables.yearPrev[y - FIRST_YEAR];
    if (year < 0) return NaN;
    if (year !== y) { y = year; mo = 12; d = 31; h = 23; mi = 59; }
    const month = tables.monthPrev[mo];
    if (month < 0) {
      mo = 0; d = 31; h = 23; mi = 59;
      continue;
    }
    if (month !== mo) { mo = month; d = 31; h = 23; mi = 59; }
    const earlierDays = dayMask(tables, y, mo) & DAYS_UP_TO[d];
    if (earlierDays === 0) {
      d = 0; h = 23; mi = 59;
      continue;
    }
    const day = 31 - Math.clz32(earlierDays);
    if (day !== d) { d = day; h = 23; mi = 59; }
    const hour = tables.hourPrev[h];
    if (hour < 0) {
      h = -1; mi = 59;
      continue;
    }
    if (hour !== h) { h = hour; mi = 59; }
    const minute = tables.minutePrev[mi];
    if (minute < 0) {
      mi = -1;
      continue;
    }
    return wallMsOf(y, mo, d, h, minute);
  }
}
