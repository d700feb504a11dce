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
import { deleteScheduleGroup, listScheduleGroups } from '../groups/schedule-group-verbs';

const w = useSeededScheduler();
const PROTECTED = {
  code: 'default_scheduler_protected',
  status: 400,
  message: 'this is the org\'s default scheduler (schedule group "default"), which is never deleted; delete its schedules instead',
};

describe('the default scheduler is never deleted (SPEC §14)', () => {
  it('an org\'s scheduler aliased "default", before and after its groups exist: deleteBlob and DeleteScheduleGroup refuse alike', async () => {
    const actor = w.actor();
    const org = await w.db.org.create({ data: { alias: 'second-org', name: 'Second' } });
    await w.db.membership.create({ data: { userId: actor.id, orgId: org.id, role: 'admin' } });
    const dflt = await createSchedulerBlob(w.db, { actor, org: 'second-org', alias: 'default' });
    const other = await createSchedulerBlob(w.db, { actor, org: 'second-org', alias: 'other-scheduler' });
    expect(await w.db.scheduleGroup.count({ where: { orgId: org.id } })).toBe(0);

    expect(await isDefaultScheduler(w.db, dflt.id)).toBe(true);
    await expect(deleteBlob(w.db, { actor, blobId: dflt.id })).rejects.toMatchObject(PROTECTED);

    // The EventBridge API's first request makes the groups: the blob aliased "default" is group "default".
    const { groups } = await listScheduleGroups({ db: w.db, actor, orgId: org.id, pageSize: 100, now: new Date() });
    expect(groups.map((g) => [g.name, g.blobId])).toEqual([['default', dflt.id], ['other-scheduler', other.id]]);
    await expect(deleteBlob(w.db, { actor, blobId: dflt.id })).rejects.toMatchObject(PROTECTED);
    await expect(deleteScheduleGroup({ db: w.db, actor, orgId: org.id, name: 'default', now: new Date() })).rejects.toMatchObject(PROTECTED);
    expect(await w.db.blob.count({ where: { id: dflt.id } })).toBe(1);

    // Any other scheduler is deleted as before.
    expect(await isDefaultScheduler(w.db, other.id)).toBe(false);
    await deleteBlob(w.db, { actor, blobId: other.id });
    expect(await w.db.blob.count({ where: { id: other.id } })).toBe(0);
  });

  it('a default made on first use without the alias (a workflow blob holds "default") is found by its group; that workflow blob is deleted as before', async () => {
    const actor = w.actor();
    const workflow = await createWorkflowBlob(w.db, { actor, org: 'acme-corp', alias: 'default' });
    const { groups } = await listScheduleGroups({ db: w.db, actor, orgId: w.ctx.orgId, pageSize: 100, now: new Date() });
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
});
