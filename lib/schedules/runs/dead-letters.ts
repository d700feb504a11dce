/**
 * The scheduler's dead-letter list (SPEC §12.3): every exhausted occurrence is kept here, whatever its
 * `dead_letter`, until an operator dismisses it. `replay_dead_letter` fires the occurrence again now
 * as a `manual` run linked to it. Dead letters outlive their schedule (no foreign key), so the list
 * still shows what a schedule deleted after completion (SPEC §12.5) could not deliver.
 */
import type { Actor } from '../../auth';
import type { Limits } from '../../config';
import { findScheduleByKey, inTransaction, rawOneOf, type DeadLetterRow, type Db, type Tx } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';
import { requireSchedulerRole } from '../access';
import { EXHAUSTED_REASONS, RUN_STATUSES, type DeadLetter, type ExhaustedReason, type Run, type RunResult } from '../contract';
import type { Engine } from '../../engine';
import type { DeliveryDeps } from '../../targets';
import { recordActivity } from '../activity';
import { schedulerEngine } from '../engine';
import { targetFields, toRun } from '../read/serialize';

/** Why a dead letter's occurrence was exhausted (SPEC §12.3): a cancelled retry leaves no dead letter. */
const DEAD_LETTER_EXHAUSTED = EXHAUSTED_REASONS.filter((r): r is Exclude<ExhaustedReason, 'cancelled'> => r !== 'cancelled');

/** Page size of `list_dead_letters` (the same paging as `list_executions`, SPEC §3.1). */
export const DEAD_LETTERS_PAGE_SIZE = 10;

interface Scope {
  db: Db;
  actor: Actor;
  /** The scheduler's managed revision. */
  revision: { id: string; blobId: string };
}

/** A dead-letter row → its wire shape. Optional fields are omitted, never null. */
/** The SQS send of a dead letter as the list answers it (SPEC §12.3). */
function queueSendOf(row: DeadLetterRow): NonNullable<DeadLetter['queue_send']> {
  const r = (row.sqsResult ?? {}) as { message_id?: unknown; error?: unknown; message?: unknown };
  const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  const status = row.sqsStatus === 'sent' || row.sqsStatus === 'failed' ? row.sqsStatus : 'pending';
  return {
    status,
    attempts: row.sqsAttempts,
    ...(status === 'sent' && text(r.message_id) ? { message_id: text(r.message_id) } : {}),
    ...(status !== 'sent' && text(r.error) ? { error: text(r.error), ...(text(r.message) ? { message: text(r.message) } : {}) } : {}),
  };
}

export function toDeadLetter(row: DeadLetterRow): DeadLetter {
  return {
    id: row.id,
    schedule_id: row.scheduleId,
    schedule_label: row.scheduleLabel,
    scheduled_for: row.scheduledFor.toISOString(),
    attempts: row.attempts,
    exhausted: rawOneOf(DEAD_LETTER_EXHAUSTED, 'dead_letters.exhausted', row.exhausted),
    last_run_id: row.lastRunId,
    status: rawOneOf(RUN_STATUSES, 'dead_letters.last_status', row.lastStatus),
    result: row.lastResult as RunResult,
    ...targetFields(row.invocationTargetType, row.invocationTarget),
    ...(row.deadLetterArn ? { dead_letter_arn: row.deadLetterArn } : {}),
    ...(row.sqsStatus ? { queue_send: queueSendOf(row) } : {}),
    created_at: row.createdAt.toISOString(),
    ...(row.replayRunId && row.replayStatus && row.replayedAt
      ? { replay: { run_id: row.replayRunId, status: rawOneOf(RUN_STATUSES, 'dead_letters.replay_status', row.replayStatus), at: row.replayedAt.toISOString() } }
      : {}),
  };
}

/**
 * `list_dead_letters` (SPEC §12.3): the scheduler's dead letters, 10 a page, newest first (by
 * `created_at`, then `id`); `last_dead_letter_id` is null on the last page. Needs `read`.
 * Throws `404 not_found` (no read access), `400 invalid_request_body` (a cursor that is not one of its dead letters).
 */
