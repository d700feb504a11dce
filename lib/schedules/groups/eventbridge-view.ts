/**
 * How the web app names a scheduler and a schedule on the EventBridge-compatible API (SPEC §14):
 * the group name, the account id, and (for a schedule) its name and the region it was last saved in
 * through that API. Reads for pages: the caller has already read the scheduler.
 */
import { ensureAccountId } from '../../auth';
import type { Db } from '../../db';
import { scheduleGroupOfBlob } from './schedule-group-verbs';

export interface EventBridgeView {
  groupName: string;
  tags: { key: string; value: string }[];
  accountId: string;
}

/** The group and account of scheduler blob `blobId` of org `orgId` (assigning them on first use). */
export async function eventBridgeViewOfScheduler(db: Db, opts: { orgId: string; blobId: string; now: Date }): Promise<EventBridgeView | null> {
  const group = await scheduleGroupOfBlob(db, opts);
  if (!group) return null;
  const accountId = await db.$transaction((tx) => ensureAccountId(tx, opts.orgId));
  return { groupName: group.name, tags: group.tags, accountId };
}

/** The region schedule `scheduleId` was last saved in through the EventBridge API, or null. */
export async function eventBridgeRegionOf(db: Db, scheduleId: string): Promise<string | null> {
  const row = await db.schedule.findUnique({ where: { id: scheduleId }, select: { eventbridge: true } });
  const region = (row?.eventbridge as { region?: unknown } | null)?.region;
  return typeof region === 'string' ? region : null;
}
