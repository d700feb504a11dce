import { describe, expect, it } from 'vitest';
import { CronExpressionError, parseCronExpression } from '../index';

function refusal(expression: string): { field: string; token: string; message: string } {
  try {
    parseCronExpression(expression);
  } catch (error) {
    expect(error).toBeInstanceOf(CronExpressionError);
    const { field, token, message } = error as CronExpressionError;
    return { field, token, message };
  }
  throw new Error(`accepted: ${expression}`);
}

describe('SPEC §7.1 parseCronExpression: compiled fields', () => {
  it('wildcards, lists, ranges, steps and names per field', () => {
    const parsed = parseCronExpression('7/20 22-2 ? nov-FEB MON-FRI,sun 2025/50');
    expect(parsed).toEqual({
      source: '7/20 22-2 ? nov-FEB MON-FRI,sun 2025/50',
      minutes: [7, 27, 47],
      hours: [0, 1, 2, 22, 23],
      dayOfMonth: null,
      months: [1, 2, 11, 12],
      dayOfWeek: { kind: 'weekdays', weekdays: [1, 2, 3, 4, 5, 6] },
      years: [2025, 2075, 2125, 2175],
    });
  });

  it.each([
    ['L', { kind: 'last', offset: 0 }],
    ['L-0', { kind: 'last', offset: 0 }],
    ['l-30', { kind: 'last', offset: 30 }],
    ['LW', { kind: 'last-weekday' }],
    ['15W', { kind: 'nearest-weekday', day: 15 }],
    ['1-31/10', { kind: 'days', days: [1, 11, 21, 31] }],
    ['*', { kind: 'days', days: Array.from({ length: 31 }, (_, i) => i + 1) }],
  ])('§7.1 day-of-month `%s`', (field, rule) => {
    expect(parseCronExpression(`0 0 ${field} * ? *`).dayOfMonth).toEqual(rule);
  });

  it.each([
    ['L', { kind: 'weekdays', weekdays: [7] }],
    ['6L', { kind: 'last', weekday: 6 }],
    ['FRIL', { kind: 'last', weekday: 6 }],
    ['2#1', { kind: 'nth', weekday: 2, nth: 1 }],
    ['mon#5', { kind: 'nth', weekday: 2, nth: 5 }],
    ['FRI-MON', { kind: 'weekdays', weekdays: [1, 2, 6, 7] }],
  ])('§7.1 day-of-week `%s`', (field, rule) => {
    expect(parseCronExpression(`0 0 ? * ${field} *`).dayOfWeek).toEqual(rule);
  });

  it('§7.1 year `*/2` counts from 1970 (even years); `*/59` in minutes is allowed', () => {
    expect(parseCronExpression('0 0 1 1 ? */2').years.slice(0, 3)).toEqual([1970, 1972, 1974]);
    expect(parseCronExpression('*/59 * * * ? *').minutes).toEqual([0, 59]);
  });
});

