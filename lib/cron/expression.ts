/**
 * EventBridge Scheduler schedule expressions, the wrapped forms the EventBridge API (SPEC §14) speaks:
 * `cron(...)`, `rate(value unit)` and `at(...)`. The product API stores their insides (SPEC §5, §12.1:
 * `cron_expression`, `rate_expression`, `invocation_time`); this module reads the wrapped text exactly
 * as AWS does (EVENTBRIDGE.md §4–§5): no trimming (`" rate(10 minutes)"` is refused), units
 * minute(s)/hour(s)/day(s) only, `at()` a local time with seconds and no offset or `Z`.
 *
 * - `cron(m h dom mon dow y)`: SPEC §7.1, on local wall time in the timezone.
 * - `rate(5 minutes)`: SPEC §12.1, fixed durations from an anchor instant; no DST effect.
 * - `at(2026-03-08T09:00:00)`: once, at that local wall time in the timezone (SPEC §7.2 rules).
 */
import { parseWallTime } from './civil';
import { CronExpressionError, RateExpressionError, ScheduleExpressionError } from './errors';
import { nextOccurrences, toCronExpression } from './next';
import { nextRateOccurrences, parseRateExpression, type RateExpression } from './rate';
import type { CronExpression, Instant } from './types';
import { assertTimezone, resolveLocalTime, toInstant } from './zone';

export type ScheduleExpression =
  | { readonly kind: 'cron'; readonly source: string; readonly cron: CronExpression }
  | { readonly kind: 'rate'; readonly source: string; readonly rate: RateExpression }
  | { readonly kind: 'at'; readonly source: string; readonly invocationTime: string };

/**
 * Parses `cron(...)`, `rate(value unit)` or `at(YYYY-MM-DDTHH:mm:ss)`, exactly as written.
 * @throws ScheduleExpressionError (`token` = the whole expression as given) for anything else, with
 *   the inner error (CronExpressionError, RateExpressionError) as `cause` when there is one.
 */
export function parseScheduleExpression(expression: string): ScheduleExpression {
  const text = typeof expression === 'string' ? expression : String(expression);
  const wrapped = /^(cron|rate|at)\((.*)\)$/s.exec(text);
  if (!wrapped) {
    throw new ScheduleExpressionError(text, `\`${text}\` is not \`cron(...)\`, \`rate(value unit)\` or \`at(YYYY-MM-DDTHH:mm:ss)\``);
  }
  const [, kind, inner] = wrapped;
  try {
    if (kind === 'cron') {
      if (inner !== inner.trim()) throw new ScheduleExpressionError(text, `\`${text}\` has spaces inside the parentheses`);
      return { kind: 'cron', source: text, cron: toCronExpression(inner) };
    }
    if (kind === 'rate') return { kind: 'rate', source: text, rate: parseRateExpression(inner) };
    if (!parseWallTime(inner)) throw new ScheduleExpressionError(text, `\`${inner}\` in \`at(...)\` is not a real local time YYYY-MM-DDTHH:mm:ss`);
    return { kind: 'at', source: text, invocationTime: inner };
  } catch (e) {
    if (e instanceof CronExpressionError || e instanceof RateExpressionError) {
      throw new ScheduleExpressionError(text, e.message, { cause: e });
    }
    throw e;
  }
}

/**
 * The first `count` occurrences of a schedule expression strictly after `after`, ascending.
 * - cron: as `nextOccurrences` (SPEC §7.1, DST rule included).
 * - rate: `anchor + k × interval` for k = 0, 1, …; `anchor` (the schedule's anchor instant) is required.
 * - at: the one instant of the local time in `timezone`; an overlap gives the earlier instant
 *   (`at(2026-11-01T01:30:00)` in America/New_York → 05:30Z), a gap throws (`at(2026-03-08T02:30:00)`).
 * @param count whole number ≥ 0; `after`, `anchor`: Dates or epoch ms.
 * @throws ScheduleExpressionError (text), TimezoneError, LocalTimeError (`at` in a DST gap), RangeError
 *   (invalid `after`, `count`, or a rate without `anchor`); CronWorkBudgetExceeded as `nextOccurrence`.
 */
export function nextScheduleOccurrences(
  expression: string | ScheduleExpression,
  timezone: string,
  after: Date | Instant,
  count: number,
  anchor?: Date | Instant,
): Date[] {
  const schedule = typeof expression === 'string' ? parseScheduleExpression(expression) : expression;
  if (schedule.kind === 'cron') return nextOccurrences(schedule.cron, timezone, after, count);
  assertTimezone(timezone);
  const afterMs = toInstant(after, 'after');
  if (!Number.isInteger(count) || count < 0) throw new RangeError('count must be a whole number ≥ 0');
  if (schedule.kind === 'at') {
    const at = resolveLocalTime(schedule.invocationTime, timezone);
    return count > 0 && at.getTime() > afterMs ? [at] : [];
  }
  if (anchor === undefined) throw new RangeError('a rate expression needs the anchor instant its intervals count from');
  return nextRateOccurrences(schedule.rate, anchor, afterMs, count);
}
