import { describe, expect, it } from 'vitest';
import { LocalTimeError, nextScheduleOccurrences, parseScheduleExpression, ScheduleExpressionError } from '../index';

const iso = (dates: Date[]) => dates.map((date) => date.toISOString());

describe('EventBridge schedule expressions (SPEC §14, EVENTBRIDGE.md §4–§5): rate, at, cron', () => {
  it.each([
    ['rate(1 minute)', 'minutes', 60_000],
    ['rate(1 minutes)', 'minutes', 60_000],
    ['rate(5 minutes)', 'minutes', 300_000],
    ['rate(5 minute)', 'minutes', 300_000],
    ['rate(1 hour)', 'hours', 3_600_000],
    ['rate(12 hours)', 'hours', 43_200_000],
    ['rate(1 day)', 'days', 86_400_000],
    ['rate(7 days)', 'days', 604_800_000],
  ])('parses %s', (text, unit, intervalMs) => {
    expect(parseScheduleExpression(text)).toMatchObject({ kind: 'rate', rate: { unit, intervalMs } });
  });

  // Every form real AWS refused with `Invalid Schedule Expression <expr>.` (EVENTBRIDGE.md §4), and more.
  it.each([
    'cron(0 1 * * * *)',
    'cron(7 20 * * NOT *)',
    'cron(INVALID)',
    'cron(0 dummy ? * MON-FRI *)',
    'cron(71 8 1 * ? *)',
    'cron()',
    'rate(10 seconds)',
    'rate(10 years)',
    'rate()',
    'rate(10)',
    'rate(10 minutess)',
    'rate(foo minutes)',
    'rate(-10 minutes)',
    'rate( 10 minutes )',
    ' rate(10 minutes)',
    'rate(10 minutes) ',
    'rate(10  minutes)',
    'at(2021-12-31T23:59:59Z)',
    'at(2021-12-31)',
    'rate(0 minutes)',
    'rate(1.5 hours)',
    'rate(1 week)',
    'every 5 minutes',
    'RATE(5 minutes)',
    'at(2026-02-30T09:00:00)',
    'at(2026-06-01 09:00:00)',
  ])('refuses `%s`, keeping the text as written', (text) => {
    let error: unknown;
    try {
      parseScheduleExpression(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScheduleExpressionError);
    expect((error as ScheduleExpressionError).token).toBe(text);
  });

  it('cron(...) holds the six fields; its field errors are the cause', () => {
    const parsed = parseScheduleExpression('cron(0 9 ? * 2 *)');
    expect(parsed.kind === 'cron' && parsed.cron.source).toBe('0 9 ? * 2 *');
    expect(() => parseScheduleExpression('cron(0 9 * * 2 *)')).toThrow('day-of-month: `*` must be `?` here');
  });

  it('rate: fixed durations from the anchor, strictly after `after`, no DST effect', () => {
    const anchor = new Date('2026-03-08T05:00:00Z'); // 00:00 EST, the New York spring-forward day
    expect(iso(nextScheduleOccurrences('rate(6 hours)', 'America/New_York', new Date('2026-03-08T04:00:00Z'), 3, anchor))).toEqual([
      '2026-03-08T05:00:00.000Z', // the anchor itself
      '2026-03-08T11:00:00.000Z', // 07:00 EDT: six real hours later, not 06:00 wall time
      '2026-03-08T17:00:00.000Z',
    ]);
    expect(iso(nextScheduleOccurrences('rate(6 hours)', 'UTC', new Date('2026-03-08T11:00:00Z'), 1, anchor))).toEqual(['2026-03-08T17:00:00.000Z']);
    expect(() => nextScheduleOccurrences('rate(6 hours)', 'UTC', new Date(), 1)).toThrow(RangeError);
  });

  it('at: once, at the local time in the timezone; an overlap takes the first instant; a gap throws', () => {
    expect(iso(nextScheduleOccurrences('at(2026-11-01T01:30:00)', 'America/New_York', new Date('2026-01-01T00:00:00Z'), 5))).toEqual([
      '2026-11-01T05:30:00.000Z', // 01:30 EDT
    ]);
    expect(nextScheduleOccurrences('at(2026-11-01T01:30:00)', 'America/New_York', new Date('2026-11-01T05:30:00Z'), 5)).toEqual([]);
    expect(() => nextScheduleOccurrences('at(2026-03-08T02:30:00)', 'America/New_York', new Date('2026-01-01T00:00:00Z'), 1)).toThrow(LocalTimeError);
  });

  it('cron: as nextOccurrences', () => {
    expect(iso(nextScheduleOccurrences('cron(30 2 * * ? *)', 'America/Los_Angeles', new Date('2024-03-09T12:00:00Z'), 1))).toEqual(['2024-03-11T09:30:00.000Z']);
  });
});
