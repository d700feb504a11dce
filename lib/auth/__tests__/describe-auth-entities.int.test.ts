/**
 * A schedule's `created_by` (SPEC §5.1: `{type, id}`) named in human terms for the schedule page: a
 * user by name and email, an org (which acts only through an org API key) by name and alias, and a
 * deleted user or org still answered, with its id as the label.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../prisma/seed';
import type { Db } from '../../db';
import { createTestDb } from '../../testing/test-db';
import { createSchedule, getSchedule } from '../../schedules';
import { describeAuthEntities, type Actor } from '..';
import { TEST_LIMITS } from '../../testing/limits';

const LIMITS = TEST_LIMITS;
const TARGET = {
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
};

let db: Db;
let cleanup: () => Promise<void>;
let ctx: Awaited<ReturnType<typeof seed>>;
let scheduler: { id: string; blobId: string };

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  ctx = await seed(db, undefined, 'operator-password-1');
  const rev = await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } });
  scheduler = { id: rev.id, blobId: rev.blobId };
});
afterAll(async () => cleanup());

async function createdByOf(actor: Actor, alias: string) {
  const s = await createSchedule({
    db, actor, revision: scheduler, limits: LIMITS, now: new Date(),
    input: { alias, repeat: 'recurring_cron', cron_expression: '0 9 * * ? *', timezone: 'UTC', enabled: false, invocation_target: TARGET },
  });
  return (await getSchedule({ db, actor, revision: scheduler, scheduleRef: s.id })).created_by;
}

describe('describeAuthEntities', () => {
  it('names the user who created a schedule by name and email, and an org (org API key) by name and alias', async () => {
    const byUser = await createdByOf({ type: 'user', id: ctx.userId, roleCap: null }, 'made-by-user');
    const byOrg = await createdByOf({ type: 'org', id: ctx.orgId, roleCap: 'write' }, 'made-by-org-key');
    expect(await describeAuthEntities(db, [byUser, byOrg])).toEqual([
      { type: 'user', id: ctx.userId, label: 'Acme Operator', detail: 'operator@acme-corp.example', exists: true },
      { type: 'org', id: ctx.orgId, label: 'Acme Corp', detail: 'acme-corp', exists: true },
    ]);
  });

  it('a deleted creator still renders: its id is the label, in input order, duplicates answered each time', async () => {
    const gone = await db.user.create({ data: { email: 'gone@acme-corp.example', name: 'Gone Soon' } });
    await db.membership.create({ data: { userId: gone.id, orgId: ctx.orgId, role: 'write' } });
    const byGone = await createdByOf({ type: 'user', id: gone.id, roleCap: null }, 'made-by-gone-user');
    await db.$transaction((tx) => tx.user.delete({ where: { id: gone.id } }));
    const missingOrg = { type: 'org' as const, id: '00000000-0000-4000-8000-000000000000' };
    const user = { type: 'user' as const, id: ctx.userId };
    expect(await describeAuthEntities(db, [byGone, missingOrg, user, user])).toEqual([
      { type: 'user', id: gone.id, label: gone.id, detail: null, exists: false },
      { type: 'org', id: missingOrg.id, label: missingOrg.id, detail: null, exists: false },
      { type: 'user', id: ctx.userId, label: 'Acme Operator', detail: 'operator@acme-corp.example', exists: true },
      { type: 'user', id: ctx.userId, label: 'Acme Operator', detail: 'operator@acme-corp.example', exists: true },
    ]);
    expect(await describeAuthEntities(db, [])).toEqual([]);
  });
});
