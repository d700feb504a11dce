/**
 * EventBridge Scheduler schedule expressions: `cron(...)`, `rate(value unit)` and `at(...)`
 * (seed 004). SPEC §5 stores cron without its wrapper; this module reads the wrapped forms.
 *
 * - `cron(m h dom mon dow y)`: SPEC §7.1, on local wall time in the timezone.
 * - `rate(5 minutes)`: fixed durations from an anchor instant (the schedule's start); no DST effect.
 *   Units: minute(s), hour(s), day(s); singular for a value of 1, plural otherwise.
 * - `at(2026-03-08T09:00:00)`: once, at that local wall time in the timezone (SPEC §7.2 rules).
 */
import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE, parseWallTime } from './civil';
import { ScheduleExpressionError } from './errors';
import { nextOccurrences, toCronExpression } from './next';
import type { CronExpression, Instant, WallTime } from './types';
import { assertTimezone, resolveLocalTime, toInstant } from './zone';

export type RateUnit = 'minutes' | 'hours' | 'days';

export type ScheduleExpression =
  | { readonly kind: 'cron'; readonly source: string; readonly cron: CronExpression }
  | { readonly kind: 'rate'; readonly source: string; readonly value: number; readonly unit: RateUnit; readonly intervalMs: number }
  | { readonly kind: 'at'; readonly source: string; readonly invocationTime: string; readonly wall: Required<WallTime> };

const UNIT_MS: Record<RateUnit, number> = { minutes: MS_PER_MINUTE, hours: MS_PER_HOUR, days: MS_PER_DAY };

/**
 * Parses `cron(...)`, `rate(value unit)` or `at(YYYY-MM-DDTHH:mm:ss)` (surrounding whitespace allowed).
 * @throws ScheduleExpressionError for an unknown wrapper, a bad rate (value not a whole number ≥ 1,
 *   unknown unit, `1 minutes` or `5 minute`) or a malformed `at` time; CronExpressionError for the
 *   fields inside `cron(...)`.
 */
export function parseScheduleExpression(expression: string): ScheduleExpression {
  const text = typeof expression === 'string' ? expression.trim() : '';
  const wrapped = /^(cron|rate|at)\((.*)\)$/s.exec(text);
  if (!wrapped) {
    throw new ScheduleExpressionError(text, `\`${text}\` is not \`cron(...)\`, \`rate(value unit)\` or \`at(YYYY-MM-DDTHH:mm:ss)\``);
  }
  const [, kind, inner] = wrapped;
  if (kind === 'cron') return { kind: 'cron', source: text, cron: toCronExpression(inner) };
  if (kind === 'at') {
    const wall = parseWallTime(inner.trim());
    if (!wall) throw new ScheduleExpressionError(inner, `\`${inner}\` in \`at(...)\` is not a real local time YYYY-MM-DDTHH:mm:ss`);
    return { kind: 'at', source: text, invocationTime: inner.trim(), wall };
  }
  const rate = /^\s*(\d+)\s+(minute|hour|day)(s?)\s*$/.exec(inner);
  if (!rate || Number(rate[1]) < 1) {
    throw new ScheduleExpressionError(inner, `\`${inner}\` in \`rate(...)\` is not \`value unit\` with a whole value ≥ 1 and unit minute(s), hour(s) or day(s)`);
  }
  const value = Number(rate[1]);
  if ((value === 1) !== (rate[3] === '')) {
    throw new ScheduleExpressionError(inner, `\`${inner}\`: the unit is singular for 1 (\`rate(1 ${rate[2]})\`) and plural otherwise (\`rate(${value === 1 ? 2 : value} ${rate[2]}s)\`)`);
  }
  const unit = `${rate[2]}s` as RateUnit;
  return { kind: 'rate', source: text, value, unit, intervalMs: value * UNIT_MS[unit] };
}

/**
 * The first `count` occurrences of a schedule expression strictly after `after`, ascending.
 * - cron: as `nextOccurrences` (SPEC §7.1, DST rule included).
 * - rate: `anchor + k × interval` for k = 0, 1, …; `anchor` (the schedule's start instant) is required.
 * - at: the one instant of the local time in `timezone`; an overlap gives the earlier instant
 *   (`at(2026-11-01T01:30:00)` in America/New_York → 05:30Z), a gap throws (`at(2026-03-08T02:30:00)`).
 * @param count whole number ≥ 0; `after`, `anchor`: Dates or epoch ms.
 * @throws ScheduleExpressionError / CronExpressionError (text), TimezoneError, LocalTimeError (`at` in a
 *   DST gap), RangeError (invalid `after`, `count`, or a rate without `anchor`).
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
  const anchorMs = toInstant(anchor, 'anchor');
  const first = afterMs < anchorMs ? 0 : Math.floor((afterMs - anchorMs) / schedule.intervalMs) + 1;
  return Array.from({ length: count }, (_, k) => new Date(anchorMs + (first + k) * schedule.intervalMs));
}
