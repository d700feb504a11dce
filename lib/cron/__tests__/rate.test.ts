import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeRate, nextRateOccurrences, parseRateExpression, RateExpressionError } from '../index';

function refusal(text: string): RateExpressionError {
  try {
    parseRateExpression(text);
  } catch (e) {
    if (e instanceof RateExpressionError) return e;
    throw e;
  }
  throw new Error(`accepted ${JSON.stringify(text)}`);
}

describe('SPEC §12.1 parseRateExpression', () => {
  it.each([
    ['1 minute', 'minutes', 60_000],
    ['1 minutes', 'minutes', 60_000],
    ['5 minute', 'minutes', 300_000],
    ['90 minutes', 'minutes', 5_400_000],
    ['2 hour', 'hours', 7_200_000],
    ['1 day', 'days', 86_400_000],
    ['30 days', 'days', 2_592_000_000],
  ])('`%s` → %s, %d ms', (text, unit, intervalMs) => {
    expect(parseRateExpression(text)).toEqual({ source: text, value: Number(text.split(' ')[0]), unit, intervalMs });
  });

  it.each([
    ['', ''],
    [' 5 minutes', ' 5 minutes'],
    ['5 minutes ', '5 minutes '],
    ['5  minutes', '5  minutes'],
    ['5', '5'],
    ['5 minutes now', '5 minutes now'],
    ['0 minutes', '0'],
    ['-5 minutes', '-5'],
    ['1.5 hours', '1.5'],
    ['five minutes', 'five'],
    ['05x minutes', '05x'],
    ['5 minutess', 'minutess'],
    ['5 seconds', 'seconds'],
    ['5 weeks', 'weeks'],
    ['5 Minutes', 'Minutes'],
    ['99999999 days', '99999999'],
  ])('refuses `%s`, naming `%s`', (text, token) => {
    const e = refusal(text);
    expect(e.token).toBe(token);
    expect(e.message.startsWith('rate_expression: ')).toBe(true);
  });

  it('the longest rate is 10 years in every unit, so every occurrence stays a valid instant', () => {
    expect(parseRateExpression('5256000 minutes').intervalMs).toBe(3650 * 86_400_000);
    expect(parseRateExpression('87600 hours').intervalMs).toBe(3650 * 86_400_000);
    expect(parseRateExpression('3650 days').intervalMs).toBe(3650 * 86_400_000);
    expect(refusal('87601 hours').token).toBe('87601');
    expect(refusal('3651 days').message).toBe('rate_expression: value `3651` is larger than 3650 days (the longest rate is 10 years)');
    expect(refusal('5256000 days').token).toBe('5256000');
    expect(refusal('5256001 minutes').token).toBe('5256001');
  });

  it('messages an operator understands', () => {
    expect(refusal('5 weeks').message).toBe('rate_expression: unit `weeks` is not minute(s), hour(s) or day(s)');
    expect(refusal('0 minutes').message).toBe('rate_expression: value `0` is not a whole number of at least 1');
    expect(refusal(' 5 minutes').message).toBe('rate_expression: ` 5 minutes` has leading or trailing spaces; write `5 minutes`');
  });

  it('describeRate: "Every 5 minutes", "Every hour", "Every day"', () => {
    expect(describeRate('5 minutes')).toBe('Every 5 minutes');
    expect(describeRate('1 hour')).toBe('Every hour');
    expect(describeRate('1 days')).toBe('Every day');
    expect(describeRate('2 day')).toBe('Every 2 days');
  });
});

describe('SPEC §12.1 nextRateOccurrences: anchor + k × interval, strictly after `after`', () => {
  const rate = parseRateExpression('15 minutes');
  const anchor = Date.parse('2026-01-01T00:00:00Z');

  it('the anchor is the first occurrence; later ones are whole intervals from it', () => {
    expect(nextRateOccurrences(rate, anchor, anchor - 1, 2).map((d) => d.toISOString())).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-01T00:15:00.000Z']);
    expect(nextRateOccurrences(rate, anchor, anchor, 1).map((d) => d.toISOString())).toEqual(['2026-01-01T00:15:00.000Z']);
    expect(nextRateOccurrences(rate, anchor, Date.parse('2026-01-01T00:29:59.999Z'), 1).map((d) => d.toISOString())).toEqual(['2026-01-01T00:30:00.000Z']);
  });

  it('property: every result is on the grid, after `after`, and no grid point is skipped', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: -1e11, max: 1e11 }), (minutes, delta) => {
        const r = parseRateExpression(`${minutes} minutes`);
        const after = anchor + delta;
        const [first, second] = nextRateOccurrences(r, anchor, after, 2).map((d) => d.getTime());
        expect((first - anchor) % r.intervalMs).toBe(0);
        expect(first).toBeGreaterThan(after);
        expect(first >= anchor).toBe(true);
        expect(first - r.intervalMs <= after || first === anchor).toBe(true);
        expect(second - first).toBe(r.intervalMs);
      }),
    );
  });
});
