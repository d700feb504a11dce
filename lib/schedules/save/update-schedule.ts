import { raiseMissedAtSave } from '../alerts/raise';
import { cancelPendingAttempts, inTransaction, lockSchedule, type CancelPendingOptions, type Db, type Prisma, type Tx } from '../../db';
import { DomainError, parseOrRefuse } from '../../errors';
import { requireSchedulerRole } from '../access';
import { CADENCE_FIELD, SCHEDULE_INFO_FIELDS, ScheduleUpdateInput, type Schedule, type ScheduleDryRunAnswer } from '../contract';
import { aliasTaken, findTokenHolder, getScheduleRow } from '../read/find-schedule';
import { countDueOccurrences, finishSchedules } from '../../engine';
import { checkSchedule, checkTargetBeforeSave, parseScheduleInput, type CheckedSchedule, type DestinationOptions, type SaveRequest, type StoredSchedule } from './save-schedule';
import { toSchedule, type ScheduleRow } from '../read/serialize';
import { recordActivity } from '../activity';
import { canonicalJson } from './canonical-json';
import { targetContractOf } from '../../targets';

export interface UpdateScheduleOptions extends DestinationOptions, SaveRequest {
  db: Db;
  revision: { id: string; blobId: string };
  /** Id or alias. */
  scheduleRef: string;
  /** Any subset of the writable fields (unparsed). Only fields sent change. */
  input: unknown;
  /**
   * Replace what a facade stores beside the product's fields (its facade data, SPEC §14): the facade's
   * own saves. Without it, an update that changes fields lists them in the data's `changed`.
   */
  facadeData?: object;
  /** SPEC §15: the `version` the caller last read; another is `409 version_conflict`. Absent: no check. */
  expectedVersion?: number;
}

/**
 * `update_schedule` (SPEC §3.1): merge the fields sent onto the stored schedule, validate the result
 * as a whole, and store it. Switching `repeat` needs the matching cadence field in the same request;
 * the other cadence fields are dropped. The target is checked again only when `invocation_target` is
 * sent. SPEC §8: `next_fire_at` is recomputed only when the timing or `enabled` changes, and the due
 * occurrences such an edit makes unreachable are counted in `skipped_occurrences`. SPEC §12.2:
 * disabling or changing the target cancels pending retries. SPEC §12.5: disabling records `paused`.
 * SPEC §15: `version` is incremented, and the change is recorded in the activity log (`update`, or
 * `enable` / `disable` when `enabled` flips) with the names of the fields whose values changed.
 * Throws `404 schedule_not_found`, `409 version_conflict` (stale `expectedVersion`), `409 schedule_completed`,
 * `400 invalid_invocation_target` (a stored target type this build has no contract for, unless the
 * patch replaces the target), and every code of SPEC §5.2.
 */
export async function updateSchedule(opts: UpdateScheduleOptions): Promise<Schedule> {
  const patch = parsePatch(opts.input);
  await checkTargetBeforeSave(patch, opts, opts);
  return inTransaction(opts.db, (tx) => updateScheduleIn(tx, opts, patch));
}

/**
 * `updateSchedule`'s writes, in the caller's transaction (a command that enables and does more in one
 * transaction, e.g. Resume with catch-up). `patch` is parsed (`parsePatch`); a patch that
 * sends `invocation_target` must have passed `checkTargetBeforeSave` first. Same errors.
 */
