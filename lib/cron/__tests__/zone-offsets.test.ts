/**
 * The lazily built offset tables (lib/cron/zone.ts `ZoneRules`) against luxon, which reads the
 * platform's tz database for each instant on its own: every IANA zone, instants 1970–2199, and the
 * instants right before and at each change the tables found (pinned to the second).
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { ZoneRules } from '../zone';

const SECOND = 1000;
/** Scan step: shorter than any offset period since 1970 (7 days), so no change goes unseen. */
const STEP = 2 * 86_400 * SECOND;
const ZONES = Intl.supportedValuesOf('timeZone');
const luxonOffset = (zone: string, t: number) => DateTime.fromMillis(t, { zone }).offset * 60 * SECOND;

describe('ZoneRules.offsetAt agrees with luxon (SPEC §7.1 relies on exact offsets)', () => {
  it('every zone at 40 random instants 1970–2199', () => {
    const instant = fc.integer({ min: Date.UTC(1970, 0, 1) / SECOND, max: Date.UTC(2199, 11, 31) / SECOND }).map((s) => s * SECOND);
    for (const zone of ZONES) {
      const rules = new ZoneRules(zone);
      for (const t of fc.sample(instant, { numRuns: 40, seed: zone.length })) {
        expect([zone, t, rules.offsetAt(t)]).toEqual([zone, t, luxonOffset(zone, t)]);
      }
    }
    // ~17,000 Intl reads: about a second alone, several on a busy shared machine.
  }, 60_000);

  it('each change found in 2020–2025 and 2185–2190 sits exactly on the second luxon sees it', () => {
    let changes = 0;
    for (const zone of ZONES) {
      const rules = new ZoneRules(zone);
      for (const [from, to] of [[2020, 2026], [2185, 2191]]) {
        let before = rules.offsetAt(Date.UTC(from, 0, 1));
        for (let t = Date.UTC(from, 0, 1); t < Date.UTC(to, 0, 1); t += STEP) {
          const offset = rules.offsetAt(t);
          if (offset === before) continue;
          // A change in (t - STEP, t]: bisect to the second at which the tables switch.
          let [lo, at] = [t - STEP, t];
          while (at - lo > SECOND) {
            const mid = lo + Math.floor((at - lo) / 2 / SECOND) * SECOND;
            if (rules.offsetAt(mid) === before) lo = mid;
            else at = mid;
          }
          expect([zone, at, luxonOffset(zone, at - SECOND), luxonOffset(zone, at)]).toEqual([zone, at, before, offset]);
          before = offset;
          changes++;
        }
      }
    }
    expect(changes).toBeGreaterThan(1000);
  }, 60_000);

  it('gapEnd: the first wall time after a spring-forward gap (2026-03-08 America/New_York, 2026-03-29 Europe/Berlin)', () => {
    const ny = new ZoneRules('America/New_York');
    // 02:30 wall on 2026-03-08 does not exist; the gap ends at 03:00 wall.
    expect(Number.isNaN(ny.firstInstant(Date.UTC(2026, 2, 8, 2, 30)))).toBe(true);
    expect(new Date(ny.gapEnd(Date.UTC(2026, 2, 8, 2, 30))).toISOString()).toBe('2026-03-08T03:00:00.000Z');
    const berlin = new ZoneRules('Europe/Berlin');
    expect(new Date(berlin.gapEnd(Date.UTC(2026, 2, 29, 2, 0))).toISOString()).toBe('2026-03-29T03:00:00.000Z');
    // Lord Howe: a 30-minute gap, 02:00–02:30 wall on 2026-10-04.
    const lordHowe = new ZoneRules('Australia/Lord_Howe');
    expect(new Date(lordHowe.gapEnd(Date.UTC(2026, 9, 4, 2, 10))).toISOString()).toBe('2026-10-04T02:30:00.000Z');
  });
});
