import type { Tx } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';

/**
 * The schedule `ref` names in scheduler revision `revisionId`, or null. `ref` is an id or, when
 * `allowAlias`, an alias (trimmed and lowercased first, SPEC §3.1).
 */
export async function findSchedule(db: Tx, revisionId: string, ref: string, allowAlias: boolean) {
  const key = normalizeRef(ref);
  if (isIdShape(key)) return db.schedule.findFirst({ where: { id: key, revisionId } });
  if (!allowAlias) return null;
  return db.schedule.findFirst({ where: { alias: key, revisionId } });
}

/** Like findSchedule; throws `404 schedule_not_found` when there is none. */
export async function getScheduleRow(db: Tx, revisionId: string, ref: string, allowAlias = true) {
  const row = await findSchedule(db, revisionId, ref, allowAlias);
  if (!row) throw new DomainError('schedule_not_found', 'schedule not found', { path: 'schedule_id' });
  return row;
}
