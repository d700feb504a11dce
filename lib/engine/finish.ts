/**
 * The end of a schedule's life (SPEC §5.3, §12.5): once nothing is left to fire — no next occurrence,
 * no pending retry — an active, enabled schedule completes, and `action_after_completion: "delete"`
 * then deletes it as `delete_schedule` would (its runs and pending attempts go with it; its dead
 * letters stay). Runs inside the caller's transaction: the fire path's and an update's.
 */
import { completeFinished, type Tx } from '../db';

/**
 * Complete those of `scheduleIds` that have nothing left to fire, and delete the completed ones whose
 * `action_after_completion` is `delete`. Returns the ids completed and the ids deleted (a subset).
 */
export async function finishSchedules(tx: Tx, scheduleIds: string[]): Promise<{ completed: string[]; deleted: string[] }> {
  const completed = await completeFinished(tx, scheduleIds);
  return { completed: completed.map((c) => c.id), deleted: await deleteCompleted(tx, completed) };
}

/** Delete the schedules of `completed` whose `action_after_completion` is `delete` (SPEC §12.5). */
export async function deleteCompleted(tx: Tx, completed: { id: string; actionAfterCompletion: string }[]): Promise<string[]> {
  const deleted = completed.filter((c) => c.actionAfterCompletion === 'delete').map((c) => c.id);
  if (deleted.length) await tx.schedule.deleteMany({ where: { id: { in: deleted } } });
  return deleted;
}
