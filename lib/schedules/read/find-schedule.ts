import { scheduleRecordOf, type ScheduleRecord, type Tx } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';

/**
 * The schedule `ref` names in scheduler revision `revisionId`, or null. `ref` is an id or, when
 * `allowAlias`, an alias (trimmed and lowercased first, SPEC §3.1).
 */
export async function findSchedule(db: Tx, revisionId: string, ref: string, allowAlias: boolean): Promise<ScheduleRecord | null> {
  const key = normalizeRef(ref);
  const row = isIdShape(key) ? await db.schedule.findFirst({ where: { id: key, revisionId } }) : allowAlias ? await db.schedule.findFirst({ where: { alias: key, revisionId } }) : null;
  return row ? scheduleRecordOf(row) : null;
}

/** Like findSchedule; throws `404 schedule_not_found` when there is none. */
export async function getScheduleRow(db: Tx, revisionId: string, ref: string, allowAlias = true): Promise<ScheduleRecord> {
  const row = await findSchedule(db, revisionId, ref, allowAlias);
  if (!row) throw new DomainError('schedule_not_found', 'schedule not found', { path: 'schedule_id' });
  return row;
}
