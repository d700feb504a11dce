/**
 * `get_schedule` (SPEC §3.1) reads the schedule and checks the caller's access in one statement
 * (docs/decisions.md 385); its answers and refusals are the ones it always had: the schedule by id or
 * alias for anyone who can read the scheduler (org role, grant, read key), `404 not_found` for a
 * caller who cannot (whether or not the schedule exists), `404 schedule_not_found` for a reader
 * asking for a schedule that is not there (or is another scheduler's).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../prisma/seed';
import type { Actor } from '../../auth';
import { insertSchedules } from '../../testing/insert-schedules';
import { createTestDb, type TestDb } from '../../testing/test-db';
import { getSchedule } from '../read/list-schedules';
import { toSchedule } from '../read/serialize';

let t: TestDb;
let revision: { id: string; blobId: string };
let orgId: string;
let scheduleId: string;
let otherRevision: { id: string; blobId: string };
let otherScheduleId: string;
const actors: Record<string, Actor> = {};

beforeAll(async () => {
  t = await createTestDb();
  const ctx = await seed(t.db, undefined, 'get-schedule-password-1');
  orgId = ctx.orgId;
  revision = await t.db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId }, select: { id: true, blobId: true } });
  const target = { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' } };
  [scheduleId] = await insertSchedules(t.db, [{ revisionId: revision.id, alias: 'nightly', createdBy: { type: 'org', id: orgId }, invocationTarget: target, nextFireAt: new Date('2030-01-01T00:00:00Z'), description: 'Nightly' }]);
  // A second scheduler of the same org, and users: a stranger, a user granted read on the first scheduler only.
  const blob = await t.db.blob.create({ data: { orgId, type: 'scheduler', name: 'other', alias: 'other-scheduler' } });
  otherRevision = { id: (await t.db.revision.create({ data: { blobId: blob.id, state: 'managed' } })).id, blobId: blob.id };
  [otherScheduleId] = await insertSchedules(t.db, [{ revisionId: otherRevision.id, createdBy: { type: 'org', id: orgId }, invocationTarget: target, nextFireAt: null }]);
  const stranger = await t.db.user.create({ data: { email: 'stranger@example.test', name: 'Stranger' } });
  const granted = await t.db.user.create({ data: { email: 'granted@example.test', name: 'Granted' } });
  await t.db.blobGrant.create({ data: { blobId: revision.blobId, granteeType: 'user', granteeId: granted.id, role: 'read' } });
  actors.org = { type: 'org', id: orgId, roleCap: 'write' };
  actors.orgRead = { type: 'org', id: orgId, roleCap: 'read' };
  actors.operator = { type: 'user', id: ctx.userId, roleCap: null };
  actors.granted = { type: 'user', id: granted.id, roleCap: 'read' };
  actors.stranger = { type: 'user', id: stranger.id, roleCap: null };
});
afterAll(() => t.cleanup());

const get = (actor: Actor, scheduleRef: string, rev = revision) => getSchedule({ db: t.db, actor, revision: rev, scheduleRef });

describe('get_schedule', () => {
  it('answers the stored schedule by id and by alias (trimmed, any case) to every reader', async () => {
    const expected = toSchedule(await t.db.schedule.findUniqueOrThrow({ where: { id: scheduleId } }));
    expect(expected).toMatchObject({ id: scheduleId, alias: 'nightly', description: 'Nightly' });
    for (const name of ['org', 'orgRead', 'operator', 'granted']) {
      expect(await get(actors[name], scheduleId), name).toEqual(expected);
      expect(await get(actors[name], ` ${scheduleId.toUpperCase()} `), name).toEqual(expected);
      expect(await get(actors[name], 'NIGHTLY'), name).toEqual(expected);
    }
  });

  it('refuses a caller who cannot read the scheduler with 404 not_found, whether the schedule exists or not', async () => {
    for (const ref of [scheduleId, 'nightly', randomUUID(), 'no-such-alias']) {
      await expect(get(actors.stranger, ref)).rejects.toMatchObject({ code: 'not_found', message: 'revision not found' });
    }
    // The grant is on the first scheduler only.
    await expect(get(actors.granted, otherScheduleId, otherRevision)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('answers 404 schedule_not_found to a reader for a missing schedule or another scheduler\'s', async () => {
    for (const ref of [randomUUID(), 'no-such-alias', otherScheduleId]) {
      await expect(get(actors.org, ref)).rejects.toMatchObject({ code: 'schedule_not_found', path: 'schedule_id' });
    }
    expect((await get(actors.org, otherScheduleId, otherRevision)).id).toBe(otherScheduleId);
  });
});
