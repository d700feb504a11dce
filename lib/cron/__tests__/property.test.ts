/**
 * Property tests: the engine against a deliberately simple brute-force ORACLE written here from
 * SPEC §7.1, independent of lib/cron (its own field matching, luxon for the calendar and offsets).
 *
 * Replay a failure with FC_SEED=<seed> (fast-check prints the seed and path of a counterexample).
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { describeCron, minIntervalSeconds, nextOccurrences, previousOccurrence } from '../index';
import { clearMinIntervalCache } from '../min-interval';

const MINUTE = 60_000;
const DAY = 86_400_000;
const seed = loadConfig().testSeed;

// ---------------------------------------------------------------------------------------------
// Oracle: SPEC §7.1 read literally.
// ---------------------------------------------------------------------------------------------

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/** A number or a name (index + min). */
function valueOf(token: string, min: number, names: string[] = []): number {
  return /^\d+$/.test(token) ? Number(token) : names.indexOf(token.toUpperCase()) + min;
}

/**
 * Is `v` in a list of `*`, `a`, `a-b`, `a/s`, `a-b/s` or a step on `*`? Walking upwards from the range start with
 * wrap-around, `v` is in when its distance from the start is within the range and a multiple of the step.
 */
function inField(text: string, v: number, min: number, max: number, names?: string[]): boolean {
  const size = max - min + 1;
  return text.split(',').some((item) => {
    const [range, stepText] = item.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    let from: number;
    let to: number;
    if (range === '*') [from, to] = [min, max];
    else if (range.includes('-')) [from, to] = range.split('-').map((t) => valueOf(t, min, names));
    else [from, to] = [valueOf(range, min, names), stepText === undefined ? valueOf(range, min, names) : max];
    const distance = (v - from + size) % size;
    return distance <= (to - from + size) % size && distance % step === 0;
  });
}

const isWeekday = (date: DateTime) => date.weekday <= 5; // luxon: 1 = Monday … 7 = Sunday

function dayOfMonthMatches(text: string, date: DateTime): boolean {
  const last = date.daysInMonth as number;
  const upper = text.toUpperCase();
  const weekdays = Array.from({ length: last }, (_, i) => date.set({ day: i + 1 })).filter(isWeekday).map((d) => d.day);
  if (upper === 'L') return date.day === last;
  if (upper.startsWith('L-')) return date.day === last - Number(upper.slice(2));
  if (upper === 'LW') return date.day === Math.max(...weekdays);
  if (upper.endsWith('W')) {
    const n = Number(upper.slice(0, -1));
    if (n > last) return false;
    const nearest = weekdays.reduce((best, day) => (Math.abs(day - n) < Math.abs(best - n) ? day : best));
    return date.day === nearest;
  }
  return inField(text, date.day, 1, 31);
}

function dayOfWeekMatches(text: string, date: DateTime): boolean {
  const aws = (date.weekday % 7) + 1; // 1 = Sunday … 7 = Saturday
  const upper = text.toUpperCase();
  if (upper === 'L') return aws === 7;
  if (upper.includes('#')) {
    const [weekday, k] = upper.split('#');
    return aws === valueOf(weekday, 1, DAY_NAMES) && Math.ceil(date.day / 7) === Number(k);
  }
  if (upper.endsWith('L')) return aws === valueOf(upper.slice(0, -1), 1, DAY_NAMES) && date.day + 7 > (date.daysInMonth as number);
  return inField(text, aws, 1, 7, DAY_NAMES);
}

function dateMatches(fields: string[], date: DateTime): boolean {
  const [, , dom, month, dow, year] = fields;
  return (
    date.year >= 1970 && date.year <= 2199 &&
    inField(year, date.year, 1970, 2199) &&
    inField(month, date.month, 1, 12, MONTH_NAMES) &&
    (dom === '?' || dayOfMonthMatches(dom, date)) &&
    (dow === '?' || dayOfWeekMatches(dow, date))
  );
}

