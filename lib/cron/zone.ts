/**
 * Timezones (SPEC §5.1, §7.1, §7.2): IANA name validation, a zone's UTC offset at an instant, and
 * wall time ↔ instant with the DST rule. Offsets come from the platform's tz database through Intl.
 *
 * Speed: each zone keeps, per 15-day span of UTC, the instants at which its offset changes, built
 * the first time an instant in the span is asked for: the offset is read every 3 days (shorter than
 * any offset period in the tz database, so no period can begin and end unseen between two reads) and
 * each change is bisected to the second (`bisect`), at whatever second it falls. A span costs 6 `Intl`
 * reads, plus ~8 per change (~21 for one off the quarter-hour grid), so even a cold query that touches
 * one span a year up to 2199 — an expression that only matches inside a DST gap, such as
 * `30 2 ? 3 1#2 *` in America/New_York — costs ~2,500 reads (whole-year tables took ~45,000). After
 * that, an offset lookup is a scan of about one entry. Every read counts against the calling
 * operation's work budget (lib/cron/work.ts).
 */
import {
  formatWallTime,
  MS_PER_DAY,
  MS_PER_SECOND,
  isRealWallTime,
  parseWallTime,
  wallMsOf,
  wallTimeOf,
} from './civil';
import { LocalTimeError, TimezoneError } from './errors';
import type { Instant, WallTime } from './types';
import { beginWork, endWork, overBudget, READ_STEPS, step, WORK_BUDGETS } from './work';

/** What a wall time is in a zone (STYLE §4.4). Instants are epoch ms. */
export type WallResolution =
  | { readonly kind: 'exact'; readonly at: Instant }
  /** The wall time does not exist (clocks jump forward over it). */
  | { readonly kind: 'gap' }
  /** The wall time happens twice (clocks fall back); `first` < `second`. */
  | { readonly kind: 'overlap'; readonly first: Instant; readonly second: Instant };

const IANA_NAME = /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Z][A-Za-z0-9_+-]*)*$/;
const OFFSET_NAME = /^(?:UTC|GMT|UT)[+-]/i;

/**
 * True only for an IANA time zone name the platform knows, such as `Europe/Berlin`, `Asia/Kolkata`
 * or `UTC` (SPEC §5.1). Offsets (`+02:00`, `UTC+2`, `GMT+01:00`), wrong letter case and the empty
 * string are refused, even where Intl would accept them.
 */
