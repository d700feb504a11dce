/**
 * How an instant is written inside SQL that this folder builds by hand (JSON batch documents, text
 * comparisons). Prisma's adapters decide the stored form; these helpers reproduce it exactly.
 */
import { civilFromDays, MS_PER_DAY } from '../../cron';
import type { Dialect } from '../dialect';

/**
 * SQLite: lib/db/sqlite-adapter.ts (as @prisma/adapter-better-sqlite3's default `timestampFormat:
 * 'iso8601'`) stores a DateTime as TEXT `2030-01-15T10:00:15.000+00:00` (`toISOString()` with `Z` →
 * `+00:00`). Every stored instant has that fixed width, so TEXT `=`, `<` and `<=` on these columns
 * are instant comparisons. Raw SQL here compares stored columns with values in this same form ONLY;
 * pinned by lib/db/__tests__/sql-instants.int.test.ts.
 * PostgreSQL: `timestamp(3)` holding UTC; an ISO string with `Z` cast to `timestamp` keeps the UTC
 * wall clock (PostgreSQL ignores a zone in input for `timestamp without time zone`).
 */
export function sqlInstant(dialect: Dialect, at: Date): string {
  const ms = at.getTime();
  // A batch writes its one instant (`now`) into every row: the last answer is kept per dialect.
  const last = lastWritten[dialect];
  if (last.ms === ms) return last.text;
  const text = isoText(ms, dialect === 'sqlite' ? '+00:00' : 'Z');
  lastWritten[dialect] = { ms, text };
  return text;
}

const lastWritten: Record<Dialect, { ms: number; text: string }> = { sqlite: { ms: NaN, text: '' }, postgresql: { ms: NaN, text: '' } };

/** Years 1970–9999: `toISOString` writes them in its fixed-width form (`YYYY-MM-DDTHH:mm:ss.sssZ`). */
const FIXED_WIDTH_END_MS = Date.UTC(10_000, 0, 1);

/**
 * `new Date(ms).toISOString()` with `suffix` in place of its `Z`, by arithmetic (the civil date of the
 * day number: the time engine's `civilFromDays`, lib/cron/civil.ts): ~0.35 µs against `toISOString`'s
 * ~1.1 µs here, for the several instants a fire writes (its occurrence, its next one, its run's
 * times). Instants outside years 1970–9999 take `toISOString` (pinned against it by lib/db/__tests__/instant.unit.test.ts).
 */
function isoText(ms: number, suffix: string): string {
  if (!(ms >= 0 && ms < FIXED_WIDTH_END_MS)) return new Date(ms).toISOString().slice(0, -1) + suffix;
  let rest = ms % MS_PER_DAY;
  const { year, month, day } = civilFromDays((ms - rest) / MS_PER_DAY);
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const sec = Math.floor(rest / 1000);
  rest -= sec * 1000;
  return `${year}-${TWO[month]}-${TWO[day]}T${TWO[h]}:${TWO[m]}:${TWO[sec]}.${THREE[rest]}${suffix}`;
}

/** `00`…`99` and `000`…`999`: the fixed-width fields of an ISO instant. */
const TWO = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/** `sqlInstant` for a nullable instant. */
export function sqlInstantOrNull(dialect: Dialect, at: Date | null): string | null {
  return at === null ? null : sqlInstant(dialect, at);
}
