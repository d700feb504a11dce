import type { Actor } from '../auth';
import type { Limits } from '../config';
import { inTransaction, type Db, type Tx } from '../db';
import { DomainError } from '../errors';
import { newId } from '../ids';
import { requireSchedulerRole } from './access';
import type { Schedule, ScheduleDryRunAnswer } from './contract';
import { checkSchedule, parseScheduleInput, type CheckedSchedule } from './save-schedule';
import { toSchedule, type ScheduleRow } from './serialize';

export interface CreateScheduleOptions {
  db: Db;
  actor: Actor;
  /** The scheduler blob's managed revision. */
  revision: { id: string; blobId: string };
  /** The request body's schedule fields (unparsed). */
  input: unknown;
  limits: Limits;
  now: Date;
}

/**
 * `create_schedule` (SPEC §3.1, §5): validate, check the target with the saver's standing, and store
 * the schedule with its first `next_fire_at`. `created_by` is the actor. Nothing is written on refusal.
 * Throws DomainError with the codes of SPEC §5.2 (incl. `409 schedule_limit_reached`, `409 alias_taken`).
 */
export async function createSchedule(opts: CreateScheduleOptions): Promise<Schedule> {
  const { db, actor, revision, now } = opts;
  const input = parseScheduleInput(opts.input);
  return inTransaction(db, async (tx) => {
    const id = newId();
    const { fields } = await checkCreate(tx, opts, input, id, false);
    const row = await tx.schedule.create({
      data: {
        id,
        revisionId: revision.id,
        ...fields,
        ...pausedAtCreate(fields.enabled, input, actor, now),
        invocationTarget: fields.invocationTarget,
        createdByType: actor.type,
        createdById: actor.id,
        createdAt: now,
        updatedAt: now,
      },
    });
    return toSchedule(row);
  });
}

/**
 * `create_schedule` with `dry_run: true` (docs/decisions.md): every check `createSchedule` makes, in
 * the same order and with the same errors, and no write. Answers the schedule as it would be stored,
 * under a fresh `id` that the real create does not reuse. A target session alias that does not exist
 * yet in a draft revision the saver can write is named in `missing_session` instead of refused.
 */
export async function dryRunCreateSchedule(opts: CreateScheduleOptions): Promise<ScheduleDryRunAnswer> {
  const { db, actor, now } = opts;
  const input = parseScheduleInput(opts.input);
  return inTransaction(db, async (tx) => {
    const id = newId();
    const { fields, missingSession } = await checkCreate(tx, opts, input, id, true);
    const row: ScheduleRow = {
      id,
      ...fields,
      ...pausedAtCreate(fields.enabled, input, actor, now),
      consecutiveFailures: 0,
      invocationTargetType: 'workflow',
      state: 'active',
      createdByType: actor.type,
      createdById: actor.id,
      skippedOccurrences: 0,
      createdAt: now,
      updatedAt: now,
    };
    return {
      dry_run: true,
      schedule: toSchedule(row),
      ...(missingSession ? { missing_session: { revision_id: missingSession.revisionId, alias: missingSession.alias } } : {}),
    };
  });
}

/** The checks of a create, in order: write access, the schedule limit, the alias, then `checkSchedule`. */
async function checkCreate(
  tx: Tx,
  opts: CreateScheduleOptions,
  input: ReturnType<typeof parseScheduleInput>,
  scheduleId: string,
  allowMissingSession: boolean,
): Promise<CheckedSchedule> {
  const { actor, revision, limits, now } = opts;
  await requireSchedulerRole(tx, actor, revision.blobId, 'write');
  const count = await tx.schedule.count({ where: { revisionId: revision.id } });
  if (count >= limits.schedulesPerRevision) {
    throw new DomainError('schedule_limit_reached', `this scheduler already holds ${count} schedules, the most allowed (scheduler.schedules_per_revision = ${limits.schedulesPerRevision})`);
  }
  if (input.alias != null && (await tx.schedule.findFirst({ where: { revisionId: revision.id, alias: input.alias }, select: { id: true } }))) {
    throw new DomainError('alias_taken', `alias "${input.alias}" is taken by another schedule in this scheduler`, { path: 'alias' });
  }
  if (input.paused !== undefined && input.enabled !== false) {
    throw new DomainError('invalid_request_body', 'paused.note can be set only on a disabled schedule (send enabled: false with it)', { path: 'paused.note' });
  }
  return checkSchedule({ db: tx, actor, input, limits, now, scheduleId, stored: null, checkTarget: true, allowMissingSession });
}

/** SPEC §12.5: a schedule created disabled is paused by its creator, with the note sent. */
function pausedAtCreate(enabled: boolean, input: ReturnType<typeof parseScheduleInput>, actor: Actor, now: Date) {
  if (enabled) return { pausedByType: null, pausedById: null, pausedAt: null, pauseNote: null, pausedBulk: false };
  return { pausedByType: actor.type, pausedById: actor.id, pausedAt: now, pauseNote: input.paused?.note ?? null, pausedBulk: false };
}
