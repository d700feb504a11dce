/**
 * Lookup tables derived once from a `CronExpression` for the stepping engine (SPEC §7.1), and
 * matching of a single wall time. Nothing here knows about timezones.
 *
 * Day masks: bit d (1–31) set when day d of a month matches. Every day rule depends only on the
 * month's length (28–31) and the weekday of its 1st, so the 28 possible masks are precomputed.
 */
import { daysFromCivil, daysInMonth, isRealWallTime, weekdayOfDays } from './civil';
import type { CronExpression, DayOfMonthRule, DayOfWeekRule, WallTime } from './types';

export const FIRST_YEAR = 1970;
export const LAST_YEAR = 2199;

export interface CompiledCron {
  /** Index v → smallest allowed value ≥ v, or -1. */
  readonly minuteNext: Int16Array;
  /** Index v → largest allowed value ≤ v, or -1. */
  readonly minutePrev: Int16Array;
  readonly hourNext: Int16Array;
  readonly hourPrev: Int16Array;
  /** Indexed by month 1–12. */
  readonly monthNext: Int16Array;
  readonly monthPrev: Int16Array;
  /** Indexed by year - FIRST_YEAR. */
  readonly yearNext: Int16Array;
  readonly yearPrev: Int16Array;
  /** Index (weekday of the 1st, 0 = Sunday) × 4 + (month length - 28) → day mask. */
  readonly dayMasks: Int32Array;
  /** Matching minutes of the day (hour × 60 + minute), ascending. */
  readonly timesOfDay: readonly number[];
}

const compiled = new WeakMap<CronExpression, CompiledCron>();

/** The tables for `expression`, built on first use and kept as long as the expression lives. */
export function compile(expression: CronExpression): CompiledCron {
  let tables = compiled.get(expression);
  if (!tables) {
    tables = build(expression);
    compiled.set(expression, tables);
  }
  return tables;
}

/** Day mask of `month` (1–12) in `year`. */
export function dayMask(tables: CompiledCron, year: number, month: number): number {
  const firstWeekday = weekdayOfDays(daysFromCivil(year, month, 1));
  return tables.dayMasks[firstWeekday * 4 + daysInMonth(year, month) - 28];
}

/**
 * True when the wall time (seconds ignored) matches every field of the expression (SPEC §7.1), on wall
 * time alone: whether it exists in a timezone is `resolveWallTime`'s question. False for an impossible
 * wall time.
 */
export function matchesWallTime(expression: CronExpression, wall: WallTime): boolean {
  const tables = compile(expression);
  const { year, month, day, hour, minute } = wall;
  return (
    isRealWallTime(wall) &&
    year >= FIRST_YEAR && year <= LAST_YEAR &&
    tables.yearNext[year - FIRST_YEAR] === year &&
    tables.monthNext[month] === month &&
    (dayMask(tables, year, month) & (1 << day)) !== 0 &&
    tables.hourNext[hour] === hour &&
    tables.minuteNext[minute] === minute
  );
}

function build(expression: CronExpression): CompiledCron {
  const [minuteNext, minutePrev] = lookups(expression.minutes, 60);
  const [hourNext, hourPrev] = lookups(expression.hours, 24);
  const [monthNext, monthPrev] = lookups(expression.months, 13);
  const [yearNext, yearPrev] = lookups(expression.years, LAST_YEAR - FIRST_YEAR + 1, FIRST_YEAR);
  const dayMasks = new Int32Array(28);
  for (let firstWeekday = 0; firstWeekday < 7; firstWeekday++) {
    for (let length = 28; length <= 31; length++) {
      dayMasks[firstWeekday * 4 + length - 28] = expression.dayOfMonth
        ? dayOfMonthMask(expression.dayOfMonth, firstWeekday, length)
        : dayOfWeekMask(expression.dayOfWeek as DayOfWeekRule, firstWeekday, length);
    }
  }
  const timesOfDay = expression.hours.flatMap((h) => expression.minutes.map((m) => h * 60 + m));
  return { minuteNext, minutePrev, hourNext, hourPrev, monthNext, monthPrev, yearNext, yearPrev, dayMasks, timesOfDay };
}

/** Next/previous lookup tables: index i stands for value i + `first`; -1 where no value is left. */
function lookups(values: readonly number[], size: number, first = 0): [Int16Array, Int16Array] {
  const set = new Set(values);
  const next = new Int16Array(size);
  const prev = new Int16Array(size);
  for (let i = size - 1, n = -1; i >= 0; i--) next[i] = n = set.has(i + first) ? i + first : n;
  for (let i = 0, p = -1; i < size; i++) prev[i] = p = set.has(i + first) ? i + first : p;
  return [next, prev];
}

/** Weekday (0 = Sunday) of day `day` in a month whose 1st falls on `firstWeekday`. */
const weekdayOf = (firstWeekday: number, day: number) => (firstWeekday + day - 1) % 7;

function dayOfMonthMask(rule: DayOfMonthRule, firstWeekday: number, length: number): number {
  switch (rule.kind) {
    case 'days':
      return rule.days.reduce((mask, day) => (day <= length ? mask | (1 << day) : mask), 0);
    case 'last':
      return length - rule.offset >= 1 ? 1 << (length - rule.offset) : 0;
    case 'last-weekday':
      return 1 << nearestWeekday(length, firstWeekday, length);
    case 'nearest-weekday':
      return rule.day <= length ? 1 << nearestWeekday(rule.day, firstWeekday, length) : 0;
  }
}

/** The Mon–Fri day nearest to `day` without leaving the month (`1W` on a Saturday 1st → Monday 3rd). */
function nearestWeekday(day: number, firstWeekday: number, length: number): number {
  const weekday = weekdayOf(firstWeekday, day);
  if (weekday === 6) return day === 1 ? 3 : day - 1;
  if (weekday === 0) return day === length ? day - 2 : day + 1;
  return day;
}

function dayOfWeekMask(rule: DayOfWeekRule, firstWeekday: number, length: number): number {
  // AWS weekday w (1 = Sunday) ↔ weekday index w - 1; `first` is the first day of the month on it.
  const firstOn = (weekday: number) => 1 + ((weekday - 1 - firstWeekday + 7) % 7);
  switch (rule.kind) {
    case 'weekdays': {
      let mask = 0;
      for (const weekday of rule.weekdays) for (let day = firstOn(weekday); day <= length; day += 7) mask |= 1 << day;
      return mask;
    }
    case 'last': {
      const first = firstOn(rule.weekday);
      return 1 << (first + 7 * Math.floor((length - first) / 7));
    }
    case 'nth': {
      const day = firstOn(rule.weekday) + 7 * (rule.nth - 1);
      return day <= length ? 1 << day : 0;
    }
  }
}
