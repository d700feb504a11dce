import { describe, expect, it } from 'vitest';
import { CronExpressionError, describeCron } from '../index';

describe('SPEC §7.1 describeCron: cronstrue configured for AWS (1 = Sunday, year field)', () => {
  it.each([
    ['0 12 ? * 2 *', 'At 12:00 PM, only on Monday'],
    ['0 9 ? * MON-FRI *', 'At 09:00 AM, Monday through Friday'],
    ['*/15 * * * ? *', 'Every 15 minutes'],
    ['0 0 ? * 1 *', 'At 12:00 AM, only on Sunday'],
    ['0 0 ? * 7 *', 'At 12:00 AM, only on Saturday'],
    ['0 0 ? * L *', 'At 12:00 AM, only on Saturday'],
    ['0 0 ? * 6L *', 'At 12:00 AM, on the last Friday of the month'],
    ['0 0 ? * 7#4 *', 'At 12:00 AM, on the fourth Saturday of the month'],
    ['0 0 L * ? *', 'At 12:00 AM, on the last day of the month'],
    ['0 0 1W * ? *', 'At 12:00 AM, on the first weekday of the month'],
    ['0 10 ? * 1 2025-2027', 'At 10:00 AM, only on Sunday, 2025 through 2027'],
  ])('%s → %s', (expression, text) => {
    expect(describeCron(expression)).toBe(text);
  });

  it('names Monday for day-of-week 2 and can use a 24-hour clock', () => {
    expect(describeCron('0 12 ? * 2 *', { use24HourTimeFormat: true })).toBe('At 12:00, only on Monday');
  });

  it.each(['0 12 * * 1 *', '* * * * *', 'cron(0 12 * * ? *)', '0 0 ? * 8 *'])('refuses %s with CronExpressionError', (expression) => {
    expect(() => describeCron(expression)).toThrow(CronExpressionError);
  });
});
