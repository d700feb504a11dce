import type { Actor } from '../auth';
import type { Limits } from '../config';
import { inTransaction, type Db } from '../db';
import { DomainError } from '../errors';
import { requireSchedulerRole } from './access';
import type { Schedule } from './contract';
import { checkSchedule, parseScheduleInput } from './save-schedule';
import { toSchedule } from './serialize';

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
  const { db, actor, revision, limits, now } = opts;
  const input = parseScheduleInput(opts.input);
  return inTransaction(db, async (tx) => {
    await requireSchedulerRole(tx, actor, revision.blobId, 'write');
    const count = await tx.schedule.count({ where: { revisionId: revision.id } });
    if (count >= limits.schedulesPerRevision) {
      throw new DomainError('schedule_limit_reached', `this scheduler already holds ${count} schedules, the most allowed (scheduler.schedules_per_revision = ${limits.schedulesPerRevision})`);
    }
    if (input.alias != null && (await tx.schedule.findFirst({ where: { revisionId: revision.id, alias: input.alias }, select: { id: true } }))) {
      throw new DomainError('alias_taken', `alias "${input.alias}" is taken by another schedule in this scheduler`, { path: 'alias' });
    }
    const fields = await checkSchedule({ db: tx, actor, input, limits, now, checkTarget: true });
    const row = await tx.schedule.create({
      data: {
        revisionId: revision.id,
        ...fields,
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
