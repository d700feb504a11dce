/**
 * Run now, dead-letter replay and dismissal with their activity entries (SPEC §15). Each verb
 * (run-schedule.ts, dead-letters.ts) commits its change in its own transaction; the entry is written
 * in a short transaction right after it, by the same caller. A crash between the two leaves the
 * change without its entry, never an entry without its change.
 * When those verbs call `recordActivity(tx, …)` themselves (in their transaction), these wrappers go.
 */
import { inTransaction, type Tx } from '../db';
import { isIdShape, normalizeRef } from '../ids';
import { recordActivity, type ActivityInput } from './activity';
import type { DeadLetter, Run } from './contract';
import { dismissDeadLetter as dismissLetter, replayDeadLetter as replayLetter } from './dead-letters';
import { runSchedule as runNow, type RunScheduleOptions } from './run-schedule';

type Recorded = Omit<ActivityInput, 'schedule' | 'revisionId' | 'by' | 'at'>;

async function recordFor(opts: { db: RunScheduleOptions['db']; actor: RunScheduleOptions['actor']; revision: { id: string }; now: Date }, scheduleId: string, entry: Recorded, label?: string): Promise<void> {
  await inTransaction(opts.db, async (tx: Tx) => {
    const schedule = (await tx.schedule.findUnique({ where: { id: scheduleId }, select: { id: true, name: true, alias: true } })) ?? { id: scheduleId, name: label ?? null, alias: null };
    await recordActivity(tx, { ...entry, revisionId: opts.revision.id, schedule, by: opts.actor, at: opts.now });
  });
}

/** `run_schedule` (run-schedule.ts) and its `run_now` entry naming the manual run. Same errors. */
export async function runSchedule(opts: RunScheduleOptions): Promise<Run> {
  const run = await runNow(opts);
  await recordFor(opts, run.schedule_id, { action: 'run_now', executionId: run.id });
  return run;
}

type ReplayOptions = Parameters<typeof replayLetter>[0];

/** `replay_dead_letter` (dead-letters.ts) and its `replay_dead_letter` entry. Same errors. */
export async function replayDeadLetter(opts: ReplayOptions): Promise<{ execution: Run; dead_letter: DeadLetter }> {
  const out = await replayLetter(opts);
  await recordFor(opts, out.dead_letter.schedule_id, { action: 'replay_dead_letter', executionId: out.execution.id, deadLetterId: out.dead_letter.id }, out.dead_letter.schedule_label);
  return out;
}

/** `dismiss_dead_letter` (dead-letters.ts) and its `dismiss_dead_letter` entry, at `now` (UTC). Same errors. */
export async function dismissDeadLetter(opts: Parameters<typeof dismissLetter>[0] & { now: Date }): Promise<Record<string, never>> {
  const id = normalizeRef(opts.deadLetterRef);
  // Read before: the dismissal deletes the row that names the schedule.
  const letter = isIdShape(id) ? await opts.db.deadLetter.findFirst({ where: { id, revisionId: opts.revision.id }, select: { id: true, scheduleId: true, scheduleLabel: true } }) : null;
  const out = await dismissLetter(opts);
  if (letter) await recordFor(opts, letter.scheduleId, { action: 'dismiss_dead_letter', deadLetterId: letter.id }, letter.scheduleLabel);
  return out;
}
