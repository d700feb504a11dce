import { inTransaction, type Db, type Tx } from '../../../db';
import { aliasProblem } from '../../../ids';
import { isUniqueViolation } from '../../../workflows';
import { DEFAULT_GROUP, type RegionScope } from './group-info';

/**
 * Make every scheduler blob of `orgId` a schedule group (SPEC §14), and create the `default` group
 * of `scope.region` on first use there.
 * - A blob made by the product (the web app, the seed, the product API) becomes a group of the home
 *   region named by its alias, else its id; a blob whose name is already a home group's takes its id.
 *   A group made before regions (region `''`, migration 0025) is placed in the home region under its
 *   name (docs/decisions.md 250).
 * - `default` of the home region: the org's scheduler blob aliased `default` when there is one, else
 *   a new scheduler blob (alias `default` when free). `default` of any other region: a new scheduler
 *   blob without an alias (the alias names the home region's).
 * Reads only, unless something is missing; safe to run concurrently (the UNIQUE keys
 * `(org_id, region, name)` of groups and `(org_id, alias)` of blobs decide a race).
 */
export async function syncScheduleGroups(db: Db, orgId: string, scope: RegionScope, now: Date): Promise<void> {
  const [missing, hasDefault] = await Promise.all([
    db.blob.findMany({
      where: { orgId, type: 'scheduler', OR: [{ scheduleGroup: null }, { scheduleGroup: { region: '' } }] },
      select: { id: true, alias: true, createdAt: true },
      orderBy: { createdAt: 'asc' },
    }),
    db.scheduleGroup.findUnique({ where: { orgId_region_name: { orgId, region: scope.region, name: DEFAULT_GROUP } }, select: { blobId: true } }),
  ]);
  if (missing.length === 0 && hasDefault) return;
  try {
    await inTransaction(db, async (tx) => {
      for (const b of missing) await placeBlob(tx, orgId, scope.homeRegion, b);
      const there = { orgId_region_name: { orgId, region: scope.region, name: DEFAULT_GROUP } };
      if (!(await tx.scheduleGroup.findUnique({ where: there }))) await createDefaultGroup(tx, orgId, scope, now);
    });
  } catch (e) {
    // Another request synced the same org first: its rows stand.
    if (!isUniqueViolation(e)) throw e;
  }
}

/** Give blob `blob` its group in `home`, or place its group made before regions there. */
async function placeBlob(tx: Tx, orgId: string, home: string, blob: { id: string; alias: string | null; createdAt: Date }): Promise<void> {
  const existing = await tx.scheduleGroup.findUnique({ where: { blobId: blob.id } });
  if (existing && existing.region !== '') return;
  const wanted = existing?.name ?? blob.alias ?? blob.id;
  const taken = await tx.scheduleGroup.findUnique({ where: { orgId_region_name: { orgId, region: home, name: wanted } } });
  const name = taken ? blob.id : wanted;
  if (existing) await tx.scheduleGroup.update({ where: { blobId: blob.id }, data: { region: home, name } });
  else await tx.scheduleGroup.create({ data: { blobId: blob.id, orgId, region: home, name, tags: [], createdAt: blob.createdAt, updatedAt: blob.createdAt } });
}

async function createDefaultGroup(tx: Tx, orgId: string, scope: RegionScope, now: Date): Promise<void> {
  const home = scope.region === scope.homeRegion;
  const aliasFree = home && !aliasProblem(DEFAULT_GROUP) && !(await tx.blob.findUnique({ where: { orgId_alias: { orgId, alias: DEFAULT_GROUP } } }));
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
  await tx.scheduleGroup.create({ data: { blobId: blob.id, orgId, region: scope.region, name: DEFAULT_GROUP, tags: [], createdAt: now, updatedAt: now } });
}
