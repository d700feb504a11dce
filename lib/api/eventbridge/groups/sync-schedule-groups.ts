import { orgRole, roleAtLeast, type Actor } from '../../../auth';
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
 * `makeDefaultFor`: a write makes `default` only for an actor holding `write` on the org (a write
 * it will refuse makes nothing); a read passes none and never makes it: `requireGroup` and
 * `listScheduleGroups` answer the unmade `default` as AWS's always-existing one (decision 360).
 * A read places the org's blobs only when it reads the home region (elsewhere placing changes no
 * answer), so a read of any other region writes nothing at all.
 * Reads only, unless something is missing; safe to run concurrently (the UNIQUE keys
 * `(org_id, region, name)` of groups and `(org_id, alias)` of blobs decide a race).
 */
export async function syncScheduleGroups(db: Db, orgId: string, scope: RegionScope, now: Date, opts: { makeDefaultFor?: Actor } = {}): Promise<void> {
  const writer = opts.makeDefaultFor;
  if (!writer && scope.region !== scope.homeRegion) return;
  const [missing, hasDefault] = await Promise.all([
    db.blob.findMany({
      where: { orgId, type: 'scheduler', OR: [{ scheduleGroup: null }, { scheduleGroup: { region: '' } }] },
      select: { id: true, alias: true, createdAt: true },
      orderBy: { createdAt: 'asc' },
    }),
    db.scheduleGroup.findUnique({ where: { orgId_region_name: { orgId, region: scope.region, name: DEFAULT_GROUP } }, select: { blobId: true } }),
  ]);
  const makeDefault = !hasDefault && writer !== undefined && roleAtLeast(await orgRole(db, writer, orgId), 'write');
  if (missing.length === 0 && !makeDefault) return;
  try {
    await inTransaction(db, async (tx) => {
      for (const b of missing) await placeBlob(tx, orgId, scope.homeRegion, b);
      const there = { orgId_region_name: { orgId, region: scope.region, name: DEFAULT_GROUP } };
      if (makeDefault && !(await tx.scheduleGroup.findUnique({ where: there }))) await createDefaultGroup(tx, orgId, scope, now);
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
  // Dated as reads answered it before it was made (the org's creation, `unmadeDefaultGroup`): a
  // client that read `default` sees the same CreationDate once a write made it.
  const since = await accountCreatedAt(tx, orgId);
  await tx.scheduleGroup.create({ data: { blobId: blob.id, orgId, region: scope.region, name: DEFAULT_GROUP, tags: [], createdAt: since, updatedAt: since } });
}

/** When the org (the AWS account) was made: the CreationDate of a region's `default` (decision 360). */
export async function accountCreatedAt(db: Tx, orgId: string): Promise<Date> {
  return (await db.org.findUniqueOrThrow({ where: { id: orgId }, select: { createdAt: true } })).createdAt;
}
