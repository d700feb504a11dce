/**
 * SPEC §12.1: rate schedules, `"<value> <unit>"` (`rate_expression`, without the `rate(...)` wrapper
 * the EventBridge API uses). Occurrences are fixed durations from an anchor instant, unaffected by
 * daylight saving: `anchor + k × interval`, k = 0, 1, …. Pure: no clock.
 */
import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE } from './civil';
import { RateExpressionError } from './errors';
import type { Instant } from './types';
import { toInstant } from './zone';

export type RateUnit = 'minutes' | 'hours' | 'days';

/** A parsed rate: `value` whole ≥ 1 of `unit`, `intervalMs` = value × unit in ms. */
export interface RateExpression {
  readonly source: string;
  readonly value: number;
  readonly unit: RateUnit;
  readonly intervalMs: number;
}

const UNITS: Record<string, RateUnit> = {
  minute: 'minutes',
  minutes: 'minutes',
  hour: 'hours',
  hours: 'hours',
  day: 'days',
  days: 'days',
};
const UNIT_MS: Record<RateUnit, number> = { minutes: MS_PER_MINUTE, hours: MS_PER_HOUR, days: MS_PER_DAY };
/**
 * Longest value per unit: 10 years (3,650 days) in every unit. A longer interval would put the next
 * occurrence past what a `Date` (and the database's timestamp) can hold, so the worker could not store it.
 */
const MAX_VALUE: Record<RateUnit, number> = { minutes: 5_256_000, hours: 87_600, days: 3_650 };

/**
 * Parses `"<value> <unit>"` (SPEC §12.1): `value` a positive whole number, `unit` one of `minute`,
 * `minutes`, `hour`, `hours`, `day`, `days` (singular or plural for any value), one space between them,
 * no leading, trailing or doubled spaces, at most 10 years (3,650 days). `"5 minutes"` → 300,000 ms; `"1 day"` → 86,400,000 ms.
 * @throws RateExpressionError naming the token at fault (`400 invalid_rate_expression`).
 */
export function parseRateExpression(text: string): RateExpression {
  if (typeof text !== 'string' || text === '') throw new RateExpressionError(String(text), 'expected `<value> <unit>`, such as `5 minutes`, got an empty expression');
  if (text !== text.trim()) throw new RateExpressionError(text, `\`${text}\` has leading or trailing spaces; write \`${text.trim()}\``);
  const parts = text.split(' ');
  if (parts.some((p) => p === '')) throw new RateExpressionError(text, `\`${text}\` has doubled spaces; write one space between value and unit`);
  if (parts.length !== 2) throw new RateExpressionError(text, `expected \`<value> <unit>\`, such as \`5 minutes\`, got \`${text}\``);
  const [valueText, unitText] = parts;
  if (!/^\d+$/.test(valueText) || Number(valueText) < 1) {
    throw new RateExpressionError(valueText, `value \`${valueText}\` is not a whole number of at least 1`);
  }
  const value = Number(valueText);
  const unit = Object.hasOwn(UNITS, unitText) ? UNITS[unitText] : undefined;
  if (!unit) throw new RateExpressionError(unitText, `unit \`${unitText}\` is not minute(s), hour(s) or day(s)`);
  if (value > MAX_VALUE[unit]) {
    throw new RateExpressionError(valueText, `value \`${valueText}\` is larger than ${MAX_VALUE[unit]} ${unit} (the longest rate is 10 years)`);
  }
  return Object.freeze({ source: text, value, unit, intervalMs: value * UNIT_MS[unit] });
}

/**
 * The first `count` occurrences of a rate strictly after `after`, ascending: `anchor + k × interval`,
 * k ≥ 0 (the anchor itself is the first). Instants are epoch ms UTC; no DST effect:
 * `6 hours` from 2026-03-08T05:00Z (00:00 EST) gives 11:00Z (07:00 EDT), six real hours later.
 * @throws RangeError for an invalid `after`, `anchor` or `count`.
 */
export function nextRateOccurrences(rate: RateExpression, anchor: Date | Instant, after: Date | Instant, count: number): Date[] {
  const anchorMs = toInstant(anchor, 'anchor');
  const afterMs = toInstant(after, 'after');
  if (!Number.isInteger(count) || count < 0) throw new RangeError('count must be a whole number ≥ 0');
  const first = afterMs < anchorMs ? 0 : Math.floor((afterMs - anchorMs) / rate.intervalMs) + 1;
  return Array.from({ length: count }, (_, k) => new Date(anchorMs + (first + k) * rate.intervalMs));
}

/** The rate's words for the grid, form and CLI (SPEC §12.1): `5 minutes` → "Every 5 minutes", `1 day` → "Every day". */
export function describeRate(rate: RateExpression | string): string {
  const r = typeof rate === 'string' ? parseRateExpression(rate) : rate;
  const singular = r.unit.slice(0, -1);
  return r.value === 1 ? `Every ${singular}` : `Every ${r.value} ${r.unit}`;
}
