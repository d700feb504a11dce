import { describe, expect, it } from 'vitest';
import { minIntervalSeconds } from '../index';
import { clearMinIntervalCache } from '../min-interval';

const from = new Date('2025-01-01T00:00:00Z');

describe('SPEC §9 minIntervalSeconds: shortest gap between consecutive occurrences', () => {
  it.each([
    ['* * * * ? *', 'UTC', 60],
    ['0/30 * * * ? *', 'UTC', 1800],
    ['0,1 3 * * ? *', 'UTC', 60],
    ['0,59 * * * ? *', 'UTC', 60], // :59 → next hour's :00
    ['0 23,0 * * ? *', 'UTC', 3600], // 23:00 → 00:00 next day
    ['0 12 * * ? *', 'UTC', 86_400],
    ['0 0 1,31 * ? *', 'UTC', 86_400], // Jan 31 → Feb 1
    ['0 0 L * ? *', 'UTC', 28 * 86_400], // Jan 31 → Feb 28
    ['0 9 ? * MON-FRI *', 'UTC', 86_400],
    ['0 0 29 2 ? *', 'UTC', 4 * 365 * 86_400 + 86_400], // 2028-02-29 → 2032-02-29
    ['0 0 1 1 ? 2026,2030', 'UTC', (365 * 4 + 1) * 86_400],
    ['0 12 * * ? *', 'America/New_York', 23 * 3600], // spring-forward day is 23 hours long
    ['0 1,3 * * ? *', 'America/New_York', 3600], // 01:00 EST → 03:00 EDT on 2025-03-09
    ['0 1,3 * * ? *', 'Asia/Kolkata', 7200],
    ['0 1,3 * * ? *', 'Australia/Lord_Howe', 5400], // 30-minute spring gap
  ])('%s in %s → %i s', (expression, zone, seconds) => {
    expect(minIntervalSeconds(expression, zone, from)).toBe(seconds);
  });

  it('30 2 * * ? * in America/New_York: the skipped 02:30 makes a 47 h gap, never a shorter one than 24 h', () => {
    expect(minIntervalSeconds('30 2 * * ? *', 'America/New_York', from)).toBe(86_400);
  });

  it('null with fewer than two occurrences', () => {
    expect(minIntervalSeconds('0 0 1 1 ? 2030', 'UTC', from)).toBeNull();
    expect(minIntervalSeconds('0 0 30 2 ? *', 'UTC', from)).toBeNull();
    expect(minIntervalSeconds('0 0 1 1 ? 2024,2030', 'UTC', from)).toBeNull(); // 2024 is before `from`
    expect(minIntervalSeconds('0 0 1 1 ? 2199', 'UTC', new Date('2199-06-01T00:00:00Z'))).toBeNull();
  });

  it('counts only occurrences after `from`', () => {
    expect(minIntervalSeconds('0 12 1 6 ? 2025', 'UTC', from)).toBeNull();
    // from 12:00:30 only the 12:01 occurrence is left
    expect(minIntervalSeconds('0,1 12 1 6 ? 2025', 'UTC', new Date('2025-06-01T12:00:30Z'))).toBeNull();
  });

  it('is bounded in time for every-day expressions scanned to 2199', () => {
    const started = performance.now();
    expect(minIntervalSeconds('0 12 * * ? *', 'Europe/Berlin', from)).toBe(23 * 3600);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('a second call on the same day reuses the scan of the days after it, with the same answers', () => {
    clearMinIntervalCache();
    const first = performance.now();
    expect(minIntervalSeconds('*/5 * * * ? *', 'Europe/Berlin', new Date('2025-03-30T00:10:00Z'))).toBe(300);
    const firstMs = performance.now() - first;
    const again = performance.now();
    expect(minIntervalSeconds('*/5 * * * ? *', 'Europe/Berlin', new Date('2025-03-30T00:20:00Z'))).toBe(300);
    expect(performance.now() - again).toBeLessThan(firstMs);
    // The short gap of 2025-03-09 (01:00 EST → 03:00 EDT) is after `from` in both calls: found through the kept tail too.
    expect(minIntervalSeconds('0 1,3 * * ? *', 'America/New_York', new Date('2025-03-08T06:00:00Z'))).toBe(3600);
    expect(minIntervalSeconds('0 1,3 * * ? *', 'America/New_York', new Date('2025-03-08T20:00:00Z'))).toBe(3600);
    // A single-year expression whose one short gap is on `from`'s own day: not in the kept tail.
    expect(minIntervalSeconds('0 1,3 * * ? 2025', 'America/New_York', new Date('2025-03-09T05:30:00Z'))).toBe(3600);
    expect(minIntervalSeconds('0 1,3 * * ? 2025', 'America/New_York', new Date('2025-03-09T06:30:00Z'))).toBe(7200);
  });
});
