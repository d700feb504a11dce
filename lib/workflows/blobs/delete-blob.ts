import { endIncidents, inTransaction, lockBlobForDelete, type Db, type Tx } from '../../db';
import { type Actor, blobRole, readableBy, roleAtLeast } from '../../auth';
import { DomainError } from '../../errors';

/**
 * The name of an org's default scheduler (SPEC §14): its schedule group on the EventBridge API, and
 * the alias of the scheduler blob the product makes for it.
 */
export const DEFAULT_SCHEDULER = 'default';

/**
 * Whether blob `blobId` is a default scheduler of its org (SPEC §14: the `default` schedule group of
 * each region, never deleted): a blob whose group is named `default`, or, while it has no group
 * yet, the scheduler blob aliased `default` (the one the home region's `default` will be made of on
 * first use). False for a missing blob. Reads only.
 */
export async function isDefaultScheduler(db: Db | Tx, blobId: string): Promise<boolean> {
  const blob = await db.blob.findUnique({ where: { id: blobId }, select: { type: true, alias: true, scheduleGroup: { select: { name: true } } } });
  if (!blob || blob.type !== 'scheduler') return false;
  return blob.scheduleGroup ? blob.scheduleGroup.name === DEFAULT_SCHEDULER : blob.alias === DEFAULT_SCHEDULER;
}

/**
 * The one rule every delete of a scheduler goes through (the web app, the product API, the
 * EventBridge API's DeleteScheduleGroup): the org's default scheduler is never deleted (SPEC §14).
 * @throws `400 default_scheduler_protected`.
 */
export async function refuseDefaultSchedulerDelete(tx: Tx, blobId: string): Promise<void> {
  if (await isDefaultScheduler(tx, blobId)) {
    throw new DomainError(
      'default_scheduler_protected',
      `this is the org's default scheduler (schedule group "${DEFAULT_SCHEDULER}"), which is never deleted; delete its schedules instead`,
    );
  }
}

export interface DeleteBlobOptions {
  actor: Actor;
  /** The blob's id. */
  blobId: string;
  /** The delete's instant (UTC): when its alert rules' open incidents end. Default: now. */
  now?: Date;
}

/**
 * Delete a blob and everything in it (SPEC §1): its revisions with their sessions, definitions and
 * executions (a workflow blob), or its schedules with their run history (a scheduler blob), and its
 * grants. Schedules elsewhere that aim at a deleted workflow blob are kept: their fires record
 * `target_not_found` (following), `session_not_found` (pinned) or `workflow_not_found` (SPEC §8.1);
 * `blobDeleteImpact` in lib/schedules names them beforehand. Needs `admin` on the blob (docs/decisions.md).
 * The org's default scheduler is never deleted (SPEC §14, `refuseDefaultSchedulerDelete`).
 * @throws `404 not_found` (missing or unreadable, SPEC §2), `403 forbidden` (readable, not admin),
 *   `400 default_scheduler_protected`.
 */
export async function deleteBlob(db: Db, opts: DeleteBlobOptions): Promise<{ type: string; name: string }> {
  return inTransaction(db, async (tx) => {
    // Scoped in the query: another org's blob and a made-up id are missed alike, in like time (decisions 163).
    const blob = await tx.blob.findFirst({ where: { AND: [{ id: opts.blobId }, readableBy(opts.actor)] }, select: { id: true, type: true, name: true } });
    const role = blob ? await blobRole(tx, opts.actor, blob.id) : null;
    if (!blob || !roleAtLeast(role, 'read')) throw new DomainError('not_found', 'blob not found');
    if (!roleAtLeast(role, 'admin')) throw new DomainError('forbidden', 'deleting a blob needs admin access to it');
    await refuseDefaultSchedulerDelete(tx, blob.id);
    await deleteBlobCascade(tx, blob.id, opts.now ?? new Date());
    return { type: blob.type, name: blob.name };
  });
}

/**
 * The delete itself, for every delete of a blob (`deleteBlob`; the EventBridge API's
 * DeleteScheduleGroup): blob `blobId` with its revisions, definitions, sessions, executions,
 * schedules, runs, alert rules and grants (ON DELETE CASCADE), and its alert rules' open incidents
 * ended at `now` (UTC; SPEC §17: no foreign key holds incidents or alerts, so the retention sweep
 * removes them once ended; docs/decisions.md 442). The caller has checked access and
 * `refuseDefaultSchedulerDelete` in `tx`.
 */
export async function deleteBlobCascade(tx: Tx, blobId: string, now: Date): Promise<void> {
  // Lock order (decisions 434, 440): its schedules, their pending attempts, its alert rules, each in id order, before the cascade.
  await lockBlobForDelete(tx, blobId);
  // Incidents after their rules (decision 440), in id order (endIncidents): a raise or a rule's delete
  // meets this one at a schedule or a rule first, as the minute check's clean-up of a deleted schedule's
  // rules does; its re-alert of a deleted schedule's incidents, at the first incident they share.
  await endIncidents(tx, ['blobId', blobId], now);
  await tx.blob.delete({ where: { id: blobId } });
}
