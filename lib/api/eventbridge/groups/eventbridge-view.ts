/**
 * How the web app names a scheduler and a schedule on the EventBridge-compatible API (SPEC §14):
 * the group name, the account id, and (for a schedule) its name and the region it was last saved in
 * through that API. Reads for pages: the caller has already read the scheduler.
 */
import { orgAccountId } from '../../../auth';
import type { Db } from '../../../db';
import { storedRegion } from '../fire-facts';
import { GROUP_SELECT, toGroupInfo } from './group-info';

export interface EventBridgeView {
  groupName: string;
  tags: { key: string; value: string }[];
  accountId: string;
}

/**
 * The group and account of scheduler blob `blobId` of org `orgId`. Creates no group: a blob the
 * EventBridge API has not seen yet shows the name it will get there (its alias, else its id). The
 * org's account id is assigned on first use (it never changes).
 */
export async function eventBridgeViewOfScheduler(db: Db, opts: { orgId: string; blobId: string }): Promise<EventBridgeView | null> {
  const [row, blob] = await Promise.all([
    db.scheduleGroup.findUnique({ where: { blobId: opts.blobId }, select: GROUP_SELECT }),
    db.blob.findUnique({ where: { id: opts.blobId }, select: { id: true, alias: true, type: true } }),
  ]);
  if (!blob || blob.type !== 'scheduler') return null;
  const group = row ? toGroupInfo(row) : { name: blob.alias ?? blob.id, tags: [] };
  const accountId = await orgAccountId(db, opts.orgId);
  return { groupName: group.name, tags: group.tags, accountId };
}

/** The region schedule `scheduleId` was last saved in through the EventBridge API, or null. */
export async function eventBridgeRegionOf(db: Db, scheduleId: string): Promise<string | null> {
  const row = await db.schedule.findUnique({ where: { id: scheduleId }, select: { facadeData: true } });
  return storedRegion(row?.facadeData ?? null);
}