export async function updateScheduleIn(tx: Tx, opts: UpdateScheduleOptions, patch: ScheduleUpdateInput): Promise<Schedule> {
  const plan = await checkUpdate(tx, opts, patch, false);
  const updated = await tx.schedule.update({ where: { id: plan.row.id }, data: plan.data });
  // SPEC §17 `missed`: an occurrence saved already beyond the catch-up window, raised with the save.
  if (plan.checked.missedAt) await raiseMissedAtSave(tx, plan.row.id, plan.checked.missedAt, opts.now);
  let answer = toSchedule(updated);
  if (plan.cancelsRetries && (await cancelPendingAttempts(tx, [plan.row.id], plan.cancelsRetries)) > 0) {
    // A last occurrence whose retry was cancelled leaves nothing to fire (SPEC §5.3).
    const { completed } = await finishSchedules(tx, [plan.row.id]);
    if (completed.length) answer = toSchedule(await tx.schedule.findUniqueOrThrow({ where: { id: plan.row.id } }));
  }
  const before = toSchedule(plan.row);
  const action = before.enabled === answer.enabled ? 'update' : answer.enabled ? 'enable' : 'disable';
  // SPEC §15: in the update's transaction, so the entry exists exactly when the change does.
  await recordActivity(tx, { revisionId: opts.revision.id, schedule: updated, action, by: opts.actor, at: opts.now, fields: changedFields(before, answer, plan.targetChanged) });
  // Last: a facade's own write commits with the change or not at all.
  await opts.alsoInTransaction?.(tx);
  return answer;
}

/**
 * The writable fields (SPEC §5.1) whose values differ between two states of a schedule; `paused` counts
 * by its note. `targetChanged`: the stored target changed (a masked secret's new value too, SPEC §13.5,
 * which the answers cannot show).
 */
function changedFields(before: Schedule, after: Schedule, targetChanged: boolean): string[] {
  const b = before as unknown as Record<string, unknown>;
  const a = after as unknown as Record<string, unknown>;
  const fields = Object.keys(ScheduleUpdateInput.shape).filter(
    (k) => k !== 'paused' && (canonicalJson(b[k] ?? null) !== canonicalJson(a[k] ?? null) || (k === 'invocation_target' && targetChanged)),
  );
  if ((before.paused?.note ?? null) !== (after.paused?.note ?? null)) fields.push('paused.note');
  return fields;
}

/**
 * `update_schedule` with `dry_run: true` (docs/decisions.md): every check `updateSchedule` makes, with
 * the same errors, and no write. Answers the schedule as the update would store it (`updated_at` is the
 * request's instant). A new target's session alias that does not exist yet in a draft revision the saver
 * can write is named in `missing_session` instead of refused.
 */
export async function dryRunUpdateSchedule(opts: UpdateScheduleOptions): Promise<ScheduleDryRunAnswer> {
  const patch = parsePatch(opts.input);
  await checkTargetBeforeSave(patch, opts, opts);
  return inTransaction(opts.db, async (tx) => {
    const { row, data, checked } = await checkUpdate(tx, opts, patch, true);
    const { missingSession } = checked;
    return {
      dry_run: true,
      schedule: toSchedule({ ...row, ...(data as Partial<ScheduleRow>) }),
      ...(missingSession ? { missing_session: { revision_id: missingSession.revisionId, alias: missingSession.alias } } : {}),
    };
  });
}

/** `update_schedule`'s request body, parsed; the SPEC §5.2 refusal of the first issue. */
export function parsePatch(input: unknown): ScheduleUpdateInput {
  return parseOrRefuse(ScheduleUpdateInput, input, SCHEDULE_INFO_FIELDS);
}


interface UpdatePlan {
  row: ScheduleRow & { revisionId: string };
  checked: CheckedSchedule;
  /** Every column the update writes. */
  data: Prisma.ScheduleUpdateInput;
  /**
   * Disabling, completing, or a changed target: pending retries are cancelled (SPEC §12.2), and the
   * waiting `buffer_one` occurrence too unless the schedule stays enabled (decision 330); null: none.
   */
  cancelsRetries: CancelPendingOptions | null;
  /** The stored target changes (type or JSON; a sealed secret keeps its text while its value does). */
  targetChanged: boolean;
}

