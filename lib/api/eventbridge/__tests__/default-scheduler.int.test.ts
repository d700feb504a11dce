/**
 * SPEC §14: the org's default scheduler (its `default` schedule group) is never deleted, whichever
 * surface asks: `deleteBlob` (the web app's Delete scheduler, and any product API verb over it) and
 * `deleteScheduleGroup` (the EventBridge API) go through one rule and refuse with one code. Before
 * the org's groups exist, its scheduler aliased `default` is the one that group will be made of.
 * Real database (TEST_DATABASE dialect).
 */
import { describe, expect, it } from 'vitest';
import { createSchedulerBlob, createWorkflowBlob, deleteBlob, isDefaultScheduler } from '../../../workflows';
import { useSeededScheduler } from '../../../testing/seeded-scheduler';
import { deleteScheduleGroup, listScheduleGroups, tagScheduleGroup } from '../groups/schedule-group-verbs';

const w = useSeededScheduler();
const HOME = { region: 'us-east-1', homeRegion: 'us-east-1' };

/** A new org with `userId` as its admin. */
async function orgAdministeredBy(userId: string, alias: string, name: string) {
  const org = await w.db.org.create({ data: { alias, name } });
  await w.db.membership.create({ data: { userId, orgId: org.id, role: 'admin' } });
  return org;
}
const PROTECTED = {
  code: 'default_scheduler_protected',
  status: 400,
  message: 'this is the org\'s default scheduler (schedule group "default"), which is never deleted; delete its schedules instead',
};

