import { findScheduleByKey, findScheduleHoldingToken, UndecodableScheduleError, type ScheduleRecord, type Tx } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';

/**
 * The schedule `ref` names in scheduler revision `revisionId`, or null. `ref` is an id or, when
 * `allowAlias`, an alias (trimmed and lowercased first, SPEC §3.1).
 */
export async function findSchedule(db: Tx, revisionId: string, ref: string, allowAlias: boolean): Promise<ScheduleRecord | null> {
  const key = normalizeRef(ref);
  // One statement on the driver (docs/decisions.md 385).
  if (isIdShape(key)) return findScheduleByKey(db, revisionId, key, 'id');
  return allowAlias ? findScheduleByKey(db, revisionId, key, 'alias') : null;
}

/**
 * `500 internal_error` for a stored schedule the row codec cannot read (a hand-edited row, a column
 * holding what no save writes): it names the schedule and the column, and the way out (decision 425).
 * What JSON.parse said stays in the cause, which the edges log (5xx), never in the answer: it can
 * quote the column's text, a header's secret included. Only callers the scheduler's access check has passed read a row, so only they see it.
 */
export function unreadableScheduleError(e: UndecodableScheduleError): DomainError {
  const what = e.cause.message.replace(/ holds text that is not JSON \(.*\)$/s, ' holds text that is not JSON');
  return new DomainError(
    'internal_error',
    `schedule ${e.scheduleId} cannot be read: ${what}; it cannot be shown, changed or fired until it is deleted (delete_schedule ${e.scheduleId}) or the row is restored from a backup`,
    { cause: e },
  );
}

/**
 * `thrown` as the domain names it where errors become answers (the product API, server actions, the
 * EventBridge API): a stored schedule the row codec cannot read (UndecodableScheduleError, from any
 * read) becomes `unreadableScheduleError`; anything else is returned unchanged.
 */
export function namedError(thrown: unknown): unknown {
  return thrown instanceof UndecodableScheduleError ? unreadableScheduleError(thrown) : thrown;
}

/**
 * Like findSchedule; throws `404 schedule_not_found` when there is none: `notFound` when given (a
 * refusal naming another parameter), else "schedule not found" on `schedule_id`.
 */
export async function getScheduleRow(db: Tx, revisionId: string, ref: string, allowAlias = true, notFound?: () => DomainError): Promise<ScheduleRecord> {
  const row = await findSchedule(db, revisionId, ref, allowAlias);
  if (!row) throw notFound?.() ?? new DomainError('schedule_not_found', 'schedule not found', { path: 'schedule_id' });
  return row;
}

/**
 * One token, one schedule (SPEC §4 aliases, §14 names; docs/decisions.md 150): in a scheduler a
 * string is at most one schedule's alias or name, so the product API and the EventBridge API never
 * reach two schedules by the same text. The schedule other than `exceptId` that holds `token` as its
 * alias or its name, or null when it is free.
 */
export async function findTokenHolder(db: Tx, revisionId: string, token: string, exceptId?: string) {
  return findScheduleHoldingToken(db, revisionId, token, exceptId);
}

/** `409 alias_taken` for `alias`, saying whether another schedule holds it as alias or as name. */
export function aliasTaken(alias: string, holder: { alias: string | null }, cause?: unknown): DomainError {
  return holder.alias === alias
    ? new DomainError('alias_taken', `alias "${alias}" is taken by another schedule in this scheduler`, { path: 'alias', cause })
    : new DomainError('alias_taken', `alias "${alias}" is taken: another schedule in this scheduler is named so`, { path: 'alias', cause });
}