export async function listDeadLetters(opts: Scope & { startDeadLetterId?: string | null }): Promise<{ dead_letters: DeadLetter[]; last_dead_letter_id: string | null }> {
  const { db, actor, revision } = opts;
  await requireSchedulerRole(db, actor, revision.blobId, 'read');
  let cursor: { createdAt: Date; id: string } | null = null;
  if (opts.startDeadLetterId) {
    const id = normalizeRef(opts.startDeadLetterId);
    cursor = isIdShape(id) ? await db.deadLetter.findFirst({ where: { id, revisionId: revision.id }, select: { createdAt: true, id: true } }) : null;
    if (!cursor) throw new DomainError('invalid_request_body', 'start_dead_letter_id is not a dead letter of this scheduler', { path: 'start_dead_letter_id' });
  }
  const rows = await db.deadLetter.findMany({
    where: {
      revisionId: revision.id,
      ...(cursor ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: DEAD_LETTERS_PAGE_SIZE + 1,
  });
  const page = rows.slice(0, DEAD_LETTERS_PAGE_SIZE);
  return { dead_letters: page.map(toDeadLetter), last_dead_letter_id: rows.length > DEAD_LETTERS_PAGE_SIZE ? page[page.length - 1].id : null };
}

/**
 * Of `runIds` (runs of one history page that exhausted their occurrence), those whose dead letter is
 * still in the scheduler's list (SPEC §12.3), as run id → dead letter id; a run missing from the
 * answer had its dead letter dismissed. At most one indexed lookup per call. Needs `read`.
 */
export async function listedDeadLettersOfRuns(opts: Scope & { runIds: string[] }): Promise<Map<string, string>> {
  const { db, actor, revision } = opts;
  if (opts.runIds.length === 0) return new Map();
  await requireSchedulerRole(db, actor, revision.blobId, 'read');
  const rows = await db.deadLetter.findMany({ where: { revisionId: revision.id, lastRunId: { in: opts.runIds } }, select: { id: true, lastRunId: true } });
  return new Map(rows.map((r) => [r.lastRunId, r.id]));
}

/** How many dead letters a scheduler holds (its page shows the count, SPEC §12.3). */
export async function countDeadLetters(db: Db, revisionId: string): Promise<number> {
  return db.deadLetter.count({ where: { revisionId } });
}

async function getDeadLetterRow(db: Db | Tx, revisionId: string, ref: string) {
  const id = normalizeRef(ref);
  const row = isIdShape(id) ? await db.deadLetter.findFirst({ where: { id, revisionId } }) : null;
  if (!row) throw new DomainError('dead_letter_not_found', 'dead letter not found', { path: 'dead_letter_id' });
  return row;
}

/**
 * `replay_dead_letter` (SPEC §12.3): fire the dead letter's occurrence again now, with the schedule's
 * current target and its creator's standing, as a `manual` run linked to the dead letter (the run's
 * `dead_letter_id`); the dead letter keeps the replay's run and status and stays in the list. Allowed
 * for a completed schedule (a replay is not a new occurrence). Needs `write`.
 * Throws `404 dead_letter_not_found`, `404 schedule_not_found` (the schedule was deleted since).
 */
export async function replayDeadLetter(
  opts: Scope & { deadLetterRef: string; limits: Limits; now: Date; delivery?: DeliveryDeps; engine?: Engine },
): Promise<{ execution: Run; dead_letter: DeadLetter }> {
  const { db, actor, revision, now } = opts;
  const engine = opts.engine ?? schedulerEngine;
  const started = await inTransaction(db, async (tx) => {
    await requireSchedulerRole(tx, actor, revision.blobId, 'write');
    const letter = await getDeadLetterRow(tx, revision.id, opts.deadLetterRef);
    // On the driver through the row codec: a row it cannot read names itself (decision 425).
    const schedule = await findScheduleByKey(tx, revision.id, letter.scheduleId, 'id');
    if (!schedule) {
      throw new DomainError('schedule_not_found', 'the schedule of this dead letter has been deleted, so it cannot be replayed; dismiss it instead', { path: 'dead_letter_id' });
    }
    const fire = await engine.startManualFire(tx, schedule, { scheduledFor: now, now, limits: opts.limits, deadLetterId: letter.id });
    // An in-transaction replay is recorded already; an after-commit one records its status when delivered.
    if (fire.status) await tx.deadLetter.update({ where: { id: letter.id }, data: { replayRunId: fire.runId, replayStatus: fire.status, replayedAt: now } });
    // SPEC §15: who replayed it, in the transaction that fires.
    await recordActivity(tx, {
      revisionId: revision.id, schedule: { id: schedule.id, name: schedule.name, alias: schedule.alias }, action: 'replay_dead_letter', executionId: fire.runId, deadLetterId: letter.id, by: actor, at: now,
    });
    return { fire, letterId: letter.id };
  });
  await engine.finishManualFire(db, started.fire, opts.delivery);
  const [run, updated] = await Promise.all([db.run.findUnique({ where: { id: started.fire.runId } }), db.deadLetter.findUnique({ where: { id: started.letterId } })]);
  if (!run || !updated) throw new DomainError('schedule_not_found', 'the schedule of this dead letter was deleted while the replay was delivered');
  return { execution: toRun(run), dead_letter: toDeadLetter(updated) };
}

/** `dismiss_dead_letter` (SPEC §12.3): remove it from the list. Needs `write`. Throws `404 dead_letter_not_found`. */
export async function dismissDeadLetter(opts: Scope & { deadLetterRef: string; now: Date }): Promise<Record<string, never>> {
  const { db, actor, revision, now } = opts;
  await inTransaction(db, async (tx) => {
    await requireSchedulerRole(tx, actor, revision.blobId, 'write');
    const letter = await getDeadLetterRow(tx, revision.id, opts.deadLetterRef);
    await tx.deadLetter.delete({ where: { id: letter.id } });
    // SPEC §15: who dismissed it (the schedule may be gone: its label at the exhaustion names it).
    const schedule = (await tx.schedule.findUnique({ where: { id: letter.scheduleId }, select: { id: true, name: true, alias: true } })) ?? { id: letter.scheduleId, name: letter.scheduleLabel, alias: null };
    await recordActivity(tx, { revisionId: revision.id, schedule, action: 'dismiss_dead_letter', deadLetterId: letter.id, by: actor, at: now });
  });
  return {};
}
