/**
 * SPEC §7.1 "computing the next occurrence always terminates quickly, whatever the expression", for
 * every zone name the tz database knows (Intl's 418 canonical names and the 179 other names Intl and
 * luxon accept; the engine refuses two of them, `GMT+0` and `GMT-0`) and instants 1900–2100. Each call
 * of the engine is checked against a brute-force ORACLE written here, and the work it did
 * (`lastCronWork()`, lib/cron/work.ts) against its budget in `WORK_BUDGETS`.
 *
 * The oracle shares nothing with the engine: the offset computed from the wall clock's date parts (as
 * luxon does; the engine parses the offset's text), read every 2 hours around the instant, each change
 * bisected to the second; then every wall minute the expression matches, mapped to the earliest instant
 * whose wall clock reads it (SPEC §7.1: a wall time in a gap has none, one in an overlap counts once,
 * at its first instant). luxon shows the wall time at the instant.
 *
 * The instants lean on the hard cases: offset changes at a second that is not a quarter hour of UTC
 * (the end of local mean time in most zones; St John's and Goose Bay moved their clocks at 00:01 local
 * until 2011; Monrovia's offset was −0:44:30 until 1972).
 *
 * Replay a failure with FC_SEED=<seed>: every failure prints the seed it ran with.
 */
import fc from 'fast-check';
import { DateTime, IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { CronWorkBudgetExceeded } from '../errors';
import { isValidTimezone, minIntervalSeconds, nextOccurrence, nextOccurrences, previousOccurrence, resolveLocalTime, toLocalTime } from '../index';
import { lastCronWork, withCronWorkBudget, WORK_BUDGETS } from '../work';
import { ZoneRules } from '../zone';
import { IANA_NAMES_NOT_LISTED_BY_INTL } from './fixtures/iana-names';

const SECOND = 1_000;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const seed = loadConfig().testSeed ?? Math.floor(Math.random() * 2 ** 31);
const iso = (t: number | Date | null | undefined) => (t === null || t === undefined ? null : new Date(t).toISOString());

const NAMES = [...new Set([...Intl.supportedValuesOf('timeZone'), ...IANA_NAMES_NOT_LISTED_BY_INTL])].sort();
/** All but `GMT+0` and `GMT-0`, which the engine refuses as offsets (docs/decisions.md 12). */
const ZONES = NAMES.filter(isValidTimezone);

/** Zones whose offset changed, after 1960, at a second off the quarter-hour grid of UTC, and when. */
const OFF_GRID: readonly [zone: string, from: number, to: number][] = [
  ['America/St_Johns', 1987, 2011], // 00:01 local: 03:31 / 02:31 UTC
  ['America/Goose_Bay', 1987, 2011], // 00:01 local: 04:01 / 03:01 UTC
  ['America/Moncton', 1993, 2006],
  ['Africa/Monrovia', 1972, 1972], // −0:44:30 → 0:00 at 00:44:30 UTC
  ['Antarctica/Casey', 2020, 2022],
  ['Asia/Gaza', 2010, 2011],
  ['Asia/Hebron', 2011, 2011],
  ['Pacific/Guam', 1969, 1976],
  ['Pacific/Kiritimati', 1979, 1979], // at 10:40 UTC
  ['America/Detroit', 1967, 1967],
];

// ---------------------------------------------------------------------------------------------
// Oracle
// ---------------------------------------------------------------------------------------------

const partsFormats = new Map<string, Intl.DateTimeFormat>();
/**
 * The UTC offset in ms at instant `t` (whole seconds, 1850–2200), from the wall clock's date parts as
 * Intl shows them, as luxon computes it (the engine reads the offset's own text instead). It may hold
 * seconds: −0:44:30 is −2,670,000.
 */
function offsetOf(zone: string, t: number): number {
  let format = partsFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    partsFormats.set(zone, format);
  }
  const part: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(t)) part[type] = Number(value);
  return Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second) - t;
}

interface Period {
  readonly start: number;
  readonly end: number;
  readonly offset: number;
}

