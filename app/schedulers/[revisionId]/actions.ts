'use server';
/**
 * Server actions of a scheduler's pages (STYLE §2.4): each resolves the actor and the scheduler,
 * calls one domain function, revalidates the pages that show the result, and answers with the
 * server-action contract `{ok: true, …} | {ok: false, error: {code, message, path?}}`.
 * No rules and no queries here: the domain decides (SPEC §5.2), the form only maps `error.path`.
 */
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import type { ActionResult, SaveMeta, SaveResult } from '@/components/action-result';
import {
  backfillSchedule,
  cancelBackfill,
  createSchedule,
  deleteSchedule,
  describeScheduleDeletion,
  dismissDeadLetter,
  dryRunBackfill,
  dryRunResumeWithCatchUp,
  getSchedule,
  replayDeadLetter,
  resumeWithCatchUp,
  runSchedule,
  setAllEnabled,
  updateSchedule,
  type Backfill,
  type BackfillDryRun,
  type ResumeDryRun,
  type RunStatus,
} from '@/lib/schedules';
import { schedulerAction } from '@/app/lib/server';
import type { CatalogAnswer } from '@/components/catalog/catalog-answer';
import type { BackfillRange } from '@/components/backfill-panel';
import { deleteBlob } from '@/lib/workflows';

const gridPath = (revisionId: string) => `/schedulers/${revisionId}`;
const schedulePath = (revisionId: string, scheduleId: string) => `/schedulers/${revisionId}/schedules/${scheduleId}`;
const deadLettersPath = (revisionId: string) => `/schedulers/${revisionId}/dead-letters`;

/** `create_schedule` from the New Schedule form. `input` is the request body of SPEC §5.1; `meta.clientToken` the form's token (SPEC §15). */
export async function createScheduleAction(revisionId: string, input: unknown, meta: SaveMeta = {}): Promise<ActionResult<{ id: string }>> {
  return schedulerAction(revisionId, async (ctx) => {
    const schedule = await createSchedule({ ...ctx, input, clientToken: meta.clientToken });
    revalidatePath(gridPath(revisionId));
    return { id: schedule.id };
  });
}

/**
 * `update_schedule` from the edit form or a row action: only the fields sent change. With
 * `meta.expectedVersion` (the edit form), a stale version answers `version_conflict` with the schedule
 * as it is saved now (`current`), and nothing is written (SPEC §15).
 */
export async function updateScheduleAction(revisionId: string, scheduleId: string, input: unknown, meta: SaveMeta = {}): Promise<SaveResult> {
  const r = await schedulerAction(revisionId, async (ctx) => {
    const schedule = await updateSchedule({ ...ctx, scheduleRef: scheduleId, input, expectedVersion: meta.expectedVersion });
    revalidatePath(gridPath(revisionId));
    revalidatePath(schedulePath(revisionId, schedule.id));
    return { id: schedule.id };
  });
  if (r.ok || r.error.code !== 'version_conflict') return r;
  const current = await schedulerAction(revisionId, async (ctx) => ({ schedule: await getSchedule({ ...ctx, scheduleRef: scheduleId }) }));
  return current.ok ? { ok: false, error: r.error, current: current.schedule } : r;
}

/** Enable or disable one schedule (`update_schedule` with `{enabled}` only). */
export async function setEnabledAction(revisionId: string, scheduleId: string, enabled: boolean): Promise<ActionResult<{ id: string }>> {
  return updateScheduleAction(revisionId, scheduleId, { enabled });
}

/** `delete_schedule`: its run history goes with it. */
export async function deleteScheduleAction(revisionId: string, scheduleId: string): Promise<ActionResult> {
  return schedulerAction(revisionId, async (ctx) => {
    await deleteSchedule({ ...ctx, scheduleRef: scheduleId });
    revalidatePath(gridPath(revisionId));
    return {};
  });
}

/** `run_schedule`: fire now (`trigger: "manual"`); answers with the run's status. */
export async function runScheduleAction(revisionId: string, scheduleId: string): Promise<ActionResult<{ runId: string; status: RunStatus }>> {
  return schedulerAction(revisionId, async (ctx) => {
    const run = await runSchedule({ ...ctx, scheduleRef: scheduleId });
    revalidatePath(gridPath(revisionId));
    revalidatePath(schedulePath(revisionId, run.schedule_id));
    return { runId: run.id, status: run.status };
  });
}


