/**
 * Step 3 of a fire, ADVANCE (SPEC §8 "exactly once"): move every planned schedule's next_fire_at
 * past the occurrence it held (or complete it) in ONE statement (lib/db/sql/advance-next-fire.ts),
 * only while it still equals the claimed one. Only the rows this statement moved are fired.
 */
import { advanceNextFire, type Advance, type Tx } from '../db';
import type { Plan } from './plan';

export interface Advanced {
  /** The schedules whose next_fire_at this transaction moved: fire these, and only these. */
  advanced: Set<string>;
  /** Those the advance itself completed (nothing left to fire, SPEC §5.3). */
  completed: Set<string>;
}

/** Advance every plan but the errors (a fire is not an edit: `updated_at` stays, decision 260). */
export async function advance(tx: Tx, plans: Plan[]): Promise<Advanced> {
  const advances: Advance[] = plans.flatMap((p) =>
    p.kind === 'error'
      ? []
      : [{ scheduleId: p.row.id, seen: p.row.nextFireAt, next: p.next?.fireAt ?? null, nextScheduledFor: p.next?.scheduledFor ?? null, skipped: p.kind === 'skip' ? p.skipped : 0, state: p.state }],
  );
  // Exactly once (SPEC §8): fire ONLY the rows whose next_fire_at this statement moved off the
  // occurrence; it must come before the attempts, in this same transaction.
  const advanced = await advanceNextFire(tx, advances);
  const completed = new Set(advances.filter((a) => a.state === 'completed' && advanced.has(a.scheduleId)).map((a) => a.scheduleId));
  return { advanced, completed };
}
