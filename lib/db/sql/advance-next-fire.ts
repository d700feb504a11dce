/**
 * The advance (SPEC §8 step 3, "exactly once"): move each claimed schedule's next_fire_at past the
 * occurrence it held, or complete the schedule, in ONE statement for the whole batch.
 *
 * Ownership is checked in the WHERE, row by row (STYLE §1.3): a row changes only while its
 * next_fire_at still equals the occurrence this worker claimed (`seen`), and it is still active and
 * enabled. RETURNING names the rows that advanced; the caller fires ONLY those, so an occurrence
 * whose row did not advance is never fired by this transaction (`occurrence:lost-race`). Under the
 * claim's lock every row advances; the check is the fence should a claim ever be wrong.
 *
 * next_fire_at only ever moves forward here (`next` is computed strictly after `seen`, or is null),
 * which is what keeps an occurrence from firing twice even after its run record is swept
 * (lib/db/sql/delete-expired-runs.ts).
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { executeSql, queryRows } from './run-sql';
import { sqlInstant, sqlInstantOrNull } from './instant';

export interface Advance {
  scheduleId: string;
  /** The occurrence the worker claimed: the row's next_fire_at as claimed. */
  seen: Date;
  /** When the following occurrence fires (with its flexible-window offset), or null when none is left. */
  next: Date | null;
  /** The following occurrence itself (its nominal instant), or null with `next`. */
  nextScheduledFor: Date | null;
  /**
   * The row's state after the advance: `completed` when no occurrence is left and nothing more can
   * fire (SPEC §5.3); `active` otherwise — including when `next` is null but the fired attempt may
   * still be retried (the fire path completes the schedule once its last occurrence has ended).
   */
  state: 'active' | 'completed';
  /** Occurrences skipped beyond the catch-up window, added to skipped_occurrences (SPEC §8). */
  skipped: number;
}

/** The batch document and the ownership check both advance statements share, per dialect. */
const FROM_WHERE = {
  sqlite: `FROM json_each(?) AS a
    WHERE schedules.id = a.value ->> 'id'
      -- Exactly once: only while the row still holds the occurrence this worker claimed.
      AND schedules.next_fire_at = a.value ->> 'seen'
      AND schedules.state = 'active' AND schedules.enabled = 1
    RETURNING schedules.id`,
  postgresql: `FROM jsonb_to_recordset($1::jsonb) AS a(id text, seen timestamp(3), next_fire_at timestamp(3), next_scheduled_for timestamp(3), state text, skipped int)
    WHERE s.id = a.id
      -- Exactly once: only while the row still holds the occurrence this worker claimed.
      AND s.next_fire_at = a.seen
      AND s.state = 'active' AND s.enabled
    RETURNING s.id`,
} as const;

/**
 * Params: JSON array of {id, seen, next_fire_at, next_scheduled_for, state, skipped}. A fire is not a
 * change: `updated_at` and `version` stay (SPEC §15, docs/decisions.md 260). For an advance that
 * changes `state` or `skipped_occurrences` (a completion, a skip); `MOVE_NEXT_FIRE_SQL` for the rest.
 */
export const ADVANCE_NEXT_FIRE_SQL = {
  sqlite: `UPDATE schedules SET
      next_fire_at = a.value ->> 'next_fire_at',
      next_scheduled_for = a.value ->> 'next_scheduled_for',
      state = a.value ->> 'state',
      skipped_occurrences = skipped_occurrences + (a.value ->> 'skipped')
    ${FROM_WHERE.sqlite}`,
  postgresql: `UPDATE schedules AS s SET
      next_fire_at = a.next_fire_at,
      next_scheduled_for = a.next_scheduled_for,
      state = a.state,
      skipped_occurrences = s.skipped_occurrences + a.skipped
    ${FROM_WHERE.postgresql}`,
} as const;