/** The checks of an update, in order: write access, the schedule, its state, the merged fields, the alias, `checkSchedule`. */
export async function checkUpdate(tx: Tx, opts: UpdateScheduleOptions, patch: ScheduleUpdateInput, allowMissingSession: boolean): Promise<UpdatePlan> {
  const { actor, revision, now } = opts;
  await requireSchedulerRole(tx, actor, revision.blobId, 'write');
  const found = await getScheduleRow(tx, revision.id, opts.scheduleRef);
  // The row is locked (PostgreSQL FOR UPDATE) and read again: a fire completing or advancing it in
  // between waits for this transaction, so the checks below see what this update replaces.
  const row = (await lockSchedule(tx, found.id)) ?? found;
  // SPEC §15: checked on the locked row, so no other change can land between this check and the write.
  requireVersion(row, opts.expectedVersion);
  if (row.state === 'completed') {
    throw new DomainError('schedule_completed', 'this schedule is completed and read-only; it can be read and deleted');
  }
  const current = toSchedule(row);
  if (patch.repeat !== undefined && patch.repeat !== current.repeat) {
    const needed = CADENCE_FIELD[patch.repeat];
    if (patch[needed] === undefined) {
      throw new DomainError('invalid_request_body', `switching repeat to "${patch.repeat}" needs ${needed} in the same request`, { path: needed });
    }
  }
  if (patch.invocation_target_type !== undefined && patch.invocation_target_type !== current.invocation_target_type && patch.invocation_target === undefined) {
    throw new DomainError('invalid_request_body', `switching invocation_target_type to "${patch.invocation_target_type}" needs invocation_target in the same request`, { path: 'invocation_target' });
  }
  // A stored type no contract declares (a row written outside the product, or by a newer version) has
  // no rules to check the merged schedule against: only a patch that sends a known type (the patch's
  // own is parsed as one) with its target can save it; a target sent alone keeps the stored type.
  if (patch.invocation_target_type === undefined && !targetContractOf(current.invocation_target_type)) {
    throw new DomainError(
      'invalid_invocation_target',
      `this schedule's target type "${current.invocation_target_type}" is not one this scheduler delivers to: send invocation_target_type and invocation_target to replace it, or delete the schedule`,
      { path: 'invocation_target_type' },
    );
  }
  const repeat = patch.repeat ?? current.repeat;
  const { paused: pausePatch, ...fieldsPatch } = patch;
  const merged: Record<string, unknown> = {
    alias: current.alias,
    description: current.description,
    repeat,
    timezone: current.timezone,
    start_date: current.start_date,
    end_date: current.end_date,
    flexible_time_window: current.flexible_time_window,
    enabled: current.enabled,
    retry_policy: current.retry_policy,
    dead_letter: current.dead_letter,
    action_after_completion: current.action_after_completion,
    pause_after_failures: current.pause_after_failures,
    completion: current.completion,
    overlap_policy: current.overlap_policy,
    catch_up: current.catch_up,
    // An invocation_target sent without its type keeps the stored type (only fields sent change).
    invocation_target_type: current.invocation_target_type,
    invocation_target: current.invocation_target,
    ...(repeat === current.repeat ? { [CADENCE_FIELD[repeat]]: current[CADENCE_FIELD[repeat]] } : {}),
    ...fieldsPatch,
  };
  for (const k of Object.keys(merged)) if (merged[k] === undefined || merged[k] === null) delete merged[k];
  // A stored target that is not sent again is kept as stored, whichever API stored it (SPEC §14: an
  // aws target of another service); a sent one meets the rules of the API that sends it.
  const input = parseScheduleInput(merged, opts.rules?.storedTargets || patch.invocation_target === undefined ? 'stored' : 'save');
  if (input.alias != null && input.alias !== current.alias) {
    // A rename keeps the name (decision 77); the new alias may be no other schedule's alias or name (decision 150).
    const holder = await findTokenHolder(tx, revision.id, input.alias, row.id);
    if (holder) throw aliasTaken(input.alias, holder);
  }
  const stored: StoredSchedule = row;
  const checked = await checkSchedule(tx, opts, {
    input,
    scheduleId: row.id,
    stored,
    checkTarget: patch.invocation_target !== undefined,
    storedTarget: { type: row.invocationTargetType, target: row.invocationTarget },
    checkDeadLetter: patch.invocation_target !== undefined || patch.dead_letter !== undefined,
    blobId: revision.blobId,
    allowMissingSession,
  });
  const { fields } = checked;

  // SPEC §8: an edit never drops an occurrence silently. When the update replaces a due, unfired
  // occurrence (and those after it that are due too), they are counted as skipped.
  const dropped =
    row.enabled && row.nextFireAt && row.nextFireAt.getTime() <= now.getTime() && fields.nextFireAt?.getTime() !== row.nextFireAt.getTime()
      ? countDueOccurrences(stored, row.id, row.flexibleWindowMinutes, row.nextScheduledFor ?? row.nextFireAt, row.nextFireAt, now)
      : 0;

  const disabling = row.enabled && !fields.enabled;
  if (fields.enabled && pausePatch !== undefined) {
    throw new DomainError('invalid_request_body', 'paused.note can be set only on a disabled schedule (send enabled: false with it)', { path: 'paused.note' });
  }
  const paused = fields.enabled
    ? { pausedByType: null, pausedById: null, pausedAt: null, pauseNote: null, pausedBulk: false }
    : disabling
      ? { pausedByType: actor.type, pausedById: actor.id, pausedAt: now, pauseNote: pausePatch?.note ?? null, pausedBulk: false }
      : { pauseNote: pausePatch !== undefined ? pausePatch.note : row.pauseNote };
  const targetChanged = fields.invocationTargetType !== row.invocationTargetType || canonicalJson(fields.invocationTarget) !== canonicalJson(row.invocationTarget);
  return {
    row,
    checked,
    data: {
      ...fields,
      ...paused,
      // A one-time schedule saved already missed (EventBridge timing) counts that occurrence too.
      skippedOccurrences: row.skippedOccurrences + dropped + (fields.skippedOccurrences ?? 0),
      ...(opts.facadeData ? { facadeData: opts.facadeData } : noteChangedFields(row.facadeData, patch, current)),
      // SPEC §15: every change increments it; exact, as the row is locked (PostgreSQL) or the database is (SQLite).
      version: row.version + 1,
      updatedAt: now,
    },
    cancelsRetries:
      disabling || fields.state === 'completed'
        ? { now, reason: disabling ? 'the schedule was disabled' : 'the schedule was completed' }
        : targetChanged
          ? // SPEC §16.2: the waiting occurrence is still delivered, to the target the schedule has then.
            { now, reason: 'the target was changed', keepWaiting: true }
          : null,
    targetChanged,
  };
}

