/**
 * How an instant is written inside SQL that this folder builds by hand (JSON batch documents, text
 * comparisons). Prisma's adapters decide the stored form; these helpers reproduce it exactly.
 */
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
  const iso = at.toISOString();
  const text = dialect === 'sqlite' ? iso.replace('Z', '+00:00') : iso;
  lastWritten[dialect] = { ms, text };
  return text;
}

const lastWritten: Record<Dialect, { ms: number; text: string }> = { sqlite: { ms: NaN, text: '' }, postgresql: { ms: NaN, text: '' } };

/** `sqlInstant` for a nullable instant. */
export function sqlInstantOrNull(dialect: Dialect, at: Date | null): string | null {
  return at === null ? null : sqlInstant(dialect, at);
}
