import { describe, expect, it } from 'vitest';
import { matchesWallTime, nextOccurrence, nextOccurrences, parseCronExpression, previousOccurrence } from '../index';

const iso = (dates: Date[]) => dates.map((date) => date.toISOString());
const next = (expression: string, after: string, count: number, zone = 'UTC') => iso(nextOccurrences(expression, zone, new Date(after), count));

describe('SPEC §7.1 cron rules (UTC unless named)', () => {
  it.each([
    // [rule, expression, after, expected]
    ['day-of-week 2 = Monday', '0 9 ? * 2 *', '2021-08-31T21:00:00Z', ['2021-09-06T09:00:00.000Z', '2021-09-13T09:00:00.000Z']],
    ['nW stays in the month: 1W on Saturday 2024-06-01 → Monday 3rd', '0 0 1W * ? *', '2024-05-15T00:00:00Z', ['2024-06-03T00:00:00.000Z', '2024-07-01T00:00:00.000Z']],
    ['n#k: 7#4 = fourth Saturday', '0 0 ? * 7#4 *', '2024-08-02T00:00:00Z', ['2024-08-24T00:00:00.000Z', '2024-09-28T00:00:00.000Z', '2024-10-26T00:00:00.000Z']],
    ['`*/15` and `0/15` are the same', '*/15 10 * * ? *', '2024-01-01T00:00:00Z', ['2024-01-01T10:00:00.000Z', '2024-01-01T10:15:00.000Z', '2024-01-01T10:30:00.000Z', '2024-01-01T10:45:00.000Z']],
    ['`7/20` in minutes is :07, :27, :47', '7/20 10 * * ? *', '2024-01-01T00:00:00Z', ['2024-01-01T10:07:00.000Z', '2024-01-01T10:27:00.000Z', '2024-01-01T10:47:00.000Z', '2024-01-02T10:07:00.000Z']],
    ['`a-b/s` steps inside the range', '0 9-17/4 * * ? *', '2024-01-01T00:00:00Z', ['2024-01-01T09:00:00.000Z', '2024-01-01T13:00:00.000Z', '2024-01-01T17:00:00.000Z', '2024-01-02T09:00:00.000Z']],
    ['hours range wraps: 22-2', '0 22-2 * * ? *', '2024-01-01T12:00:00Z', ['2024-01-01T22:00:00.000Z', '2024-01-01T23:00:00.000Z', '2024-01-02T00:00:00.000Z', '2024-01-02T01:00:00.000Z', '2024-01-02T02:00:00.000Z', '2024-01-02T22:00:00.000Z']],
    ['wrapped range with a step: 22-2/2 = 22, 0, 2', '0 22-2/2 * * ? *', '2024-01-01T12:00:00Z', ['2024-01-01T22:00:00.000Z', '2024-01-02T00:00:00.000Z', '2024-01-02T02:00:00.000Z', '2024-01-02T22:00:00.000Z']],
    // 2024-01-05 is a Friday
    ['day-of-week range wraps: FRI-MON', '0 0 ? * FRI-MON *', '2024-01-03T00:00:00Z', ['2024-01-05T00:00:00.000Z', '2024-01-06T00:00:00.000Z', '2024-01-07T00:00:00.000Z', '2024-01-08T00:00:00.000Z', '2024-01-12T00:00:00.000Z']],
    ['month range wraps: NOV-FEB', '0 0 1 NOV-FEB ? *', '2024-03-01T00:00:00Z', ['2024-11-01T00:00:00.000Z', '2024-12-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', '2025-02-01T00:00:00.000Z', '2025-11-01T00:00:00.000Z']],
    ['day-of-month `*/10` counts from 1: 1, 11, 21, 31', '0 0 */10 * ? *', '2024-01-01T12:00:00Z', ['2024-01-11T00:00:00.000Z', '2024-01-21T00:00:00.000Z', '2024-01-31T00:00:00.000Z', '2024-02-01T00:00:00.000Z']],
    ['month `*/4` counts from 1: JAN, MAY, SEP', '0 0 1 */4 ? *', '2024-01-15T00:00:00Z', ['2024-05-01T00:00:00.000Z', '2024-09-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z']],
    ['year `*/2` counts from 1970: even years', '0 0 1 1 ? */2', '2024-06-01T00:00:00Z', ['2026-01-01T00:00:00.000Z', '2028-01-01T00:00:00.000Z']],
    ['year list and range', '0 0 1 1 ? 2025,2027-2028', '2024-06-01T00:00:00Z', ['2025-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', '2028-01-01T00:00:00.000Z']],
    ['L = last day of the month (leap February)', '0 0 L * ? *', '2024-01-31T12:00:00Z', ['2024-02-29T00:00:00.000Z', '2024-03-31T00:00:00.000Z', '2024-04-30T00:00:00.000Z']],
    ['L-n: L-2 is two days before the last day', '0 0 L-2 * ? *', '2023-01-31T00:00:00Z', ['2023-02-26T00:00:00.000Z', '2023-03-29T00:00:00.000Z']],
    ['L-30 only fires in 31-day months (day 1)', '0 0 L-30 * ? *', '2024-01-15T00:00:00Z', ['2024-03-01T00:00:00.000Z', '2024-05-01T00:00:00.000Z', '2024-07-01T00:00:00.000Z']],
    // 2024-08-31 is a Saturday, 2024-03-31 a Sunday
    ['LW = last weekday: Sat 31st → Fri 30th, Sun 31st → Fri 29th', '0 0 LW * ? *', '2024-07-31T12:00:00Z', ['2024-08-30T00:00:00.000Z', '2024-09-30T00:00:00.000Z']],
    ['LW with a Sunday last day', '0 0 LW 3 ? *', '2024-01-01T00:00:00Z', ['2024-03-29T00:00:00.000Z']],
    // 2024-09-15 is a Sunday → Monday 16th; 2024-06-15 a Saturday → Friday 14th
    ['nW: Sunday → Monday, Saturday → Friday', '0 0 15W 6,9 ? *', '2024-01-01T00:00:00Z', ['2024-06-14T00:00:00.000Z', '2024-09-16T00:00:00.000Z']],
    // 2024-03-31 is a Sunday: 31W → Friday 29th; 30-day April has no day 31 → no fire
    ['31W never leaves the month and skips 30-day months', '0 0 31W 3,4,5 ? *', '2024-01-01T00:00:00Z', ['2024-03-29T00:00:00.000Z', '2024-05-31T00:00:00.000Z']],
    ['`L` alone in day-of-week = 7 = Saturday', '0 0 ? * L *', '2024-01-01T00:00:00Z', ['2024-01-06T00:00:00.000Z', '2024-01-13T00:00:00.000Z']],
    ['nL = last such weekday: 6L = last Friday', '0 0 ? * 6L *', '2024-01-01T00:00:00Z', ['2024-01-26T00:00:00.000Z', '2024-02-23T00:00:00.000Z', '2024-03-29T00:00:00.000Z']],
    ['FRIL = last Friday', '0 0 ? * FRIL *', '2024-01-01T00:00:00Z', ['2024-01-26T00:00:00.000Z', '2024-02-23T00:00:00.000Z']],
    ['MON#1 = first Monday', '30 2 ? * MON#1 *', '2024-01-01T12:00:00Z', ['2024-02-05T02:30:00.000Z', '2024-03-04T02:30:00.000Z']],
    // Fifth Fridays of 2024: Mar 29, May 31, Aug 30, Nov 29
    ['#5: a month without a 5th one has no fire', '0 0 ? * 6#5 *', '2024-01-01T00:00:00Z', ['2024-03-29T00:00:00.000Z', '2024-05-31T00:00:00.000Z', '2024-08-30T00:00:00.000Z', '2024-11-29T00:00:00.000Z']],
    ['names are case-insensitive', '0 0 ? jan,Feb mon#2 *', '2024-01-01T00:00:00Z', ['2024-01-08T00:00:00.000Z', '2024-02-12T00:00:00.000Z', '2025-01-13T00:00:00.000Z']],
    ['29 FEB fires in leap years only', '0 0 29 2 ? *', '2024-03-01T00:00:00Z', ['2028-02-29T00:00:00.000Z', '2032-02-29T00:00:00.000Z']],
  ])('§7.1 %s: %s', (_rule, expression, after, expected) => {
    expect(next(expression, after, expected.length)).toEqual(expected);
  });

  it('§7.1 occurrences are strictly after `after`', () => {
    expect(next('0 9 * * ? *', '2024-01-01T09:00:00Z', 1)).toEqual(['2024-01-02T09:00:00.000Z']);
    expect(next('0 9 * * ? *', '2024-01-01T08:59:59.999Z', 1)).toEqual(['2024-01-01T09:00:00.000Z']);
  });

  it('§7.1 an impossible date parses and has no occurrence, at once', () => {
    nextOccurrences('0 0 * * ? *', 'America/New_York', new Date('2024-01-01T00:00:00Z'), 1); // load the zone's offsets first
    for (const expression of ['0 0 30 2 ? *', '0 0 31 2,4,6,9,11 ? *', '0 0 ? 2 1#5 2026', '0 0 1 1 ? 1999']) {
      expect(() => parseCronExpression(expression)).not.toThrow();
      const started = performance.now();
      expect(nextOccurrences(expression, 'America/New_York', new Date('2024-01-01T00:00:00Z'), 5)).toEqual([]);
      expect(nextOccurrence(expression, 'UTC', new Date('2024-01-01T00:00:00Z'))).toBeNull();
      expect(performance.now() - started).toBeLessThan(50);
    }
  });

  it('§7.1 the year bound 2199: fewer than `count` when the expression runs out', () => {
    expect(next('0 0 1 1 ? 2198-2199', '2100-01-01T00:00:00Z', 5)).toEqual(['2198-01-01T00:00:00.000Z', '2199-01-01T00:00:00.000Z']);
    expect(next('0 0 1 1 ? *', '2199-06-01T00:00:00Z', 5)).toEqual([]);
    expect(next('0 0 1 1 ? *', '1960-06-01T00:00:00Z', 1)).toEqual(['1970-01-01T00:00:00.000Z']);
  });

  it('count 0 gives [], a bad count, date or zone throws', () => {
    expect(next('* * * * ? *', '2024-01-01T00:00:00Z', 0)).toEqual([]);
    expect(() => nextOccurrences('* * * * ? *', 'UTC', new Date('2024-01-01'), -1)).toThrow(RangeError);
    expect(() => nextOccurrences('* * * * ? *', 'UTC', new Date('2024-01-01'), 1.5)).toThrow(RangeError);
    expect(() => nextOccurrences('* * * * ? *', 'UTC', new Date('nope'), 1)).toThrow(RangeError);
    expect(() => nextOccurrences('* * * * ? *', '+02:00', new Date('2024-01-01'), 1)).toThrow(/timezone/);
    expect(() => nextOccurrences('* * * * *', 'UTC', new Date('2024-01-01'), 1)).toThrow(/expression: expected 6 fields/);
  });

  it('accepts a parsed CronExpression and epoch milliseconds', () => {
    const expression = parseCronExpression('0 9 ? * 2 *');
    expect(iso(nextOccurrences(expression, 'UTC', Date.parse('2021-08-31T21:00:00Z'), 1))).toEqual(['2021-09-06T09:00:00.000Z']);
  });
});

