/**
 * The time engine (SPEC §7, §9 min interval): pure functions, no clock, no I/O, no logging.
 * Instants are Dates or epoch ms (`Instant`); wall times are `WallTime` or `YYYY-MM-DDTHH:mm:ss`.
 */
export type { CronExpression, CronField, DayOfMonthRule, DayOfWeekRule, Instant, WallTime } from './types';
export { CronExpressionError, CronWorkBudgetExceeded, LocalTimeError, RateExpressionError, ScheduleExpressionError, TimezoneError } from './errors';
export { WORK_BUDGETS } from './work';
export { parseCronExpression } from './parse';
export { matchesWallTime } from './match';
export { nextOccurrence, nextOccurrences, previousOccurrence } from './next';
export { minIntervalSeconds } from './min-interval';
export { civilFromDays, MS_PER_DAY } from './civil';
export { describeCron } from './describe';
export {
  assertTimezone,
  isValidTimezone,
  resolveLocalTime,
  resolveWallTime,
  toLocalTime,
  wallTimeAt,
  type WallResolution,
} from './zone';
export { nextScheduleOccurrences, parseScheduleExpression, type ScheduleExpression } from './expression';
export { describeRate, nextRateOccurrences, parseRateExpression, type RateExpression, type RateUnit } from './rate';