/** The earliest instant whose local wall clock in `zone` reads this minute, or null (DST gap). */
function firstInstant(zone: string, date: DateTime, hour: number, minute: number): number | null {
  const wallAsUtc = Date.UTC(date.year, date.month - 1, date.day, hour, minute);
  const offsets = new Set([-DAY, 0, DAY].map((d) => DateTime.fromMillis(wallAsUtc + d, { zone }).offset));
  const hits = [...offsets]
    .map((offset) => wallAsUtc - offset * MINUTE)
    .filter((t) => {
      const local = DateTime.fromMillis(t, { zone });
      return local.year === date.year && local.month === date.month && local.day === date.day && local.hour === hour && local.minute === minute;
    });
  return hits.length > 0 ? Math.min(...hits) : null;
}

/**
 * Occurrences strictly after `after` whose wall time lies in the `days` local days from the day
 * before `after`'s: minute by minute over matching days, each mapped with the DST rule.
 * Stops three hours (of wall time) after the third hit.
 */
function oracle(expression: string, zone: string, after: number, days: number): number[] {
  const fields = expression.split(' ');
  const minuteOk = Array.from({ length: 60 }, (_, m) => inField(fields[0], m, 0, 59));
  const hourOk = Array.from({ length: 24 }, (_, h) => inField(fields[1], h, 0, 23));
  const local = DateTime.fromMillis(after, { zone });
  const first = DateTime.utc(local.year, local.month, local.day).minus({ days: 1 });
  const found: number[] = [];
  let stopAt = Infinity;
  for (let i = 0; i < days; i++) {
    const date = first.plus({ days: i });
    if (!dateMatches(fields, date)) continue;
    for (let hour = 0; hour < 24; hour++) {
      if (!hourOk[hour]) continue;
      for (let minute = 0; minute < 60; minute++) {
        if (!minuteOk[minute]) continue;
        const index = (i * 24 + hour) * 60 + minute;
        if (index > stopAt) return found.sort((a, b) => a - b);
        const at = firstInstant(zone, date, hour, minute);
        if (at !== null && at > after) found.push(at);
        if (found.length === 3 && stopAt === Infinity) stopAt = index + 180;
      }
    }
  }
  return found.sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/Berlin',
  'Australia/Lord_Howe',
  'America/Santiago',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'Asia/Kolkata',
  'America/Los_Angeles',
];

const int = (min: number, max: number) => fc.integer({ min, max });
const nameOrNumber = (value: number, names: string[], min: number) =>
  fc.constantFrom(String(value), names[value - min], names[value - min].toLowerCase());

/** `*`, a step on `*`, `a`, `a,b,c`, `a-b` (may wrap unless `noWrap`), `a-b/s`, `a/s` over min…max. */
function plainField(min: number, max: number, options: { maxStep?: number; names?: string[]; noWrap?: boolean; noStep?: boolean } = {}) {
  const { maxStep = max - min, names, noWrap = false, noStep = false } = options;
  const value = names ? int(min, max).chain((v) => nameOrNumber(v, names, min)) : int(min, max).map(String);
  const step = int(1, maxStep);
  const range = fc.tuple(int(min, max), int(min, max)).chain(([a, b]) => {
    const [from, to] = noWrap && a > b ? [b, a] : [a, b];
    return names ? fc.tuple(nameOrNumber(from, names, min), nameOrNumber(to, names, min)) : fc.constant([String(from), String(to)]);
  }).map(([a, b]) => `${a}-${b}`);
  const steps = noStep
    ? []
    : [
        { weight: 2, arbitrary: step.map((s) => `*/${s}`) },
        { weight: 1, arbitrary: fc.tuple(range, step).map(([r, s]) => `${r}/${s}`) },
        { weight: 1, arbitrary: fc.tuple(value, step).map(([v, s]) => `${v}/${s}`) },
      ];
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('*') },
    ...steps,
    { weight: 2, arbitrary: value },
    { weight: 2, arbitrary: fc.uniqueArray(value, { minLength: 2, maxLength: 4 }).map((v) => v.join(',')) },
    { weight: 2, arbitrary: range },
    { weight: 1, arbitrary: fc.tuple(range, value).map(([r, v]) => `${r},${v}`) },
  );
}