describe('previousOccurrence: the latest occurrence strictly before', () => {
  const previous = (expression: string, before: string, zone = 'UTC') => previousOccurrence(expression, zone, new Date(before))?.toISOString() ?? null;

  it.each([
    ['0 9 ? * 2 *', '2021-09-13T09:00:00Z', 'UTC', '2021-09-06T09:00:00.000Z'],
    ['0 9 ? * 2 *', '2021-09-13T09:00:00.001Z', 'UTC', '2021-09-13T09:00:00.000Z'],
    ['0 0 L * ? *', '2024-03-15T00:00:00Z', 'UTC', '2024-02-29T00:00:00.000Z'],
    ['0 0 29 2 ? *', '2027-01-01T00:00:00Z', 'UTC', '2024-02-29T00:00:00.000Z'],
    ['0 0 ? * 6#5 *', '2024-08-01T00:00:00Z', 'UTC', '2024-05-31T00:00:00.000Z'],
    // 2026-03-08 02:30 New York does not exist: the previous one is 2026-03-07 02:30 EST
    ['30 2 * * ? *', '2026-03-09T00:00:00Z', 'America/New_York', '2026-03-07T07:30:00.000Z'],
    // second pass of 01:xx on 2026-11-01 (EST) never fires: before 06:30Z the latest is 05:59Z (01:59 EDT)
    ['* * * * ? *', '2026-11-01T06:30:00Z', 'America/New_York', '2026-11-01T05:59:00.000Z'],
  ])('%s before %s in %s → %s', (expression, before, zone, expected) => {
    expect(previous(expression, before, zone)).toBe(expected);
  });

  it('null when nothing fired since 1970', () => {
    expect(previous('0 0 1 1 ? 2030', '2029-01-01T00:00:00Z')).toBeNull();
    expect(previous('0 0 30 2 ? *', '2199-12-31T00:00:00Z')).toBeNull();
  });
});

describe('matchesWallTime: SPEC §7.1 fields on wall time alone', () => {
  it.each([
    ['0 9 ? * 2 *', { year: 2021, month: 9, day: 6, hour: 9, minute: 0 }, true], // a Monday
    ['0 9 ? * 2 *', { year: 2021, month: 9, day: 7, hour: 9, minute: 0 }, false],
    ['30 2 * * ? *', { year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, true], // matches, though New York skips it
    ['0 0 L * ? *', { year: 2024, month: 2, day: 29, hour: 0, minute: 0 }, true],
    ['0 0 L * ? *', { year: 2023, month: 2, day: 29, hour: 0, minute: 0 }, false], // no such day
  ])('%s at %j → %s', (expression, wall, expected) => {
    expect(matchesWallTime(parseCronExpression(expression), wall)).toBe(expected);
  });
});
