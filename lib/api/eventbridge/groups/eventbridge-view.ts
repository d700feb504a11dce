/**
 * How the web app names a scheduler and a schedule on the EventBridge-compatible API (SPEC §14):
 * the group name, the region it belongs to and the account id. Reads for pages: the caller has
 * already read the scheduler.
 */
import { orgAccountId } from '../../../auth';
import type { Db } from '../../../db';
import { GROUP_SELECT, toGroupInfo } from './group-info';

export interface EventBridgeView {
  groupName: string;
  /** The region the group belongs to: a request signed for another region does not see it (SPEC §14). */
  region: string;
  tags: { key: string; value: string }[];
  accountId: string;
}

/**
 * The group, region and account of scheduler blob `blobId` of org `orgId`. Creates no group: a blob
 * the EventBridge API has not seen yet shows the name it will get there (its alias, else its id) in
 * `homeRegion` (SCHEDULER_HOME_REGION), where it will be placed. The org's account id is assigned on
 * first use (it never changes).
 */
export async function eventBridgeViewOfScheduler(db: Db, opts: { orgId: string; blobId: string; homeRegion: string }): Promise<EventBridgeView | null> {
  const [row, blob] = await Promise.all([
    db.scheduleGroup.findUnique({ where: { blobId: opts.blobId }, select: GROUP_SELECT }),
    db.blob.findUnique({ where: { id: opts.blobId }, select: { id: true, alias: true, type: true } }),
  ]);
  if (!blob || blob.type !== 'scheduler') return null;
  const group = row ? toGroupInfo(row) : { name: blob.alias ?? blob.id, region: '', tags: [] };
  const accountId = await orgAccountId(db, opts.orgId);
  // Region '': made before regions, placed in the home region by the API's next request (decisions 250).
  return { groupName: group.name, region: group.region || opts.homeRegion, tags: group.tags, accountId };
}