const minutesField = fc.oneof(
  { weight: 3, arbitrary: plainField(0, 59, { maxStep: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('0', '30', '0/30', '15,45', '59', '*/5') },
);
const hoursField = fc.oneof(
  { weight: 3, arbitrary: plainField(0, 23) },
  { weight: 2, arbitrary: fc.constantFrom('0', '1', '2', '3', '23', '1-3', '0,2', '22-2', '2/6') }, // near DST changes
);
const dayOfMonthField = fc.oneof(
  { weight: 4, arbitrary: plainField(1, 31) },
  { weight: 1, arbitrary: fc.constantFrom('L', 'LW', 'l') },
  { weight: 1, arbitrary: int(0, 30).map((n) => `L-${n}`) },
  { weight: 1, arbitrary: int(1, 31).map((n) => `${n}W`) },
);
const monthField = fc.oneof(
  { weight: 6, arbitrary: fc.constant('*') },
  { weight: 2, arbitrary: plainField(1, 12, { names: MONTH_NAMES }) },
);
const dayOfWeekField = fc.oneof(
  // SPEC §7.1: day-of-week takes no step.
  { weight: 4, arbitrary: plainField(1, 7, { names: DAY_NAMES, noStep: true }) },
  { weight: 1, arbitrary: fc.constant('L') },
  { weight: 1, arbitrary: int(1, 7).chain((d) => nameOrNumber(d, DAY_NAMES, 1)).map((d) => `${d}L`) },
  { weight: 1, arbitrary: fc.tuple(int(1, 7).chain((d) => nameOrNumber(d, DAY_NAMES, 1)), int(1, 5)).map(([d, k]) => `${d}#${k}`) },
);
const yearField = fc.oneof(
  { weight: 6, arbitrary: fc.constant('*') },
  { weight: 1, arbitrary: fc.constantFrom('*/2', '2021/2', '2020-2030', '2019-2024,2027', '2025', '1999') },
  { weight: 1, arbitrary: plainField(2018, 2032, { noWrap: true }).map((f) => (f.startsWith('*') ? '*' : f)) },
);

/** A valid six-field expression using every feature: exactly one of the day fields is `?`. */
const anyFeatureArb = fc
  .tuple(minutesField, hoursField, dayOfMonthField, monthField, dayOfWeekField, yearField, fc.boolean())
  .map(([mi, h, dom, mon, dow, y, useDom]) => [mi, h, useDom ? dom : '?', mon, useDom ? '?' : dow, y].join(' '));
/** Daily-ish day fields, so that occurrences land on the DST change near the start instant. */
const dailyArb = fc
  .tuple(minutesField, hoursField, fc.constantFrom('* ?', '? *', '*/1 ?', '? SUN-SAT', '? 1,7', '? MON-FRI', '1-15,20-31 ?'))
  .map(([mi, h, days]) => `${mi} ${h} ${days.split(' ')[0]} * ${days.split(' ')[1]} *`);
const expressionArb = fc.oneof(anyFeatureArb, dailyArb);

/** Instants where the zone's offset changes, 2020–2030, found with luxon (daily scan, then bisection). */
function transitionsOf(zone: string): number[] {
  const found: number[] = [];
  const offset = (t: number) => DateTime.fromMillis(t, { zone }).offset;
  for (let t = Date.UTC(2020, 0, 1); t < Date.UTC(2031, 0, 1); t += DAY) {
    if (offset(t) === offset(t + DAY)) continue;
    let [lo, hi] = [t, t + DAY];
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
      if (offset(mid) === offset(lo)) lo = mid;
      else hi = mid;
    }
    found.push(hi);
  }
  return found;
}

const TRANSITIONS = new Map(ZONES.map((zone) => [zone, transitionsOf(zone)]));

/** A zone and an instant: mostly up to six hours before one of the zone's DST changes, 2020–2030. */
const zoneAndInstantArb = fc.constantFrom(...ZONES).chain((zone) => {
  const transitions = TRANSITIONS.get(zone) as number[];
  const uniform = int(Date.UTC(2020, 0, 1) / 1000, Date.UTC(2030, 11, 31) / 1000).map((s) => s * 1000);
  const nearChange =
    transitions.length === 0
      ? uniform
      : fc
          .tuple(fc.constantFrom(...transitions), fc.oneof({ weight: 3, arbitrary: int(-6 * 3600, 600) }, { weight: 1, arbitrary: int(-3 * 86_400, 3 * 86_400) }))
          .map(([t, s]) => t + s * 1000);
  return fc.tuple(fc.constant(zone), fc.oneof({ weight: 4, arbitrary: nearChange }, { weight: 1, arbitrary: uniform }));
});

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

const HORIZON_DAYS = 40;

describe('SPEC §7.1 property: nextOccurrences agrees with the brute-force oracle', () => {
  it('2,000 random expressions, zones and instants near DST changes', () => {
    fc.assert(
      fc.property(expressionArb, zoneAndInstantArb, (expression, [zone, after]) => {
        const engine = nextOccurrences(expression, zone, new Date(after), 3).map((d) => d.getTime());
        const expected = oracle(expression, zone, after, HORIZON_DAYS);
        // The oracle sees wall days up to HORIZON_DAYS - 1 after the day before `after`; compare
        // only instants safely inside that (offsets are at most ±14 h).
        const local = DateTime.fromMillis(after, { zone });
        const cutoff = Date.UTC(local.year, local.month - 1, local.day) + (HORIZON_DAYS - 3) * DAY;
        const iso = (list: number[]) => list.filter((t) => t < cutoff).slice(0, 3).map((t) => new Date(t).toISOString());
        expect(iso(engine)).toEqual(iso(expected));
      }),
      { numRuns: 2000, seed },
    );
  }, 120_000);
});

describe('SPEC §7.1 property: computing occurrences always terminates quickly', () => {
  const anyField = (text: fc.Arbitrary<string>) => fc.oneof(text, fc.constantFrom('30', '31', '29', '2', '1999', '2199'));
  const anyExpression = fc
    .tuple(minutesField, hoursField, anyField(dayOfMonthField), anyField(monthField), dayOfWeekField, anyField(yearField), fc.boolean())
    .map(([mi, h, dom, mon, dow, y, useDom]) => [mi, h, useDom ? dom : '?', mon, useDom ? '?' : dow, y].join(' '))
    .filter((expression) => {
      try {
        nextOccurrences(expression, 'UTC', 0, 0);
        return true;
      } catch {
        return false;
      }
    });

  /** Fastest of three runs in ms: a loop is slow every time, a busy machine or a cold zone table only once. */
  const fastest = (run: () => void) =>
    Math.min(
      ...[0, 1, 2].map(() => {
        const started = performance.now();
        run();
        return performance.now() - started;
      }),
    );

  it('nextOccurrences(…, 5) and previousOccurrence return within 50 ms for any expression', () => {
    fc.assert(
      fc.property(anyExpression, fc.constantFrom(...ZONES), int(Date.UTC(1960, 0, 1) / 1000, Date.UTC(2250, 0, 1) / 1000), (expression, zone, seconds) => {
        const at = new Date(seconds * 1000);
        expect(fastest(() => nextOccurrences(expression, zone, at, 5))).toBeLessThan(50);
        expect(fastest(() => previousOccurrence(expression, zone, at))).toBeLessThan(50);
        expect(nextOccurrences(expression, zone, at, 5).length).toBeLessThanOrEqual(5);
      }),
      { numRuns: 1000, seed },
    );
  }, 60_000);
});

describe('SPEC §7.1 property: previous and next occurrences are consistent', () => {
  it('previousOccurrence(next[1]) = next[0], and nothing fires between `after` and next[0]', () => {
    fc.assert(
      fc.property(expressionArb, zoneAndInstantArb, (expression, [zone, after]) => {
        const [first, second] = nextOccurrences(expression, zone, new Date(after), 2);
        if (second) expect(previousOccurrence(expression, zone, second)?.toISOString()).toBe(first.toISOString());
        if (first) {
          const before = previousOccurrence(expression, zone, first);
          if (before) expect(before.getTime()).toBeLessThanOrEqual(after);
        }
      }),
      { numRuns: 1000, seed },
    );
  }, 60_000);
});

describe('SPEC §9 property: minIntervalSeconds is a true minimum', () => {
  it('at most the shortest gap among the first occurrences, at least 60 s', () => {
    fc.assert(
      fc.property(expressionArb, zoneAndInstantArb, (expression, [zone, from]) => {
        const occurrences = nextOccurrences(expression, zone, new Date(from), 40).map((d) => d.getTime());
        const shortest = minIntervalSeconds(expression, zone, new Date(from));
        if (occurrences.length < 2) {
          expect(shortest).toBeNull();
          return;
        }
        const gaps = occurrences.slice(1).map((t, i) => (t - occurrences[i]) / 1000);
        expect(shortest).not.toBeNull();
        expect(shortest as number).toBeLessThanOrEqual(Math.min(...gaps));
        expect(shortest as number).toBeGreaterThanOrEqual(60);
      }),
      { numRuns: 300, seed },
    );
  }, 60_000);
});

describe('SPEC §9 property: minIntervalSeconds equals the brute-force minimum over all occurrences', () => {
  it('single-year expressions with fewer than 3,000 occurrences', () => {
    const singleYear = fc
      .tuple(expressionArb, int(2020, 2030))
      .map(([expression, year]) => `${expression.split(' ').slice(0, 5).join(' ')} ${year}`);
    fc.assert(
      fc.property(singleYear, zoneAndInstantArb, (expression, [zone, from]) => {
        const all = nextOccurrences(expression, zone, new Date(from), 3000).map((d) => d.getTime());
        fc.pre(all.length < 3000);
        const gaps = all.slice(1).map((t, i) => (t - all[i]) / 1000);
        expect(minIntervalSeconds(expression, zone, new Date(from))).toBe(gaps.length > 0 ? Math.min(...gaps) : null);
      }),
      { numRuns: 300, seed },
    );
  }, 60_000);
});

describe('SPEC §7.1 property: describeCron describes every valid expression', () => {
  it('cronstrue accepts what the parser accepts', () => {
    fc.assert(
      fc.property(expressionArb, (expression) => {
        expect(describeCron(expression).length).toBeGreaterThan(0);
      }),
      { numRuns: 1000, seed },
    );
  });
});

describe('SPEC §9 property: minIntervalSeconds answers the same with the tails it keeps', () => {
  it('after a call from another instant within 12 h (often the same day: its tail is reused), as a fresh scan', () => {
    fc.assert(
      fc.property(expressionArb, zoneAndInstantArb, int(-12 * 60, 12 * 60), (expression, [zone, from], minutes) => {
        clearMinIntervalCache();
        const fresh = minIntervalSeconds(expression, zone, new Date(from));
        clearMinIntervalCache();
        minIntervalSeconds(expression, zone, new Date(from + minutes * MINUTE));
        expect(minIntervalSeconds(expression, zone, new Date(from))).toBe(fresh);
      }),
      { numRuns: 300, seed },
    );
  }, 120_000);
});