describe('SPEC §7.1 parseCronExpression refuses, naming the field and the token', () => {
  it.each([
    ['*/60 * * * ? *', 'minutes', '*/60'],
    ['0 12 * * 1 *', 'day-of-month', '*'],
    ['0 12 1 * 1 *', 'day-of-week', '1'],
    ['0 12 1 * * *', 'day-of-week', '*'],
    ['0 12 ? * ? *', 'day-of-week', '?'],
    ['0 18 ? * MON-FRI ?', 'year', '?'],
    ['cron(0 12 * * ? *)', 'expression', 'cron(0 12 * * ? *)'],
    ['0 12 * * ?', 'expression', '0 12 * * ?'],
    ['0 0 12 * * ? *', 'expression', '0 0 12 * * ? *'],
    ['', 'expression', ''],
    ['? 12 * * ? *', 'minutes', '?'],
    ['0 ? 1 * ? *', 'hours', '?'],
    ['0 0 ?,1 * ? *', 'day-of-month', '?,1'],
    ['L 0 1 * ? *', 'minutes', 'L'],
    ['0 0 1 L ? *', 'month', 'L'],
    ['0 0 1W * ? 2030W', 'year', '2030W'],
    ['0 0 1#2 * ? *', 'day-of-month', '1#2'],
    ['0 0 ? * 2W *', 'day-of-week', '2W'],
    ['0 0 1W,15W * ? *', 'day-of-month', '1W,15W'],
    ['0 0 1-5W * ? *', 'day-of-month', '1-5W'],
    ['0 0 ? * 2#1#2 *', 'day-of-week', '2#1#2'],
    ['0 0 ? * 2#1,3#1 *', 'day-of-week', '2#1,3#1'],
    ['0 0 ? * 2#1,4 *', 'day-of-week', '2#1,4'],
    ['0 0 L,15 * ? *', 'day-of-month', 'L,15'],
    ['0 0 ? * 6L,2 *', 'day-of-week', '6L,2'],
    ['0 0 ? * L,2 *', 'day-of-week', 'L,2'],
    ['0 0 ? * 2#0 *', 'day-of-week', '2#0'],
    ['0 0 ? * 2#6 *', 'day-of-week', '2#6'],
    ['0 0 L-31 * ? *', 'day-of-month', 'L-31'],
    ['0 0 0W * ? *', 'day-of-month', '0W'],
    ['0 0 32W * ? *', 'day-of-month', '32W'],
    ['0 0 ? * MON/2 *', 'day-of-week', 'MON/2'],
    ['0 0 ? * */2 *', 'day-of-week', '*/2'],
    ['0 0 ? * 1-5/2 *', 'day-of-week', '1-5/2'],
    ['0/0 * * * ? *', 'minutes', '0/0'],
    ['0 */24 * * ? *', 'hours', '*/24'],
    ['0 0 */31 * ? *', 'day-of-month', '*/31'],
    ['0 0 1 */12 ? *', 'month', '*/12'],
    ['0 0 ? * */7 *', 'day-of-week', '*/7'],
    ['0 0 1 1 ? 2030-2020', 'year', '2030-2020'],
    ['60 0 * * ? *', 'minutes', '60'],
    ['0 24 * * ? *', 'hours', '24'],
    ['0 0 0 * ? *', 'day-of-month', '0'],
    ['0 0 32 * ? *', 'day-of-month', '32'],
    ['0 0 1 13 ? *', 'month', '13'],
    ['0 0 ? * 0 *', 'day-of-week', '0'],
    ['0 0 ? * 8 *', 'day-of-week', '8'],
    ['0 0 1 1 ? 1969', 'year', '1969'],
    ['0 0 1 1 ? 2200', 'year', '2200'],
    ['0 0 1 JANUARY ? *', 'month', 'JANUARY'],
    ['0 0 ? * MONDAY *', 'day-of-week', 'MONDAY'],
    ['0 0 ? * FUN *', 'day-of-week', 'FUN'],
    ['MON 0 1 * ? *', 'minutes', 'MON'],
    ['0 0 1,,2 * ? *', 'day-of-month', '1,,2'],
    ['0 0 1-2-3 * ? *', 'day-of-month', '1-2-3'],
    ['0 0 -1 * ? *', 'day-of-month', '-1'],
    ['1/2/3 0 * * ? *', 'minutes', '1/2/3'],
    ['0 0 1 1 ? 2020/x', 'year', '2020/x'],
  ])('%s → %s `%s`', (expression, field, token) => {
    const error = refusal(expression);
    expect({ field: error.field, token: error.token }).toEqual({ field, token });
    expect(error.message.startsWith(`${field}: `)).toBe(true);
  });

  it('messages an operator understands', () => {
    expect(refusal('0 0 ? * 8 *').message).toBe('day-of-week: `8` is outside 1–7 (1 = Sunday)');
    expect(refusal('0 0 ? * MON/2 *').message).toBe('day-of-week: `MON/2`: no step (`/`) is allowed in day-of-week; list the days instead, such as `MON,WED,FRI`');
    expect(refusal('0 0 0W * ? *').message).toBe('day-of-month: `0W`: day `0` in `nW` is outside 1–31');
    expect(refusal('0 0 32W * ? *').message).toBe('day-of-month: `32W`: day `32` in `nW` is outside 1–31');
    expect(refusal('*/60 * * * ? *').message).toBe("minutes: step `60` in `*/60` is larger than the field's span (at most 59)");
    expect(refusal('0 12 * * 1 *').message).toBe(
      'day-of-month: `*` must be `?` here because day-of-week is `1`; exactly one of day-of-month and day-of-week is `?`',
    );
    expect(refusal('0 18 ? * MON-FRI ?').message).toBe('year: `?` is only allowed in day-of-month or day-of-week');
    expect(refusal('0 12 * * ?').message).toBe(
      'expression: expected 6 fields (minutes hours day-of-month month day-of-week year), got 5 in `0 12 * * ?`',
    );
  });
});