describe('the default scheduler is never deleted (SPEC §14)', () => {
  it('an org\'s scheduler aliased "default", before and after its groups exist: deleteBlob and DeleteScheduleGroup refuse alike', async () => {
    const actor = w.actor();
    const org = await orgAdministeredBy(actor.id, 'second-org', 'Second');
    const dflt = await createSchedulerBlob(w.db, { actor, org: 'second-org', alias: 'default' });
    const other = await createSchedulerBlob(w.db, { actor, org: 'second-org', alias: 'other-scheduler' });
    expect(await w.db.scheduleGroup.count({ where: { orgId: org.id } })).toBe(0);

    expect(await isDefaultScheduler(w.db, dflt.id)).toBe(true);
    await expect(deleteBlob(w.db, { actor, blobId: dflt.id })).rejects.toMatchObject(PROTECTED);

    // The EventBridge API's first request makes the groups: the blob aliased "default" is group "default".
    const { groups } = await listScheduleGroups({ db: w.db, actor, orgId: org.id, scope: HOME, pageSize: 100, now: new Date() });
    expect(groups.map((g) => [g.name, g.blobId])).toEqual([['default', dflt.id], ['other-scheduler', other.id]]);
    await expect(deleteBlob(w.db, { actor, blobId: dflt.id })).rejects.toMatchObject(PROTECTED);
    await expect(deleteScheduleGroup({ db: w.db, actor, orgId: org.id, name: 'default', scope: HOME, now: new Date() })).rejects.toMatchObject(PROTECTED);
    expect(await w.db.blob.count({ where: { id: dflt.id } })).toBe(1);

    // Any other scheduler is deleted as before.
    expect(await isDefaultScheduler(w.db, other.id)).toBe(false);
    await deleteBlob(w.db, { actor, blobId: other.id });
    expect(await w.db.blob.count({ where: { id: other.id } })).toBe(0);
  });

  it('a default made on first write without the alias (a workflow blob holds "default") is found by its group; that workflow blob is deleted as before', async () => {
    const actor = w.actor();
    const workflow = await createWorkflowBlob(w.db, { actor, org: 'acme-corp', alias: 'default' });
    // A write makes it (a read answers it unmade, decision 360).
    await tagScheduleGroup({ db: w.db, actor, orgId: w.ctx.orgId, scope: HOME, name: 'default', tags: [], now: new Date() });
    const { groups } = await listScheduleGroups({ db: w.db, actor, orgId: w.ctx.orgId, scope: HOME, pageSize: 100, now: new Date() });
    const group = groups.find((g) => g.name === 'default')!;
    const blob = await w.db.blob.findUniqueOrThrow({ where: { id: group.blobId } });
    expect(blob).toMatchObject({ type: 'scheduler', alias: null, name: 'default' });

    await expect(deleteBlob(w.db, { actor, blobId: blob.id })).rejects.toMatchObject(PROTECTED);
    expect(await isDefaultScheduler(w.db, workflow.id)).toBe(false);
    await deleteBlob(w.db, { actor, blobId: workflow.id });
    // The seeded scheduler is an ordinary one.
    const seeded = await w.scheduler();
    expect(await isDefaultScheduler(w.db, seeded.blobId)).toBe(false);
  });

  it('each region has its own default, made by the first write there and never deleted; the product\'s schedulers stay in the home region', async () => {
    const actor = w.actor();
    const org = await orgAdministeredBy(actor.id, 'third-org', 'Third');
    const dflt = await createSchedulerBlob(w.db, { actor, org: 'third-org', alias: 'default' });
    const daily = await createSchedulerBlob(w.db, { actor, org: 'third-org', alias: 'daily-jobs' });
    const eu = { region: 'eu-west-1', homeRegion: 'us-east-1' };

    // A read answers eu-west-1's default before it is made, and makes nothing; the first write makes it.
    const unmade = await listScheduleGroups({ db: w.db, actor, orgId: org.id, scope: eu, pageSize: 100, now: new Date() });
    expect(unmade.groups.map((g) => [g.name, g.region, g.blobId])).toEqual([['default', 'eu-west-1', '']]);
    expect(await w.db.scheduleGroup.count({ where: { orgId: org.id, region: 'eu-west-1' } })).toBe(0);
    await tagScheduleGroup({ db: w.db, actor, orgId: org.id, scope: eu, name: 'default', tags: [], now: new Date() });
    const inEu = await listScheduleGroups({ db: w.db, actor, orgId: org.id, scope: eu, pageSize: 100, now: new Date() });
    expect(inEu.groups.map((g) => [g.name, g.region])).toEqual([['default', 'eu-west-1']]);
    const euDefault = inEu.groups[0].blobId;
    expect(euDefault).not.toBe(dflt.id);
    expect(await w.db.blob.findUniqueOrThrow({ where: { id: euDefault } })).toMatchObject({ type: 'scheduler', alias: null, name: 'default' });

    const home = await listScheduleGroups({ db: w.db, actor, orgId: org.id, scope: HOME, pageSize: 100, now: new Date() });
    expect(home.groups.map((g) => [g.name, g.region, g.blobId])).toEqual([
      ['daily-jobs', 'us-east-1', daily.id],
      ['default', 'us-east-1', dflt.id],
    ]);

    await expect(deleteScheduleGroup({ db: w.db, actor, orgId: org.id, name: 'default', scope: eu, now: new Date() })).rejects.toMatchObject(PROTECTED);
    await expect(deleteBlob(w.db, { actor, blobId: euDefault })).rejects.toMatchObject(PROTECTED);
    // The home region's daily-jobs is not seen from eu-west-1, and the other way round.
    await expect(deleteScheduleGroup({ db: w.db, actor, orgId: org.id, name: 'daily-jobs', scope: eu, now: new Date() })).rejects.toMatchObject({ code: 'not_found' });
    expect(await w.db.blob.count({ where: { id: daily.id } })).toBe(1);
  });

  it('a group made before regions (region "") is placed in the home region under its name, tags kept', async () => {
    const actor = w.actor();
    const org = await orgAdministeredBy(actor.id, 'fourth-org', 'Fourth');
    const blob = await createSchedulerBlob(w.db, { actor, org: 'fourth-org', alias: 'nightly' });
    const now = new Date();
    await w.db.scheduleGroup.create({ data: { blobId: blob.id, orgId: org.id, region: '', name: 'Nightly.Jobs', tags: [{ key: 'team', value: 'ops' }], createdAt: now, updatedAt: now } });
    const home = { region: 'eu-central-2', homeRegion: 'eu-central-2' };
    const { groups } = await listScheduleGroups({ db: w.db, actor, orgId: org.id, scope: home, pageSize: 100, now });
    expect(groups.map((g) => [g.name, g.region, g.tags])).toEqual([
      ['Nightly.Jobs', 'eu-central-2', [{ key: 'team', value: 'ops' }]],
      ['default', 'eu-central-2', []],
    ]);
    expect(await w.db.scheduleGroup.count({ where: { orgId: org.id, region: '' } })).toBe(0);
  });
});
