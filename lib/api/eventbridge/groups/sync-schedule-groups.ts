import { inTransaction, type Db, type Tx } from '../../../db';
import { aliasProblem } from '../../../ids';
import { isUniqueViolation } from '../../../workflows';
import { DEFAULT_GROUP } from './group-info';

/**
 * Make every scheduler blob of `orgId` a schedule group (SPEC §14), and create the org's `default`
 * group on first use. A blob made by the product (the web app, the seed, the product API) gets the
 * group name of its alias, else its id; a blob whose name is already a group's takes its id.
 * `default`: the org's scheduler blob aliased `default` when there is one, else a new scheduler blob
 * (alias `default` when free). Reads only, unless something is missing; safe to run concurrently
 * (the UNIQUE keys `(org_id, name)` of groups and `(org_id, alias)` of blobs decide a race).
 */
export async function syncScheduleGroups(db: Db, orgId: string, now: Date): Promise<void> {
  const [missing, hasDefault] = await Promise.all([
    db.blob.findMany({ where: { orgId, type: 'scheduler', scheduleGroup: null }, select: { id: true, alias: true, createdAt: true }, orderBy: { createdAt: 'asc' } }),
    db.scheduleGroup.findUnique({ where: { orgId_name: { orgId, name: DEFAULT_GROUP } }, select: { blobId: true } }),
  ]);
  if (missing.length === 0 && hasDefault) return;
  try {
    await inTransaction(db, async (tx) => {
      for (const b of missing) await nameBlob(tx, orgId, b);
      if (!(await tx.scheduleGroup.findUnique({ where: { orgId_name: { orgId, name: DEFAULT_GROUP } } }))) await createDefaultGroup(tx, orgId, now);
    });
  } catch (e) {
    // Another request synced the same org first: its rows stand.
    if (!isUniqueViolation(e)) throw e;
  }
}

async function nameBlob(tx: Tx, orgId: string, blob: { id: string; alias: string | null; createdAt: Date }): Promise<void> {
  if (await tx.scheduleGroup.findUnique({ where: { blobId: blob.id } })) return;
  const wanted = blob.alias ?? blob.id;
  const taken = await tx.scheduleGroup.findUnique({ where: { orgId_name: { orgId, name: wanted } } });
  const name = taken ? blob.id : wanted;
  await tx.scheduleGroup.create({ data: { blobId: blob.id, orgId, name, tags: [], createdAt: blob.createdAt, updatedAt: blob.createdAt } });
}

async function createDefaultGroup(tx: Tx, orgId: string, now: Date): Promise<void> {
  const aliasFree = !aliasProblem(DEFAULT_GROUP) && !(await tx.blob.findUnique({ where: { orgId_alias: { orgId, alias: DEFAULT_GROUP } } }));
  const blob = await tx.blob.create({
    data: {
      orgId,
      alias: aliasFree ? DEFAULT_GROUP : null,
      type: 'scheduler',
      name: DEFAULT_GROUP,
      createdAt: now,
      revisions: { create: { state: 'managed', createdAt: now } },
    },
    include: { revisions: true },
  });
  await tx.blob.update({ where: { id: blob.id }, data: { defaultRevisionId: blob.revisions[0].id } });
  await tx.scheduleGroup.create({ data: { blobId: blob.id, orgId, name: DEFAULT_GROUP, tags: [], createdAt: now, updatedAt: now } });
}