/** The instant in (lo, hi] (whole seconds) at which the offset stops being the one at lo; the offsets differ at lo and hi. */
function changeBetween(zone: string, lo: number, hi: number): number {
  const before = offsetOf(zone, lo);
  while (hi - lo > SECOND) {
    const mid = lo + Math.floor((hi - lo) / 2 / SECOND) * SECOND;
    if (offsetOf(zone, mid) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** How often the oracle reads offsets: 2 h (the shortest offset period in tzdata, backzone included, is 95 h: Africa/Freetown 1939). */
const STEP = 2 * HOUR;

/** The zone's offsets over [from, to) (whole hours): read every `STEP`, each change bisected to the second. */
function periodsOf(zone: string, from: number, to: number): Period[] {
  const periods: Period[] = [];
  let [start, offset] = [from, offsetOf(zone, from)];
  for (let t = from; t < to; t += STEP) {
    const next = offsetOf(zone, t + STEP);
    if (next === offset) continue;
    const change = changeBetween(zone, Math.max(t, start), t + STEP);
    periods.push({ start, end: change, offset });
    [start, offset] = [change, offsetOf(zone, change)];
    if (offset !== next) t -= STEP; // two changes within the step: read this step again from the first
  }
  periods.push({ start, end: to, offset });
  return periods;
}

/** The earliest instant of `periods` whose wall clock reads wall ms `wall`, or null (a gap). */
function firstInstantOf(periods: Period[], wall: number): number | null {
  for (const p of periods) {
    const t = wall - p.offset;
    if (t >= p.start && t < p.end) return t; // periods ascend, so the first hit is the earliest
  }
  return null;
}

/** A cron expression as the value set of each field (null: every value), and its text. */
interface Spec {
  readonly text: string;
  readonly minutes: number[] | null;
  readonly hours: number[] | null;
  readonly days: number[] | null;
  readonly weekdays: number[] | null;
  readonly months: number[] | null;
}

const has = (set: number[] | null, v: number) => set === null || set.includes(v);

/** The offsets over [from, to) and two days either side: every instant that can show a wall time of [from, to). */
const periodsAround = (zone: string, from: number, to: number) => periodsOf(zone, Math.floor(from / HOUR) * HOUR - 2 * DAY, Math.ceil(to / HOUR) * HOUR + 2 * DAY);

/** The occurrences (instants) in [from, to), ascending, by brute force over every wall minute; `periods` from `periodsAround`. */
function oracle(spec: Spec, periods: Period[], from: number, to: number): number[] {
  const found: number[] = [];
  for (let day = Math.floor(from / DAY) - 1; day <= Math.floor(to / DAY) + 1; day++) {
    const date = DateTime.fromMillis(day * DAY, { zone: 'utc' });
    const weekday = (date.weekday % 7) + 1; // AWS: 1 = Sunday … 7 = Saturday
    if (date.year < 1970 || date.year > 2199 || !has(spec.months, date.month)) continue;
    if (!has(spec.days, date.day) || !has(spec.weekdays, weekday)) continue;
    for (let minute = 0; minute < 1440; minute++) {
      if (!has(spec.hours, Math.floor(minute / 60)) || !has(spec.minutes, minute % 60)) continue;
      const at = firstInstantOf(periods, day * DAY + minute * MINUTE);
      if (at !== null && at >= from && at < to) found.push(at);
    }
  }
  return found.sort((a, b) => a - b);
}

/** `YYYY-MM-DDTHH:mm:ss` shown in `zone` at `t`, by luxon. */
const luxonWall = (zone: string, t: number) => DateTime.fromMillis(t, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ss");

// ---------------------------------------------------------------------------------------------
// Offset changes to start from (the offset read weekly, each change bisected to the second)
// ---------------------------------------------------------------------------------------------

const changesByYear = new Map<string, number[]>();
/** Offset changes of the zone in one UTC year (a change within a week of another may be missed: these only pick instants). */
function changesIn(zone: string, year: number): number[] {
  const key = `${zone} ${year}`;
  let changes = changesByYear.get(key);
  if (!changes) {
    changes = [];
    const end = Date.UTC(year + 1, 0, 1);
    for (let t = Date.UTC(year, 0, 1), offset = offsetOf(zone, t); t < end; t += 7 * DAY) {
      const next = offsetOf(zone, Math.min(t + 7 * DAY, end));
      if (next !== offset) changes.push(changeBetween(zone, t, Math.min(t + 7 * DAY, end)));
      offset = next;
    }
    changesByYear.set(key, changes);
  }
  return changes;
}

const firstChanges = new Map<string, number | null>();
/** The zone's first offset change 1850–2100 (most often the end of local mean time, at an odd second), or null. */
function firstChangeOf(zone: string): number | null {
  if (!firstChanges.has(zone)) {
    let year = 1850;
    for (let offset = offsetOf(zone, Date.UTC(year, 0, 1)); year <= 2100; year++) {
      const next = offsetOf(zone, Date.UTC(year + 1, 0, 1));
      if (next !== offset) break;
      offset = next;
    }
    firstChanges.set(zone, year > 2100 ? null : changeBetween(zone, Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1)));
  }
  return firstChanges.get(zone) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

const int = (min: number, max: number) => fc.integer({ min, max });

/** A field's values and text: every value (`*`), `a/s`, or a list. */
function field(min: number, max: number, lists: fc.Arbitrary<number[]>): fc.Arbitrary<[number[] | null, string]> {
  return fc.oneof(
    fc.constant<[number[] | null, string]>([null, '*']),
    fc.tuple(int(min, max), int(1, Math.max(1, max - min))).map(([a, s]): [number[], string] => [
      Array.from({ length: Math.floor((max - a) / s) + 1 }, (_, i) => a + i * s),
      `${a}/${s}`,
    ]),
    lists.map((values): [number[], string] => {
      const sorted = [...new Set(values)].sort((a, b) => a - b);
      return [sorted, sorted.join(',')];
    }),
  );
}

const specArb: fc.Arbitrary<Spec> = fc
  .tuple(
    field(0, 59, fc.array(int(0, 59), { minLength: 1, maxLength: 4 })),
    // Hours near midnight, where most offset changes fall in local time.
    field(0, 23, fc.oneof(fc.array(int(0, 23), { minLength: 1, maxLength: 4 }), fc.constantFrom<number[]>([0], [0, 1], [23, 0, 1, 2, 3], [1, 2]))),
    fc.oneof(
      field(1, 31, fc.array(int(1, 31), { minLength: 1, maxLength: 3 })).map(([days, dom]) => ({ days, weekdays: null, dom, dow: '?' })),
      field(1, 7, fc.array(int(1, 7), { minLength: 1, maxLength: 3 }))
        .filter(([, dow]) => !dow.includes('/')) // SPEC §7.1: day-of-week takes no step
        .map(([weekdays, dow]) => ({ days: null, weekdays, dom: '?', dow })),
    ),
    fc.oneof({ weight: 4, arbitrary: fc.constant<[number[] | null, string]>([null, '*']) }, { weight: 1, arbitrary: field(1, 12, fc.array(int(1, 12), { minLength: 1, maxLength: 4 })) }),
  )
  .map(([[minutes, mi], [hours, h], { days, weekdays, dom, dow }, [months, mo]]) => ({ minutes, hours, days, weekdays, months, text: `${mi} ${h} ${dom} ${mo} ${dow} *` }));

const YEAR_1900 = Date.UTC(1900, 0, 1);
const YEAR_2101 = Date.UTC(2101, 0, 1);
const anyInstant = int(YEAR_1900 / SECOND, YEAR_2101 / SECOND - 1).map((s) => s * SECOND);
/** Seconds around a change: mostly the six hours before it and the hour after, else ±2 days. */
const aroundChange = fc.oneof({ weight: 3, arbitrary: int(-6 * 3600, 3600) }, { weight: 1, arbitrary: int(-2 * 86_400, 2 * 86_400) });

/** An instant in 1900–2100 for `zone`: near one of its changes in a random year, near its first change, or anywhere. */
const instantFor = (zone: string) =>
  fc.oneof(
    { weight: 2, arbitrary: anyInstant },
    {
      weight: 4,
      arbitrary: fc.tuple(int(1900, 2100), fc.nat(), aroundChange, anyInstant).map(([year, k, s, fallback]) => {
        const changes = changesIn(zone, year);
        return changes.length === 0 ? fallback : changes[k % changes.length] + s * SECOND;
      }),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(aroundChange, anyInstant).map(([s, fallback]) => {
        const first = firstChangeOf(zone);
        return first === null ? fallback : first + s * SECOND;
      }),
    },
  );

/** A zone (any of the 597, or one with off-grid changes after 1960) and an instant, 1900–2100. */
const zoneAndInstantArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ZONES).chain((zone) => fc.tuple(fc.constant(zone), instantFor(zone))) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(...OFF_GRID).chain(([zone, from, to]) =>
      fc.tuple(fc.constant(zone), fc.tuple(int(from, to), fc.nat(), aroundChange).map(([year, k, s]) => {
        const changes = changesIn(zone, year);
        return (changes.length === 0 ? Date.UTC(year, 6, 1) : changes[k % changes.length]) + s * SECOND;
      })),
    ),
  },
);

// ---------------------------------------------------------------------------------------------
// The check, for one expression, zone and instant
// ---------------------------------------------------------------------------------------------

/** Days of occurrences the oracle lists on each side of the instant. */
const WINDOW_DAYS = 4;
/** The most steps any call took, per operation (printed, to show the margin under the budgets). */
const mostSteps = new Map<string, number>();

/** Runs `call` (one public call of `operation`), then asserts the steps it took are within its budget. */
function withinBudget<T>(operation: string, call: () => T): T {
  const result = call();
  const { steps, budget } = lastCronWork();
  mostSteps.set(operation, Math.max(mostSteps.get(operation) ?? 0, steps));
  expect(steps, `${operation}: ${steps} steps, budget ${budget}`).toBeLessThanOrEqual(budget);
  return result;
}

function check(spec: Spec, zone: string, t: number): void {
  const periods = periodsAround(zone, t - WINDOW_DAYS * DAY, t + WINDOW_DAYS * DAY);
  const expected = oracle(spec, periods, t - WINDOW_DAYS * DAY, t + WINDOW_DAYS * DAY);
  const windowEnd = t + WINDOW_DAYS * DAY;
  // Next: the first three after t that the window holds.
  const next = withinBudget('nextOccurrences', () => nextOccurrences(spec.text, zone, t, 3)).map((d) => d.getTime());
  expect(next.filter((x) => x < windowEnd).map(iso)).toEqual(expected.filter((x) => x > t).slice(0, 3).map(iso));
  // Previous: the last one before t, when it lies in the window.
  const previous = withinBudget('previousOccurrence', () => previousOccurrence(spec.text, zone, t))?.getTime() ?? null;
  const before = expected.filter((x) => x < t);
  if (before.length > 0) expect(iso(previous)).toBe(iso(before[before.length - 1]));
  else if (previous !== null) expect(previous).toBeLessThan(t - WINDOW_DAYS * DAY);
  // Wall time ↔ instant, to the second: what the clock shows at t, and the first instant showing that.
  const shown = luxonWall(zone, t);
  expect(withinBudget('toLocalTime', () => toLocalTime(t, zone))).toBe(shown);
  expect(iso(withinBudget('resolveLocalTime', () => resolveLocalTime(shown, zone)))).toBe(iso(firstInstantOf(periods, Date.parse(`${shown}Z`))));
}

/** fc.assert with the seed, printed on failure with how to replay it. */
function assertProperty<Ts>(property: fc.IRawProperty<Ts>, numRuns: number, runSeed = seed, label = ''): void {
  try {
    fc.assert(property, { numRuns, seed: runSeed });
  } catch (e) {
    const cause = (e as Error).cause;
    throw new Error(`${label}replay with FC_SEED=${seed}\n${(e as Error).message}\n${cause instanceof Error ? cause.message : ''}`, { cause });
  }
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

describe('SPEC §7.1 the two schedules that used to hang return the oracle’s answers', () => {
  it('`0 0 * * ? *` in Africa/Monrovia after 1972-01-05T12:00Z (offset −0:44:30 until 1972-01-07 00:44:30 UTC)', () => {
    const next = withinBudget('nextOccurrences', () => nextOccurrences('0 0 * * ? *', 'Africa/Monrovia', new Date('1972-01-05T12:00:00Z'), 3));
    expect(next.map(iso)).toEqual([
      '1972-01-06T00:44:30.000Z', // 00:00 on the 6th, −0:44:30
      // 00:00 on the 7th does not exist: at 00:44:30 UTC clocks jumped from 23:59:59 to 00:44:30 (a gap, skipped)
      '1972-01-08T00:00:00.000Z', // 00:00 on the 8th, GMT
      '1972-01-09T00:00:00.000Z', // 00:00 on the 9th, GMT
    ]);
    const spec: Spec = { text: '0 0 * * ? *', minutes: [0], hours: [0], days: null, weekdays: null, months: null };
    const after = Date.parse('1972-01-05T12:00:00Z');
    expect(next.map(iso)).toEqual(oracle(spec, periodsAround('Africa/Monrovia', after + 1, after + 4 * DAY), after + 1, after + 4 * DAY).slice(0, 3).map(iso));
    // The change itself, to the second.
    expect(toLocalTime(new Date('1972-01-07T00:44:29Z'), 'Africa/Monrovia')).toBe('1972-01-06T23:59:59');
    expect(toLocalTime(new Date('1972-01-07T00:44:30Z'), 'Africa/Monrovia')).toBe('1972-01-07T00:44:30');
  });

  it('`9/15 0 * * ? *` in America/St_Johns after 2003-04-06T01:13Z (clocks went from 00:01 NST to 01:01 NDT that night)', () => {
    const next = withinBudget('nextOccurrences', () => nextOccurrences('9/15 0 * * ? *', 'America/St_Johns', new Date('2003-04-06T01:13:00Z'), 5));
    expect(next.map(iso)).toEqual([
      // 00:09–00:54 on 2003-04-06 do not exist (the gap 00:01–01:01)
      '2003-04-07T02:39:00.000Z', // 00:09 NDT (−2:30) on the 7th
      '2003-04-07T02:54:00.000Z', // 00:24 NDT
      '2003-04-07T03:09:00.000Z', // 00:39 NDT
      '2003-04-07T03:24:00.000Z', // 00:54 NDT
      '2003-04-08T02:39:00.000Z', // 00:09 NDT on the 8th
    ]);
    const spec: Spec = { text: '9/15 0 * * ? *', minutes: [9, 24, 39, 54], hours: [0], days: null, weekdays: null, months: null };
    const after = Date.parse('2003-04-06T01:13:00Z');
    expect(next.map(iso)).toEqual(oracle(spec, periodsAround('America/St_Johns', after + 1, after + 3 * DAY), after + 1, after + 3 * DAY).slice(0, 5).map(iso));
    // 00:54 NST on the 5th (−3:30): the latest before the gap.
    expect(iso(withinBudget('previousOccurrence', () => previousOccurrence('9/15 0 * * ? *', 'America/St_Johns', new Date('2003-04-07T02:39:00Z'))))).toBe('2003-04-05T04:24:00.000Z');
    expect(toLocalTime(new Date('2003-04-06T03:30:59Z'), 'America/St_Johns')).toBe('2003-04-06T00:00:59');
    expect(toLocalTime(new Date('2003-04-06T03:31:00Z'), 'America/St_Johns')).toBe('2003-04-06T01:01:00');
  });
});

describe('SPEC §7.1 every zone the tz database knows, 1900–2100, against the oracle, each call within its work budget', () => {
  it('has all 597 zone names, each accepted by Intl and luxon, and by the engine but for two offsets', () => {
    expect(NAMES.length).toBe(597);
    expect(NAMES.filter((zone) => !IANAZone.isValidZone(zone))).toEqual([]);
    expect(NAMES.filter((zone) => !ZONES.includes(zone))).toEqual(['GMT+0', 'GMT-0']);
  });

  it('each zone once: a random expression around its first offset change or another instant (one fast-check run per zone)', () => {
    ZONES.forEach((zone, i) => {
      assertProperty(fc.property(specArb, instantFor(zone), (spec, t) => check(spec, zone, t)), 1, seed + i, `${zone}: `);
    });
  }, 120_000);

  it('400 random expressions, zones and instants, most near offset changes, off-grid ones among them', () => {
    assertProperty(fc.property(specArb, zoneAndInstantArb, (spec, [zone, t]) => check(spec, zone, t)), 400);
    console.log(`most steps per call: ${[...mostSteps].map(([op, n]) => `${op} ${n}`).join(', ')}`);
  }, 120_000);

  it('minIntervalSeconds, cold, scanning to 2199: at most the oracle’s shortest gap near the instant, within its budget', () => {
    assertProperty(
      fc.property(specArb, zoneAndInstantArb, (spec, [zone, t]) => {
        const shortest = withinBudget('minIntervalSeconds', () => minIntervalSeconds(spec.text, zone, t));
        const near = oracle(spec, periodsAround(zone, t + 1, t + 3 * DAY), t + 1, t + 3 * DAY);
        const gaps = near.slice(1).map((x, i) => (x - near[i]) / SECOND);
        if (gaps.length > 0) expect(shortest).not.toBeNull();
        if (shortest !== null) expect(shortest).toBeLessThanOrEqual(Math.min(Infinity, ...gaps));
      }),
      10,
    );
  }, 120_000);
});

describe('SPEC §7.1 a gap is skipped whole, in either direction', () => {
  it('gapStart and gapEnd bound the gap, to the second', () => {
    const cases: [zone: string, wall: string, start: string, end: string][] = [
      ['America/New_York', '2026-03-08T02:30:00Z', '2026-03-08T02:00:00.000Z', '2026-03-08T03:00:00.000Z'],
      ['Australia/Lord_Howe', '2026-10-04T02:10:00Z', '2026-10-04T02:00:00.000Z', '2026-10-04T02:30:00.000Z'],
      ['America/St_Johns', '2003-04-06T00:30:00Z', '2003-04-06T00:01:00.000Z', '2003-04-06T01:01:00.000Z'],
      ['Africa/Monrovia', '1972-01-07T00:00:00Z', '1972-01-07T00:00:00.000Z', '1972-01-07T00:44:30.000Z'],
    ];
    for (const [zone, wall, start, end] of cases) {
      const rules = new ZoneRules(zone);
      expect([zone, iso(rules.gapStart(Date.parse(wall))), iso(rules.gapEnd(Date.parse(wall)))]).toEqual([zone, start, end]);
    }
  });

  it('previousOccurrence of an expression that only matches inside gaps walks each gap once', () => {
    // 02:xx on the last Sunday of March: a gap in Berlin every year since 1981; 02:59 CET on 1980-03-30 is the last that exists.
    const previous = () => previousOccurrence('* 2 ? 3 1L *', 'Europe/Berlin', Date.UTC(2199, 0, 1));
    expect(iso(withinBudget('previousOccurrence', previous))).toBe('1980-03-30T01:59:00.000Z');
    // Again, with the zone's offsets read: the steps are the walk's turns, a few per year rather than
    // one per minute of each gap (60 × 219 years).
    withinBudget('previousOccurrence', previous);
    expect(lastCronWork().steps).toBeLessThan(5 * 219);
  });
});

describe('the work budget: a call past it throws CronWorkBudgetExceeded and leaves the engine sound', () => {
  it('names the operation, expression, zone and instant; the next call works', () => {
    const after = new Date('2031-01-01T00:00:00Z');
    let error: unknown;
    try {
      // 02:30 on the second Sunday of March: inside the spring-forward gap every year, walked to 2199.
      withCronWorkBudget(100, () => nextOccurrence('30 2 ? 3 1#2 *', 'America/New_York', after));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CronWorkBudgetExceeded);
    const exceeded = error as CronWorkBudgetExceeded;
    expect([exceeded.name, exceeded.code, exceeded.operation, exceeded.expression, exceeded.timezone, iso(exceeded.at), exceeded.budget]).toEqual([
      'CronWorkBudgetExceeded', 'cron_work_budget_exceeded', 'nextOccurrences', '30 2 ? 3 1#2 *', 'America/New_York', '2031-01-01T00:00:00.000Z', 100,
    ]);
    expect(exceeded.message).toBe('time engine: nextOccurrences `30 2 ? 3 1#2 *` in America/New_York from 2031-01-01T00:00:00.000Z gave up after 100 steps (its work budget)');
    // The same call with its real budget walks to 2199 and finds nothing.
    expect(withinBudget('nextOccurrence', () => nextOccurrence('30 2 ? 3 1#2 *', 'America/New_York', after))).toBeNull();
    expect(lastCronWork().budget).toBe(WORK_BUDGETS.occurrence + WORK_BUDGETS.perOccurrence);
    expect(lastCronWork().steps).toBeGreaterThan(100);
  });

  it('minIntervalSeconds, previousOccurrence and wall-time resolution give up too, and the engine answers after', () => {
    expect(() => withCronWorkBudget(1_000, () => minIntervalSeconds('0/7 * * * ? *', 'Asia/Hebron', Date.UTC(1969, 0, 1)))).toThrow(CronWorkBudgetExceeded);
    expect(() => withCronWorkBudget(10, () => previousOccurrence('* 2 ? 3 1L *', 'Europe/Berlin', Date.UTC(2199, 0, 1)))).toThrow(
      'time engine: previousOccurrence `* 2 ? 3 1L *` in Europe/Berlin from 2199-01-01T00:00:00.000Z gave up after 10 steps (its work budget)',
    );
    // A zone not read yet: its first offset table takes more than 2 reads.
    expect(() => withCronWorkBudget(2, () => resolveLocalTime('1935-06-01T12:00:00', 'Asia/Ho_Chi_Minh'))).toThrow('time engine: resolveLocalTime in Asia/Ho_Chi_Minh gave up after 2 steps (its work budget)');
    expect(withinBudget('minIntervalSeconds', () => minIntervalSeconds('0 9 * * ? *', 'America/St_Johns', Date.UTC(2003, 0, 1)))).toBe(82_800); // 09:00 NST → 09:00 NDT, 23 h
    expect(iso(withinBudget('previousOccurrence', () => previousOccurrence('* 2 ? 3 1L *', 'Europe/Berlin', Date.UTC(2199, 0, 1))))).toBe('1980-03-30T01:59:00.000Z'); // 02:59 CET
  });
});