/**
 * The common advance, same params and same WHERE as `ADVANCE_NEXT_FIRE_SQL`: the row stays `active`
 * (the WHERE requires it already is) and skips nothing, so only the two occurrence columns are
 * written. A column in the SET list is written even when unchanged: on SQLite `state` would rewrite
 * the row's `schedules(revision_id, state, enabled)` index entry and run the `metric_schedules_update`
 * trigger's WHEN for every fire (about half of a batch's COMMIT time).
 */
export const MOVE_NEXT_FIRE_SQL = {
  sqlite: `UPDATE schedules SET
      next_fire_at = a.value ->> 'next_fire_at',
      next_scheduled_for = a.value ->> 'next_scheduled_for'
    ${FROM_WHERE.sqlite}`,
  postgresql: `UPDATE schedules AS s SET
      next_fire_at = a.next_fire_at,
      next_scheduled_for = a.next_scheduled_for
    ${FROM_WHERE.postgresql}`,
} as const;

/**
 * Params: JSON array of {id, seen}. A claimed row that did not advance because it is not active and
 * enabled (a hand-edited row: disabled, or a state no save writes, yet holding a due next_fire_at)
 * would be claimed and refused at every tick, holding a place in every batch: its next_fire_at is
 * cleared, as every disabled or ended schedule's is. A row whose next_fire_at moved is left alone.
 */
export const RELEASE_UNFIREABLE_SQL = {
  sqlite: `UPDATE schedules SET next_fire_at = NULL, next_scheduled_for = NULL
    FROM json_each(?) AS a
    WHERE schedules.id = a.value ->> 'id' AND schedules.next_fire_at = a.value ->> 'seen'
      AND NOT (schedules.state = 'active' AND schedules.enabled = 1)`,
  postgresql: `UPDATE schedules AS s SET next_fire_at = NULL, next_scheduled_for = NULL
    FROM jsonb_to_recordset($1::jsonb) AS a(id text, seen timestamp(3))
    WHERE s.id = a.id AND s.next_fire_at = a.seen
      AND NOT (s.state = 'active' AND s.enabled)`,
} as const;

/**
 * Advance every schedule in `advances` inside the caller's transaction (after the claim).
 * Returns the ids that advanced; any other id lost its occurrence to someone else: fire nothing for it.
 */
export async function advanceNextFire(tx: Tx, advances: Advance[]): Promise<Set<string>> {
  if (advances.length === 0) return new Set();
  const dialect = dialectOfDb(tx);
  const doc = advances.map((a) => ({
    id: a.scheduleId,
    seen: sqlInstant(dialect, a.seen),
    next_fire_at: sqlInstantOrNull(dialect, a.next),
    // Stored only when an offset moved the fire off the occurrence (schema: null = next_fire_at itself).
    next_scheduled_for: a.next && a.nextScheduledFor && a.nextScheduledFor.getTime() !== a.next.getTime() ? sqlInstant(dialect, a.nextScheduledFor) : null,
    state: a.state,
    skipped: a.skipped,
  }));
  // Rows that stay active and skip nothing write only next_fire_at / next_scheduled_for (MOVE_NEXT_FIRE_SQL).
  const moves = doc.filter((d) => d.state === 'active' && d.skipped === 0);
  const changes = doc.filter((d) => d.state !== 'active' || d.skipped !== 0);
  // Exactly once: the caller fires only the ids these statements return (each row moved by one of them).
  const rows = [
    ...(moves.length ? await queryRows<{ id: string }>(tx, MOVE_NEXT_FIRE_SQL, JSON.stringify(moves)) : []),
    ...(changes.length ? await queryRows<{ id: string }>(tx, ADVANCE_NEXT_FIRE_SQL, JSON.stringify(changes)) : []),
  ];
  const advanced = new Set(rows.map((r) => r.id));
  // Rare (hand-edited rows only): release what can never fire, so it is not claimed again.
  const lost = doc.filter((d) => !advanced.has(d.id));
  if (lost.length) await executeSql(tx, RELEASE_UNFIREABLE_SQL, JSON.stringify(lost.map((d) => ({ id: d.id, seen: d.seen }))));
  return advanced;
}