/** `backfill_schedule` (SPEC §18.1), with `dryRun`: the count and the first instants, nothing written. */
export async function backfillScheduleAction(revisionId: string, scheduleId: string, req: BackfillRange, dryRun: boolean): Promise<ActionResult<{ dryRun?: BackfillDryRun; backfill?: Backfill }>> {
  return schedulerAction(revisionId, async (ctx) => {
    const opts = {
      ...ctx,
      scheduleRef: scheduleId,
      // Wall times in the schedule's zone, read by the domain as the API reads them (decision 352).
      from: req.from,
      to: req.to,
      reprocess: req.reprocess,
      maxConcurrency: req.maxConcurrency,
      order: req.order,
    };
    if (dryRun) return { dryRun: await dryRunBackfill(opts) };
    const backfill = await backfillSchedule(opts);
    revalidatePath(schedulePath(revisionId, scheduleId));
    return { backfill };
  });
}

/** `cancel_backfill` (SPEC §18.1). */
export async function cancelBackfillAction(revisionId: string, scheduleId: string, backfillId: string): Promise<ActionResult<{ backfill: Backfill }>> {
  return schedulerAction(revisionId, async (ctx) => {
    const backfill = await cancelBackfill({ ...ctx, backfillRef: backfillId });
    revalidatePath(schedulePath(revisionId, scheduleId));
    return { backfill };
  });
}

/**
 * **Resume with catch-up** (SPEC §18.2): enable a disabled schedule (it continues from now) and start a
 * backfill of the occurrences it missed while paused (`missing`, from when it was paused to now), all
 * or nothing (`resumeWithCatchUp`); `backfill` is null when nothing was missed (none is stored, decision
 * 419). `dryRun`: what it would backfill, nothing written.
 * `expectedVersion`: the version the page showed (SPEC §15).
 */
export async function resumeWithCatchUpAction(
  revisionId: string,
  scheduleId: string,
  expectedVersion: number,
  dryRun: boolean,
): Promise<ActionResult<{ dryRun?: ResumeDryRun; backfill?: Backfill | null }>> {
  return schedulerAction(revisionId, async (ctx) => {
    const opts = { ...ctx, scheduleRef: scheduleId, expectedVersion };
    if (dryRun) return { dryRun: await dryRunResumeWithCatchUp(opts) };
    const { backfill } = await resumeWithCatchUp(opts);
    revalidatePath(gridPath(revisionId));
    revalidatePath(schedulePath(revisionId, scheduleId));
    return { backfill };
  });
}

/** `set_all_enabled`: pause all / resume all of the scheduler's active schedules. */
export async function setAllEnabledAction(revisionId: string, enabled: boolean): Promise<ActionResult<{ updated: number }>> {
  return schedulerAction(revisionId, async (ctx) => {
    const { updated } = await setAllEnabled({ ...ctx, enabled });
    revalidatePath(gridPath(revisionId));
    return { updated };
  });
}

/** `replay_dead_letter`: fire the dead letter's occurrence again now, as a manual run linked to it (SPEC §12.3). */
export async function replayDeadLetterAction(revisionId: string, deadLetterId: string): Promise<ActionResult<{ runId: string; status: RunStatus; scheduleId: string }>> {
  return schedulerAction(revisionId, async (ctx) => {
    const { execution } = await replayDeadLetter({ ...ctx, deadLetterRef: deadLetterId });
    revalidatePath(deadLettersPath(revisionId));
    revalidatePath(schedulePath(revisionId, execution.schedule_id));
    return { runId: execution.id, status: execution.status, scheduleId: execution.schedule_id };
  });
}

/** `dismiss_dead_letter`: remove it from the scheduler's list (SPEC §12.3). */
export async function dismissDeadLetterAction(revisionId: string, deadLetterId: string): Promise<ActionResult> {
  return schedulerAction(revisionId, async (ctx) => {
    await dismissDeadLetter({ ...ctx, deadLetterRef: deadLetterId });
    revalidatePath(deadLettersPath(revisionId));
    revalidatePath(gridPath(revisionId));
    return {};
  });
}

/** What `delete_schedule` would take with it (its runs), for the delete confirmation. Read-only. */
export async function describeScheduleDeletionAction(revisionId: string, scheduleId: string): Promise<ActionResult<{ runs: number; executions: number }>> {
  return schedulerAction(revisionId, async (ctx) => describeScheduleDeletion({ ...ctx, scheduleRef: scheduleId }));
}

/** Delete the scheduler blob with its schedules and their runs (needs admin on it), then list the schedulers. */
export async function deleteSchedulerAction(revisionId: string, _prev: CatalogAnswer | null, _form: FormData): Promise<CatalogAnswer> {
  const answer = await schedulerAction(revisionId, async ({ db, actor, revision }) => {
    await deleteBlob(db, { actor, blobId: revision.blobId });
    revalidatePath('/schedulers');
    return {};
  });
  if (answer.ok) redirect('/schedulers');
  return answer;
}
