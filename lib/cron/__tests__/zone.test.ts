import { describe, expect, it } from 'vitest';
import { assertTimezone, isValidTimezone, LocalTimeError, resolveLocalTime, resolveWallTime, TimezoneError, toLocalTime, wallTimeAt } from '../index';

describe('SPEC §5.1 isValidTimezone: IANA names only', () => {
  it.each(['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Asia/Calcutta', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/Argentina/Buenos_Aires', 'America/Port-au-Prince', 'Etc/UTC', 'Etc/GMT+1'])(
    'accepts %s',
    (zone) => {
      expect(isValidTimezone(zone)).toBe(true);
      expect(() => assertTimezone(zone)).not.toThrow();
    },
  );

  it.each(['+02:00', '-05:00', 'UTC+2', 'UTC-05:00', 'GMT+01:00', 'gmt-3', '', ' ', 'Mars/Olympus_Mons', 'america/new_york', 'utc', 'Z', 'Europe/Berlin ', '0200'])(
    'refuses %j',
    (zone) => {
      expect(isValidTimezone(zone)).toBe(false);
      expect(() => assertTimezone(zone)).toThrow(TimezoneError);
    },
  );

  it('refuses non-strings without throwing', () => {
    expect(isValidTimezone(undefined as unknown as string)).toBe(false);
    expect(isValidTimezone(2 as unknown as string)).toBe(false);
  });
});

describe('SPEC §7.2 resolveLocalTime: one-time invocation_time', () => {
  it('exact: 2026-06-01T09:00:00 Europe/Berlin → 07:00Z', () => {
    expect(resolveLocalTime('2026-06-01T09:00:00', 'Europe/Berlin').toISOString()).toBe('2026-06-01T07:00:00.000Z'); // 09:00 CEST
  });

  it('§7.2 overlap: 2026-11-01T01:30:00 America/New_York → its first instant', () => {
    expect(resolveLocalTime('2026-11-01T01:30:00', 'America/New_York').toISOString()).toBe('2026-11-01T05:30:00.000Z'); // 01:30 EDT
  });

  it('§7.2 gap: 2026-03-08T02:30:00 America/New_York is refused', () => {
    expect(() => resolveLocalTime('2026-03-08T02:30:00', 'America/New_York')).toThrow(LocalTimeError);
    try {
      resolveLocalTime('2026-03-08T02:30:00', 'America/New_York');
    } catch (error) {
      expect((error as LocalTimeError).reason).toBe('gap');
    }
  });

  it('§7.2 gap at midnight: 2024-09-08T00:00:00 America/Santiago is refused', () => {
    expect(() => resolveLocalTime('2024-09-08T00:00:00', 'America/Santiago')).toThrow(expect.objectContaining({ reason: 'gap' }));
  });

  it.each(['2026-02-30T09:00:00', '2026-13-01T09:00:00', '2026-06-01T24:00:00', '2026-06-01T09:60:00', '2026-06-01 09:00:00', '2026-06-01T09:00', '2026-06-01T09:00:00Z', '2026-06-01T09:00:00+02:00', '2026-06-01T09:00:00.000', '26-06-01T09:00:00', ''])(
    'malformed: %j',
    (input) => {
      expect(() => resolveLocalTime(input, 'UTC')).toThrow(expect.objectContaining({ name: 'LocalTimeError', reason: 'malformed' }));
    },
  );

  it('an invalid timezone throws TimezoneError', () => {
    expect(() => resolveLocalTime('2026-06-01T09:00:00', 'UTC+2')).toThrow(TimezoneError);
  });
});

describe('STYLE §4.4 resolveWallTime', () => {
  it('exact, gap and overlap', () => {
    expect(resolveWallTime({ year: 2026, month: 6, day: 1, hour: 9, minute: 0 }, 'UTC')).toEqual({ kind: 'exact', at: Date.parse('2026-06-01T09:00:00Z') });
    expect(resolveWallTime({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, 'America/New_York')).toEqual({ kind: 'gap' });
    expect(resolveWallTime({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, 'America/New_York')).toEqual({
      kind: 'overlap',
      first: Date.parse('2026-11-01T05:30:00Z'), // 01:30 EDT
      second: Date.parse('2026-11-01T06:30:00Z'), // 01:30 EST
    });
    // Lord_Howe falls back 30 minutes: 01:45 on 2024-04-07 is +11:00 then +10:30
    expect(resolveWallTime({ year: 2024, month: 4, day: 7, hour: 1, minute: 45 }, 'Australia/Lord_Howe')).toEqual({
      kind: 'overlap',
      first: Date.parse('2024-04-06T14:45:00Z'),
      second: Date.parse('2024-04-06T15:15:00Z'),
    });
  });

  it('seconds count; an impossible wall time is malformed', () => {
    expect(resolveWallTime({ year: 2026, month: 6, day: 1, hour: 9, minute: 0, second: 30 }, 'Asia/Kathmandu')).toEqual({ kind: 'exact', at: Date.parse('2026-06-01T03:15:30Z') });
    expect(() => resolveWallTime({ year: 2026, month: 2, day: 29, hour: 0, minute: 0 }, 'UTC')).toThrow(LocalTimeError);
  });
});

describe('toLocalTime / wallTimeAt: wall time shown at an instant', () => {
  it.each([
    ['2026-11-01T05:30:00Z', 'America/New_York', '2026-11-01T01:30:00'],
    ['2026-11-01T06:30:00Z', 'America/New_York', '2026-11-01T01:30:00'],
    ['2024-06-01T03:15:59.999Z', 'Asia/Kathmandu', '2024-06-01T09:00:59'],
    ['2024-09-08T04:00:00Z', 'America/Santiago', '2024-09-08T01:00:00'],
    ['2024-04-06T15:15:00Z', 'Australia/Lord_Howe', '2024-04-07T01:45:00'],
    ['1969-12-31T23:59:59Z', 'UTC', '1969-12-31T23:59:59'],
  ])('%s in %s → %s', (instant, zone, expected) => {
    expect(toLocalTime(new Date(instant), zone)).toBe(expected);
  });

  it('wallTimeAt gives the fields', () => {
    expect(wallTimeAt(Date.parse('2024-06-01T13:00:00Z'), 'Asia/Kolkata')).toEqual({ year: 2024, month: 6, day: 1, hour: 18, minute: 30, second: 0 });
  });
});