/**
 * SPEC §15: refuse a change made against a stale read. `expected` absent: no check. Call it on the
 * locked row, inside the transaction that writes. Throws `409 version_conflict` naming both versions.
 */
export function requireVersion(row: { version: number }, expected: number | undefined): void {
  if (expected === undefined || expected === row.version) return;
  throw new DomainError(
    'version_conflict',
    `this schedule was changed since it was read: it is at version ${row.version}, the change was made against version ${expected}; read it again, then repeat the change`,
    { path: 'expected_version' },
  );
}

/**
 * What a save made outside a facade tells the facade that stored the schedule's facade data (SPEC
 * §14): the names of the request fields whose values it changed, added to the data's `changed` list,
 * so the facade stops answering its own copies of them (it clears the list when it saves the schedule
 * itself). The domain's one key in facade data; it reads nothing else of it. Returns the column's
 * update, or nothing when the schedule has no facade data or no field changed.
 */
function noteChangedFields(stored: unknown, patch: Record<string, unknown>, current: Schedule): { facadeData?: object } {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return {};
  const before = current as unknown as Record<string, unknown>;
  const changed = Object.keys(patch).filter((f) => patch[f] !== undefined && canonicalJson(patch[f] ?? null) !== canonicalJson(before[f] ?? null));
  if (changed.length === 0) return {};
  const data = stored as { changed?: unknown };
  const listed = Array.isArray(data.changed) ? data.changed.filter((f): f is string => typeof f === 'string') : [];
  const next = [...new Set([...listed, ...changed])];
  return next.length === listed.length ? {} : { facadeData: { ...data, changed: next } };
}
