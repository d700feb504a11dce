/**
 * The one reading of a backfill's `from` and `to` (SPEC §18.1, decisions 299 and 352), shared by the
 * product API, the CLI (through it) and the schedule page's Backfill… form: an ISO instant with its
 * offset, or a wall time in the schedule's timezone resolved by SPEC §7.1's rule.
 */
import { resolveWallTime, type WallTime } from '../../cron';
import { DomainError } from '../../errors';

/** A bound as a request sends it: an instant, or the text the domain reads (`resolveBackfillBound`). */
export type BackfillBound = Date | string;

const WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
const WALL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;
const MINUTE_MS = 60_000;
/** Longest DST jump looked through for its end (real ones are at most 2 h). */
const GAP_SEARCH_MINUTES = 24 * 60;

function wallOf(m: RegExpExecArray): Required<WallTime> {
  const [year, month, day, hour, minute] = m.slice(1, 6).map(Number);
  return { year, month, day, hour, minute, second: m[6] ? Number(m[6]) : 0 };
}

function refuse(path: 'from' | 'to', text: string, timezone: string, why: string): DomainError {
  return new DomainError(
    'invalid_backfill_range',
    `\`${path}\` ${JSON.stringify(text.slice(0, 40))} ${why}; send a wall time in the schedule's timezone (${timezone}) such as 2026-01-31T09:00, or an ISO instant such as 2026-01-31T08:00:00Z`,
    { path },
  );
}

/**
 * A backfill bound as an instant (UTC). `text`:
 * - an ISO 8601 instant with `Z` or an offset (`2026-03-29T01:00:00Z`): that instant;
 * - a wall time without offset (`YYYY-MM-DDTHH:mm[:ss]`) in `timezone` (the schedule's), by SPEC §7.1:
 *   a time that happens twice is its first instant; a time that does not exist (clocks jump forward
 *   over it) is skipped — the bound is the last instant before the jump, so every occurrence before
 *   the jump is at or before it and every one after the jump after it (decision 352).
 * Either must be a real calendar date and time (`2020-02-30` is refused, not rolled to March 1).
 * Throws `400 invalid_backfill_range` (path `from` / `to`) naming the value and both accepted forms.
 */
export function resolveBackfillBound(bound: BackfillBound, timezone: string, path: 'from' | 'to'): Date {
  if (bound instanceof Date) {
    if (Number.isNaN(bound.getTime())) throw refuse(path, String(bound), timezone, 'is not a date and time');
    return bound;
  }
  const text = bound.trim();
  const instant = WITH_OFFSET.exec(text);
  if (instant) {
    // The digits must name a real calendar time: Date.parse would roll 2020-02-30 over to March 1.
    const wall = wallOf(instant);
    try {
      resolveWallTime(wall, 'UTC');
    } catch {
      throw refuse(path, text, timezone, 'is not a real calendar date and time');
    }
    // The offset too: ±HH:MM within ±23:59 (ISO 8601), else Date reads it as no date at all.
    const at = new Date(text);
    if (Number.isNaN(at.getTime())) throw refuse(path, text, timezone, 'has an offset outside -23:59…+23:59');
    return at;
  }
  const local = WALL.exec(text);
  if (!local) throw refuse(path, text, timezone, 'is not a date and time');
  const wall = wallOf(local);
  let r;
  try {
    r = resolveWallTime(wall, timezone);
  } catch {
    throw refuse(path, text, timezone, 'is not a real calendar date and time');
  }
  if (r.kind === 'exact') return new Date(r.at);
  if (r.kind === 'overlap') return new Date(r.first);
  return new Date(jumpOf(wall, timezone) - 1);
}

/** The instant clocks jump at over the wall time `wall` of a gap: the first whole minute after it that exists. */
function jumpOf(wall: Required<WallTime>, timezone: string): number {
  const base = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  for (let k = 1; k <= GAP_SEARCH_MINUTES; k++) {
    const d = new Date(base + k * MINUTE_MS);
    const r = resolveWallTime({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: 0 }, timezone);
    if (r.kind === 'exact') return r.at;
    if (r.kind === 'overlap') return r.first;
  }
  throw new Error(`no end found for the DST gap at ${JSON.stringify(wall)} in ${timezone}`);
}
