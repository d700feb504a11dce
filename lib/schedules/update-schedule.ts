import type { Actor } from '../auth';
import type { Limits } from '../config';
import { inTransaction, type Db, type Tx } from '../db';
import { DomainError, parseOrRefuse } from '../errors';
import { requireSchedulerRole } from './access';
import { ScheduleUpdateInput, type Schedule, type ScheduleDryRunAnswer } from './contract';
import { getScheduleRow } from './find-schedule';
import { checkSchedule, parseScheduleInput } from './save-schedule';
import { toSchedule } from './serialize';

export interface UpdateScheduleOptions {
  db: Db;
  actor: Actor;
  revision: { id: string; blobId: string };
  /** Id or alias. */
  scheduleRef: string;
  /** Any subset of the writable fields (unparsed). Only fields sent change. */
  input: unknown;
  limits: Limits;
  now: Date;
}

/**
 * `update_schedule` (SPEC §3.1): merge the fields sent onto the stored schedule, validate the result
 * as a whole, recompute `next_fire_at`. Switching `repeat` needs the matching field in the same
 * request; the other field is dropped. The target is checked again only when `invocation_target` is sent.
 * Throws `404 schedule_not_found`, `409 schedule_completed`, and every code of SPEC §5.2.
 */
export async function updateSchedule(opts: UpdateScheduleOptions): Promise<Schedule> {
  const patch = parsePatch(opts.input);
  return inTransaction(opts.db, async (tx) => {
    const { row, checked } = await checkUpdate(tx, opts, patch, false);
    const { fields } = checked;
    // Re-enabling fires from the next occurrence after now (SPEC §5.1: no catch-up); checkSchedule
    // computes next_fire_at from `now`, so a disabled period's occurrences are never fired.
    const updated = await tx.schedule.update({
      where: { id: row.id },
      data: { ...fields, invocationTarget: fields.invocationTarget, updatedAt: opts.now },
    });
    return toSchedule(updated);
  });
}

/**
 * `update_schedule` with `dry_run: true` (docs/decisions.md): every check `updateSchedule` makes, with
 * the same errors, and no write. Answers the schedule as the update would store it (`updated_at` is the
 * request's instant). A new target's session alias that does not exist yet in a draft revision the saver
 * can write is named in `missing_session` instead of refused.
 */
export async function dryRunUpdateSchedule(opts: UpdateScheduleOptions): Promise<ScheduleDryRunAnswer> {
  const patch = parsePatch(opts.input);
  return inTransaction(opts.db, async (tx) => {
    const { row, checked } = await checkUpdate(tx, opts, patch, true);
    const { missingSession } = checked;
    return {
      dry_run: true,
      schedule: toSchedule({ ...row, ...checked.fields, updatedAt: opts.now }),
      ...(missingSession ? { missing_session: { revision_id: missingSession.revisionId, alias: missingSession.alias } } : {}),
    };
  });
}

function parsePatch(input: unknown): ScheduleUpdateInput {
  return parseOrRefuse(ScheduleUpdateInput, input);
}

/** The checks of an update, in order: write access, the schedule, its state, the merged fields, the alias, `checkSchedule`. */
async function checkUpdate(tx: Tx, opts: UpdateScheduleOptions, patch: ScheduleUpdateInput, allowMissingSession: boolean) {
  const { actor, revision, limits, now } = opts;
  await requireSchedulerRole(tx, actor, revision.blobId, 'write');
  const row = await getScheduleRow(tx, revision.id, opts.scheduleRef);
  if (row.state === 'completed') {
    throw new DomainError('schedule_completed', 'this schedule is completed and read-only; it can be read and deleted');
  }
  const current = toSchedule(row);
  if (patch.repeat !== undefined && patch.repeat !== current.repeat) {
    const needed = patch.repeat === 'one_time' ? 'invocation_time' : 'cron_expression';
    if (patch[needed] === undefined) {
      throw new DomainError('invalid_request_body', `switching repeat to "${patch.repeat}" needs ${needed} in the same request`, { path: needed });
    }
  }
  const repeat = patch.repeat ?? current.repeat;
  const merged: Record<string, unknown> = {
    alias: current.alias,
    description: current.description,
    repeat,
    timezone: current.timezone,
    start_date: current.start_date,
    end_date: current.end_date,
    enabled: current.enabled,
    invocation_target: current.invocation_target,
    ...(repeat === current.repeat
      ? current.repeat === 'one_time'
        ? { invocation_time: current.invocation_time }
        : { cron_expression: current.cron_expression }
      : {}),
    ...patch,
  };
  for (const k of Object.keys(merged)) if (merged[k] === undefined || merged[k] === null) delete merged[k];
  const input = parseScheduleInput(merged);
  if (input.alias != null && input.alias !== current.alias) {
    const clash = await tx.schedule.findFirst({ where: { revisionId: revision.id, alias: input.alias, NOT: { id: row.id } }, select: { id: true } });
    if (clash) throw new DomainError('alias_taken', `alias "${input.alias}" is taken by another schedule in this scheduler`, { path: 'alias' });
  }
  const checked = await checkSchedule({ db: tx, actor, input, limits, now, checkTarget: patch.invocation_target !== undefined, allowMissingSession });
  return { row, checked };
}
