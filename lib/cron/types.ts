/**
 * Shared shapes of the time engine (STYLE §4.3). `Instant` and `WallTime` are never mixed:
 * a function takes one or the other.
 */

/** A point on the UTC timeline: epoch milliseconds. */
export type Instant = number;

/**
 * A local wall-clock reading in some timezone; the zone is always passed beside it.
 * Fields are 1-based for month and day, 0-based for hour, minute and second.
 */
export interface WallTime {
  /** Gregorian year, e.g. 2026. */
  readonly year: number;
  /** 1–12. */
  readonly month: number;
  /** 1–31 (at most the month's length). */
  readonly day: number;
  /** 0–23. */
  readonly hour: number;
  /** 0–59. */
  readonly minute: number;
  /** 0–59; 0 when omitted. */
  readonly second?: number;
}

/** The six AWS EventBridge cron fields in order (SPEC §7.1), plus `expression` for whole-expression problems. */
export type CronField = 'minutes' | 'hours' | 'day-of-month' | 'month' | 'day-of-week' | 'year';

/** Day-of-month when it is not `?` (SPEC §7.1). Days are 1–31. */
export type DayOfMonthRule =
  /** Plain values, ranges, steps, `*`: the listed days (a day past the month's end never matches). */
  | { readonly kind: 'days'; readonly days: readonly number[] }
  /** `L` (offset 0) or `L-n`: n days before the month's last day. */
  | { readonly kind: 'last'; readonly offset: number }
  /** `nW`: the weekday (Mon–Fri) nearest to day n, without leaving the month. */
  | { readonly kind: 'nearest-weekday'; readonly day: number }
  /** `LW`: the month's last weekday (Mon–Fri). */
  | { readonly kind: 'last-weekday' };

/** Day-of-week when it is not `?` (SPEC §7.1). Weekdays are 1 = Sunday … 7 = Saturday. */
export type DayOfWeekRule =
  /** Plain values, ranges, steps, `*`, or `L` alone (= 7, Saturday). */
  | { readonly kind: 'weekdays'; readonly weekdays: readonly number[] }
  /** `nL` / `FRIL`: the month's last such weekday. */
  | { readonly kind: 'last'; readonly weekday: number }
  /** `n#k`: the k-th (1–5) such weekday of the month; no fire in a month without one. */
  | { readonly kind: 'nth'; readonly weekday: number; readonly nth: number };

/**
 * A parsed cron expression: each field compiled to its sorted set of values, and the day fields to
 * their rule. Exactly one of `dayOfMonth` and `dayOfWeek` is `null` (that field was `?`).
 * Obtain it from `parseCronExpression`; the engine trusts its contents.
 */
export interface CronExpression {
  /** The six fields as given, joined by single spaces. */
  readonly source: string;
  /** 0–59, ascending. */
  readonly minutes: readonly number[];
  /** 0–23, ascending. */
  readonly hours: readonly number[];
  readonly dayOfMonth: DayOfMonthRule | null;
  /** 1–12, ascending. */
  readonly months: readonly number[];
  readonly dayOfWeek: DayOfWeekRule | null;
  /** 1970–2199, ascending. */
  readonly years: readonly number[];
}
