/**
 * lib/db/sql/instant.ts `sqlInstant` writes what the stored forms are (`toISOString`, with `+00:00`
 * for `Z` on SQLite) by its own arithmetic: proven against `toISOString` itself, the oracle, over the
 * whole range of Date, and on the edges of its fast path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sqlInstant, sqlInstantOrNull } from '../sql/instant';

const oracle = (ms: number) => ({ postgresql: new Date(ms).toISOString(), sqlite: new Date(ms).toISOString().replace(/Z$/, '+00:00') });
const MAX = 8.64e15;

describe('sqlInstant', () => {
  it('is toISOString on PostgreSQL and toISOString with +00:00 on SQLite, for every instant of Date', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX, max: MAX }), (ms) => {
        const want = oracle(ms);
        expect(sqlInstant('postgresql', new Date(ms))).toBe(want.postgresql);
        expect(sqlInstant('sqlite', new Date(ms))).toBe(want.sqlite);
      }),
      { numRuns: 20_000 },
    );
  }, 30_000);

  it('is toISOString for instants of one day in any order, repeats included (the last instant written is reused)', () => {
    const dayStart = Date.UTC(2030, 0, 15);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: dayStart - 1, max: dayStart + 86_400_000 }), { minLength: 1, maxLength: 50 }).map((xs) => [...xs, ...xs]), (instants) => {
        for (const ms of instants) expect(sqlInstant('postgresql', new Date(ms))).toBe(oracle(ms).postgresql);
      }),
    );
  });

  it('every day from 1970 to 2600, at its first and last millisecond (leap days and century years included)', () => {
    for (let ms = 0; ms < Date.UTC(2600, 0, 1); ms += 86_400_000) {
      for (const at of [ms, ms + 86_399_999]) {
        const got = sqlInstant('postgresql', new Date(at));
        if (got !== oracle(at).postgresql) expect(got, String(at)).toBe(oracle(at).postgresql);
      }
    }
  }, 30_000);

  it('on the edges of years 1970–9999, milliseconds and day ends', () => {
    const edges = [0, -1, 1, 9, 10, 99, 100, 999, 1000, 86_399_999, 86_400_000, Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10_000, 0, 1), Date.UTC(2024, 1, 29, 12), Date.UTC(2000, 1, 29), Date.UTC(2100, 1, 28, 23, 59, 59, 999), Date.UTC(2100, 2, 1), Date.UTC(2400, 1, 29, 6), Date.UTC(9600, 1, 29), -62_198_755_200_000];
    for (const ms of edges) {
      expect(sqlInstant('sqlite', new Date(ms)), String(ms)).toBe(oracle(ms).sqlite);
      expect(sqlInstant('postgresql', new Date(ms)), String(ms)).toBe(oracle(ms).postgresql);
    }
    expect(sqlInstantOrNull('sqlite', null)).toBeNull();
  });
});
