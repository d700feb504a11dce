/**
 * The display helpers' times: `formatInZone` (wall time and zone name) and `formatUtc` keep one Intl formatter
 * per zone and must print exactly what luxon prints (the oracle: `toFormat` + `offsetNameShort`), for
 * every IANA zone and any instant, DST transitions included.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config';
import { formatInZone, formatUtc } from '../format';

/** The zone's short name `formatInZone` prints after the date and the time. */
const shortZoneName = (zone: string, ms: number) => formatInZone(new Date(ms), zone).split(' ').slice(2).join(' ');

const ZONES = Intl.supportedValuesOf('timeZone');
const seed = loadConfig().testSeed;

describe('formatInZone zone names', () => {
  it('equals luxon offsetNameShort for every zone around its DST transitions and at random instants', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) }), (zone, ms) => {
        expect(shortZoneName(zone, ms)).toBe(DateTime.fromMillis(ms, { zone }).setLocale('en-US').offsetNameShort);
      }),
      { numRuns: 3000, seed },
    );
    // Either side of 2026's transitions in zones with DST and with half-hour offsets.
    for (const [zone, iso] of [
      ['Europe/Berlin', '2026-03-29T01:00:00Z'],
      ['Europe/Berlin', '2026-10-25T01:00:00Z'],
      ['America/New_York', '2026-03-08T07:00:00Z'],
      ['Australia/Lord_Howe', '2026-04-04T15:00:00Z'],
      ['Asia/Kolkata', '2026-06-01T00:00:00Z'],
    ] as const) {
      for (const delta of [-1, 0, 1]) {
        const ms = Date.parse(iso) + delta * 60_000;
        expect(shortZoneName(zone, ms), `${zone} ${iso} ${delta}`).toBe(DateTime.fromMillis(ms, { zone }).setLocale('en-US').offsetNameShort);
      }
    }
    // 3000 runs of Intl formatting: seconds on a loaded shared machine, not the default 5.
  }, 60_000);

  it('formatInZone and formatUtc print what luxon prints, for any zone and instant, with and without seconds', () => {
    const luxonInZone = (ms: number, zone: string, seconds: boolean) => {
      const dt = DateTime.fromMillis(ms).setZone(zone).setLocale('en-US');
      return `${dt.toFormat(seconds ? 'yyyy-MM-dd HH:mm:ss' : 'yyyy-MM-dd HH:mm')} ${dt.offsetNameShort}`;
    };
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) }), fc.boolean(), (zone, ms, seconds) => {
        const iso = new Date(ms).toISOString();
        expect(formatInZone(iso, zone, { seconds })).toBe(luxonInZone(ms, zone, seconds));
        expect(formatInZone(new Date(ms), zone, { seconds })).toBe(luxonInZone(ms, zone, seconds));
        expect(formatUtc(iso)).toBe(DateTime.fromMillis(ms, { zone: 'utc' }).toFormat("yyyy-MM-dd HH:mm:ss 'UTC'"));
      }),
      { numRuns: 3000, seed },
    );
    // Not an instant, or not a zone: the input comes back as text.
    expect(formatInZone('not a time', 'UTC')).toBe('not a time');
    expect(formatInZone('2026-01-01T00:00:00Z', 'Mars/Olympus')).toBe('2026-01-01T00:00:00Z');
    expect(formatUtc('2026-01-01T10:00:00')).toBe('2026-01-01 10:00:00 UTC');
  }, 60_000);

  it('formatInZone prints the wall time and the short name', () => {
    expect(formatInZone('2026-03-29T00:59:59Z', 'Europe/Berlin')).toBe('2026-03-29 01:59:59 GMT+1');
    expect(formatInZone('2026-03-29T01:00:00Z', 'Europe/Berlin')).toBe('2026-03-29 03:00:00 GMT+2');
    expect(formatInZone('2026-11-30T12:00:00Z', 'Asia/Kolkata', { seconds: false })).toBe('2026-11-30 17:30 GMT+5:30');
    expect(formatInZone('2026-07-01T12:00:00Z', 'America/New_York')).toBe('2026-07-01 08:00:00 EDT');
  });
});