export function isValidTimezone(zone: string): boolean {
  // A zone with cached rules passed this check when they were made (`zoneRules`): every fire asks again.
  if (rulesByZone.has(zone)) return true;
  if (typeof zone !== 'string' || !IANA_NAME.test(zone) || OFFSET_NAME.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Throws `TimezoneError` (`400 invalid_timezone`, SPEC §5.2) unless `isValidTimezone(zone)`. */
export function assertTimezone(zone: string): void {
  if (!isValidTimezone(zone)) throw new TimezoneError(String(zone));
}

/**
 * Resolves a wall time in `timezone` (STYLE §4.4): `exact` with its instant, `gap` when clocks jump
 * over it, `overlap` with both instants when clocks fall back over it. Seconds count.
 * Example: America/New_York 2026-03-08 02:30 is a gap; 2026-11-01 01:30 is an overlap with
 * first = 2026-11-01T05:30:00Z (EDT) and second = 2026-11-01T06:30:00Z (EST).
 * @throws TimezoneError for a non-IANA zone; LocalTimeError (`malformed`) for an impossible wall time;
 *   CronWorkBudgetExceeded past `WORK_BUDGETS.wallTime` steps (never expected; see `nextOccurrence`).
 */
export function resolveWallTime(wall: WallTime, timezone: string): WallResolution {
  const rules = zoneRules(timezone);
  if (!isRealWallTime(wall)) {
    throw new LocalTimeError('malformed', JSON.stringify(wall), 'local time: not a real calendar date and time');
  }
  beginWork(WORK_BUDGETS.wallTime);
  try {
    return rules.resolve(wallMsOf(wall.year, wall.month, wall.day, wall.hour, wall.minute, wall.second));
  } catch (e) {
    throw overBudget(e, 'resolveWallTime', null, timezone, NaN);
  } finally {
    endWork();
  }
}

/**
 * SPEC §7.2: the instant of a one-time `invocation_time` (`YYYY-MM-DDTHH:mm:ss`, local wall time in
 * `timezone`, no offset, a real calendar date). An ambiguous wall time gives its first (earlier)
 * instant: 2026-11-01T01:30:00 America/New_York → 2026-11-01T05:30:00Z.
 * @throws LocalTimeError `malformed` (format or calendar) or `gap` (2026-03-08T02:30:00
 *   America/New_York does not exist); TimezoneError for a non-IANA zone; CronWorkBudgetExceeded as
 *   `resolveWallTime`.
 */
export function resolveLocalTime(invocationTime: string, timezone: string): Date {
  const rules = zoneRules(timezone);
  const wall = parseWallTime(invocationTime);
  if (!wall) {
    throw new LocalTimeError('malformed', String(invocationTime), `invocation time: \`${invocationTime}\` is not a real local time YYYY-MM-DDTHH:mm:ss (no offset)`);
  }
  let resolution: WallResolution;
  beginWork(WORK_BUDGETS.wallTime);
  try {
    resolution = rules.resolve(wallMsOf(wall.year, wall.month, wall.day, wall.hour, wall.minute, wall.second));
  } catch (e) {
    throw overBudget(e, 'resolveLocalTime', null, timezone, NaN);
  } finally {
    endWork();
  }
  if (resolution.kind === 'gap') {
    throw new LocalTimeError('gap', invocationTime, `invocation time: ${invocationTime} does not exist in ${timezone} (clocks jump forward over it)`);
  }
  return new Date(resolution.kind === 'exact' ? resolution.at : resolution.first);
}

/**
 * The wall time `YYYY-MM-DDTHH:mm:ss` (fractions of a second dropped) shown in `timezone` at `instant`,
 * for UIs. Both passes of a repeated hour read the same: 2026-11-01T05:30:00Z and 06:30:00Z are both
 * `2026-11-01T01:30:00` in America/New_York; no instant reads `2026-03-08T02:30:00` there (a gap).
 * @throws TimezoneError, RangeError for an invalid date; CronWorkBudgetExceeded as `resolveWallTime`.
 */
export function toLocalTime(instant: Date | Instant, timezone: string): string {
  return formatWallTime(wallTimeAt(instant, timezone));
}

/** The WallTime (with seconds) shown in `timezone` at `instant`; see `toLocalTime`. @throws as `toLocalTime`. */
export function wallTimeAt(instant: Date | Instant, timezone: string): Required<WallTime> {
  const at = toInstant(instant, 'instant');
  const rules = zoneRules(timezone);
  beginWork(WORK_BUDGETS.wallTime);
  try {
    return wallTimeOf(Math.floor(rules.wallAt(at) / MS_PER_SECOND) * MS_PER_SECOND);
  } catch (e) {
    throw overBudget(e, 'wallTimeAt', null, timezone, at);
  } finally {
    endWork();
  }
}

/** Epoch ms of a Date or Instant; RangeError when it is not a valid Date's time. */
export function toInstant(value: Date | Instant, name: string): Instant {
  const ms = value instanceof Date ? value.getTime() : value;
  if (typeof ms !== 'number' || !(Math.abs(ms) <= MAX_DATE_MS)) throw new RangeError(`${name} must be a valid Date or epoch milliseconds`);
  return ms;
}

/** Offset changes of one span of `SPAN` ms: `offsets[0]` from its start, `offsets[i + 1]` from `changes[i]`. */
interface SpanOffsets {
  readonly start: Instant;
  readonly end: Instant;
  readonly changes: readonly Instant[];
  readonly offsets: readonly number[];
}

// Shorter than the shortest offset period in the tz database, 1800–2200: 7 days in the data Intl carries
// (America/Noronha 2000, Asia/Gaza 2040), 95 hours even in the pre-1970 `backzone` data (Africa/Freetown
// 1939). So no period can start and end between two reads, and a 3-day interval holds at most one change.
const SAMPLE_STEP = 3 * MS_PER_DAY;
/** Length of one lazily built offset table: 5 samples. */
const SPAN = 5 * SAMPLE_STEP;
/** The largest |epoch ms| a Date holds. */
const MAX_DATE_MS = 8.64e15;
/** Bisection grids of `bisect`, coarse to fine. */
const GRIDS = [3600, 900, 1].map((s) => s * MS_PER_SECOND);

/** Offset tables and wall ↔ instant for one zone. Offsets are in ms (wall = instant + offset). */
export class ZoneRules {
  private readonly format: Intl.DateTimeFormat;
  /** Keyed by `floor(instant / SPAN)`, each built on first use. */
  private readonly spans = new Map<number, SpanOffsets>();
  private recent: SpanOffsets | undefined;
  /** `Intl` offset reads so far (tests pin the cold cost of a query with it). */
  reads = 0;
  private readonly isUtc: boolean;

  constructor(readonly name: string) {
    this.format = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'longOffset' });
    this.isUtc = this.format.resolvedOptions().timeZone === 'UTC';
  }

  /** UTC offset in ms at `instant`. */
  offsetAt(instant: Instant): number {
    if (this.isUtc) return 0;
    let span = this.recent;
    if (span === undefined || instant < span.start || instant >= span.end) span = this.recent = this.spanOf(instant);
    let offset = span.offsets[0];
    for (let i = 0; i < span.changes.length && instant >= span.changes[i]; i++) offset = span.offsets[i + 1];
    return offset;
  }

  /** Wall ms shown at `instant`. */
  wallAt(instant: Instant): number {
    return instant + this.offsetAt(instant);
  }

  /**
   * The first instant showing wall ms `wall`, or NaN when it falls in a gap (SPEC §7.1 DST rule:
   * a repeated wall time counts once, at its earlier instant; a skipped one not at all).
   */
  firstInstant(wall: number): Instant {
    // The offsets in force a day either side cover any change near this wall time.
    const early = this.offsetAt(wall - MS_PER_DAY);
    const late = this.offsetAt(wall + MS_PER_DAY);
    const larger = early > late ? early : late; // the larger offset gives the earlier instant
    if (this.offsetAt(wall - larger) === larger) return wall - larger;
    const smaller = early + late - larger;
    if (smaller !== larger && this.offsetAt(wall - smaller) === smaller) return wall - smaller;
    return NaN;
  }

  /**
   * The wall ms at which the gap holding wall ms `wall` ends: the first wall time after it that exists
   * (SPEC §7.1: a cron walk skips the rest of a gap at once instead of trying each of its minutes).
   * Only meaningful when `firstInstant(wall)` is NaN. Example: 2026-03-08 02:30 in America/New_York →
   * 03:00 that day.
   */
  gapEnd(wall: number): number {
    const late = this.offsetAt(wall + MS_PER_DAY);
    // The offset grows to `late` at an instant c with wall - late < c; the gap is [c + early, c + late).
    const end = this.changeAfter(wall - late) + late;
    // No change found (not a gap after all): the caller steps on by the minute instead.
    return Number.isFinite(end) ? end : wall;
  }

  /**
   * The wall ms at which the gap holding wall ms `wall` begins: its first missing wall time (SPEC §7.1:
   * a backward walk skips the rest of a gap at once). Only meaningful when `firstInstant(wall)` is NaN.
   * Example: 2026-03-08 02:30 in America/New_York → 02:00 that day.
   */
  gapStart(wall: number): number {
    const change = this.changeAfter(wall - this.offsetAt(wall + MS_PER_DAY));
    // The gap is [c + early, c + late), `early` being the offset just before the change c.
    return Number.isFinite(change) ? change + this.offsetAt(change - 1) : wall;
  }

  /** The first offset change strictly after `instant` (within the next two spans), or +Infinity. */
  private changeAfter(instant: Instant): Instant {
    for (let span = this.spanOf(instant), k = 0; k < 2; k++, span = this.spanOf(span.end)) {
      for (const change of span.changes) if (change > instant) return change;
    }
    return Infinity;
  }

  /** Every instant showing wall ms `wall`. */
  resolve(wall: number): WallResolution {
    const first = this.firstInstant(wall);
    if (Number.isNaN(first)) return { kind: 'gap' };
    const smaller = Math.min(this.offsetAt(wall - MS_PER_DAY), this.offsetAt(wall + MS_PER_DAY));
    const second = wall - smaller; // the later candidate
    return second !== first && this.offsetAt(second) === smaller ? { kind: 'overlap', first, second } : { kind: 'exact', at: first };
  }

  private spanOf(instant: Instant): SpanOffsets {
    const key = Math.floor(instant / SPAN);
    let table = this.spans.get(key);
    if (!table) {
      table = this.buildSpan(key * SPAN, (key + 1) * SPAN);
      this.spans.set(key, table);
    }
    return table;
  }

  private buildSpan(start: Instant, end: Instant): SpanOffsets {
    const changes: Instant[] = [];
    const offsets = [this.readOffset(start)];
    for (let t = start, offset = offsets[0]; t < end; ) {
      const next = Math.min(t + SAMPLE_STEP, end);
      const nextOffset = this.readOffset(next);
      // A change at exactly `end` is recorded here too; lookups of this span never reach it.
      if (nextOffset !== offset) this.bisect(t, offset, next, nextOffset, changes, offsets);
      [t, offset] = [next, nextOffset];
    }
    return { start, end, changes, offsets };
  }

  /**
   * Records every change in (lo, hi], to the second; the offset is `loOffset` at lo and `hiOffset` at hi.
   * Each change is narrowed on an hour grid, then on a quarter-hour grid, then to the second, each finer
   * pass only when the change is not on the coarser grid (most changes fall on whole hours or quarter
   * hours of UTC): ~8 reads for such a change, at most ~21 for one at any other second (St John's
   * moved its clocks at 00:01 local until 2011, 03:31 UTC; Monrovia's offset was −0:44:30 until 1972).
   * Every pass is a bisection over grid indexes, so it ends whatever the grid and the bounds.
   */
  private bisect(lo: Instant, loOffset: number, hi: Instant, hiOffset: number, changes: Instant[], offsets: number[]): void {
    while (loOffset !== hiOffset) {
      // The first change after lo lies in (a, b]: the offset is loOffset at a, bOffset ≠ loOffset at b.
      let [a, b, bOffset] = [lo, hi, hiOffset];
      for (let g = 0; g < GRIDS.length && b - a > MS_PER_SECOND; g++) {
        if (g > 0) {
          const before = this.readOffset(b - MS_PER_SECOND);
          if (before === loOffset) {
            a = b - MS_PER_SECOND; // the change is at b, on the coarser grid
            break;
          }
          [b, bOffset] = [b - MS_PER_SECOND, before];
        }
        [a, b, bOffset] = this.narrow(a, loOffset, b, bOffset, GRIDS[g]);
      }
      // b - a is one second, so the change is b: offsets and changes are whole seconds.
      changes.push(b);
      offsets.push(bOffset);
      [lo, loOffset] = [b, bOffset];
    }
  }

  /**
   * Bisection over the points a + k·step (k = 0…n, the last one moved to b): the two neighbours at which
   * the offset turns from `aOffset` (read at a) to something else (`bOffset`, read at b), as
   * [point k, point k + 1, offset at point k + 1]. ⌈log₂ n⌉ reads.
   */
  private narrow(a: Instant, aOffset: number, b: Instant, bOffset: number, step: number): [Instant, Instant, number] {
    const n = Math.ceil((b - a) / step);
    let [lo, hi, hiOffset] = [0, n, bOffset];
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      const offset = this.readOffset(a + mid * step);
      if (offset === aOffset) lo = mid;
      else [hi, hiOffset] = [mid, offset];
    }
    return [a + lo * step, hi === n ? b : a + hi * step, hiOffset];
  }

  /** Offset in ms from Intl's `GMT±hh:mm[:ss]` (plain `GMT` when zero). */
  private readOffset(instant: Instant): number {
    step(READ_STEPS);
    this.reads++;
    // A table may start or end past the Date range (±8.64e15 ms): its edges read the offset at the limit.
    const text = this.format.format(Math.min(Math.max(instant, -MAX_DATE_MS), MAX_DATE_MS));
    const at = text.lastIndexOf('GMT') + 3;
    if (at === 2 || at >= text.length) return 0;
    const sign = text[at] === '+' ? 1 : -1;
    const [hours, minutes, seconds = 0] = text.slice(at + 1).split(':').map(Number);
    return sign * ((hours * 60 + minutes) * 60 + seconds) * MS_PER_SECOND;
  }
}

const rulesByZone = new Map<string, ZoneRules>();

/** The cached rules of a valid zone. @throws TimezoneError */
export function zoneRules(timezone: string): ZoneRules {
  let rules = rulesByZone.get(timezone);
  if (!rules) {
    assertTimezone(timezone);
    rules = new ZoneRules(timezone);
    rulesByZone.set(timezone, rules);
  }
  return rules;
}
