/**
 * SPEC §2, §8, §8.1: a fire acts with the standing of the schedule's `created_by` AT FIRE TIME. Here
 * the creator's only reach into the target is a BLOB GRANT from another org: revoking it through the
 * admin function makes the next fire record `access_denied` (and create no execution); granting it
 * again makes the following fire succeed. Real database, real domain functions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../prisma/seed';
import type { Db } from '../../db';
import { createSchedule, fireOccurrence, toRun, type Run } from '../../schedules';
import { createTestDb } from '../../testing/test-db';
import { createDefinition, createSession } from '../../workflows';
import { acceptInvitationAsUser, acceptInvitationWithNewAccount, grantBlobAccess, inviteOrgMember, listBlobGrants, revokeBlobGrant, type Actor } from '..';
import { TEST_LIMITS } from '../../testing/limits';

const LIMITS = TEST_LIMITS;

let db: Db;
let cleanup: () => Promise<void>;
let operator: Actor; // admin of acme-corp (seeded)
let globexAdmin: Actor; // admin of globex-corp
let creator: Actor; // write member of acme-corp, no role on globex-corp
let scheduler: { id: string; blobId: string };

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  const ctx = await seed(db, undefined, 'operator-password-1');
  operator = { type: 'user', id: ctx.userId, roleCap: null };
  scheduler = { id: ctx.schedulerRevisionId, blobId: (await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } })).blobId };

  // A second tenant with its own admin and a workflow blob holding a session and a definition.
  const globex = await db.org.create({ data: { alias: 'globex-corp', name: 'Globex' } });
  const admin = await db.user.create({ data: { email: 'admin@globex.example', name: 'Globex admin' } });
  await db.membership.create({ data: { userId: admin.id, orgId: globex.id, role: 'admin' } });
  globexAdmin = { type: 'user', id: admin.id, roleCap: null };
  for (const alias of ['globex-flows', 'globex-library']) {
    const blob = await db.blob.create({ data: { orgId: globex.id, alias, type: 'workflow', name: alias } });
    const rev = await db.revision.create({ data: { blobId: blob.id, state: 'draft' } });
    await db.blob.update({ where: { id: blob.id }, data: { defaultRevisionId: rev.id } });
    await createSession(db, { actor: globexAdmin, revisionId: rev.id, alias: 'work-session' });
    await createDefinition(db, { actor: globexAdmin, revisionId: rev.id, alias: 'work-def', name: 'Work' });
  }

  // The creator: invited to acme-corp by its admin, makes its account with the link; nothing in globex-corp.
  const inv = await inviteOrgMember(db, { actor: operator, org: 'acme-corp', input: { email: 'creator@acme-corp.example', role: 'write' }, now: new Date() });
  const accepted = await acceptInvitationWithNewAccount(db, { token: inv.token, password: 'creator-password-1', now: new Date() });
  creator = { type: 'user', id: accepted.user.id, roleCap: null };
});
afterAll(async () => cleanup());

/**
 * globex grants the creator `role` on `blob` by email; when globex does not know the account yet, the
 * grant waits for globex's link, which the creator accepts logged in (docs/decisions.md 160).
 */
async function grant(blob: string, role: 'read' | 'write' | 'admin') {
  const g = await grantBlobAccess(db, { actor: globexAdmin, org: 'globex-corp', input: { blob, grantee_type: 'user', grantee: 'creator@acme-corp.example', role }, now: new Date() });
  if (!g.pending) return g;
  await acceptInvitationAsUser(db, { actor: creator, token: g.invitation!.token, now: new Date() });
  return { ...g, id: (await db.blobGrant.findFirstOrThrow({ where: { blobId: g.blob.id, granteeType: 'user', granteeId: creator.id } })).id };
}

async function save(invocationTarget: object) {
  return createSchedule({
    db, actor: creator, revision: scheduler, limits: LIMITS, now: new Date(),
    input: { repeat: 'recurring_cron', cron_expression: '0 * * * ? *', timezone: 'UTC', description: 'grant test', invocation_target: invocationTarget },
  });
}

/** Fire the schedule's due occurrence as the worker would. */
async function fireNext(scheduleId: string): Promise<Run> {
  const row = await db.schedule.findUniqueOrThrow({ where: { id: scheduleId } });
  const out = await fireOccurrence({ db, scheduleId, scheduledFor: row.nextFireAt!, now: new Date(row.nextFireAt!.getTime() + 200), limits: LIMITS });
  expect(out.kind).toBe('fired');
  return toRun(await db.run.findFirstOrThrow({ where: { scheduleId }, orderBy: { createdAt: 'desc' } }));
}

const executionsOf = (scheduleId: string) => db.execution.count({ where: { scheduleId } });

describe('§8.1 access_denied through a blob grant', () => {
  it('revoking the creator\'s blob grant on the target makes the next fire access_denied; granting it again makes the following fire succeed', async () => {
    const first = await grant('globex-flows', 'write');
    const s = await save({ target: { org: 'globex-corp', blob: 'globex-flows', revision: 'default', session: 'work-session' }, workflow: { definition: 'work-def' } });
    expect(s.created_by).toEqual({ type: 'user', id: creator.id });

    expect((await fireNext(s.id)).status).toBe('success');
    expect(await executionsOf(s.id)).toBe(1);

    await revokeBlobGrant(db, { actor: globexAdmin, grantId: first.id });
    const denied = await fireNext(s.id);
    expect(denied.status).toBe('invocation_error');
    expect(denied.result).toMatchObject({ error: 'access_denied' });
    expect(await executionsOf(s.id)).toBe(1);
    // A refused fire does not stop a recurring schedule (SPEC §8).
    expect((await db.schedule.findUniqueOrThrow({ where: { id: s.id } })).state).toBe('active');

    await grant('globex-flows', 'write');
    const restored = await fireNext(s.id);
    expect(restored.status).toBe('success');
    expect(await executionsOf(s.id)).toBe(2);
  });

  it('lowering the grant to read is enough to deny: a fire needs write on the target', async () => {
    await grant('globex-flows', 'write');
    const s = await save({ target: { org: 'globex-corp', blob: 'globex-flows', revision: 'default', session: 'work-session' }, workflow: { definition: 'work-def' } });
    await grant('globex-flows', 'read');
    expect((await fireNext(s.id)).result).toMatchObject({ error: 'access_denied' });
    await grant('globex-flows', 'write');
    expect((await fireNext(s.id)).status).toBe('success');
  });

  it('revoking the read grant on a qualified workflow source makes the next fire access_denied', async () => {
    await grant('globex-flows', 'write');
    const library = await grant('globex-library', 'read');
    const s = await save({
      target: { org: 'globex-corp', blob: 'globex-flows', revision: 'default', session: 'work-session' },
      workflow: { org: 'globex-corp', blob: 'globex-library', definition: 'work-def' },
    });
    expect((await fireNext(s.id)).status).toBe('success');
    await revokeBlobGrant(db, { actor: globexAdmin, grantId: library.id });
    expect((await fireNext(s.id)).result).toMatchObject({ error: 'access_denied' });
  });

  it('only an admin of the blob can grant or revoke: the creator\'s own org admin cannot touch globex grants, and the refusal looks like absence', async () => {
    const g = await grant('globex-flows', 'write');
    await expect(grantBlobAccess(db, { actor: operator, org: 'globex-corp', input: { blob: 'globex-flows', grantee_type: 'user', grantee: 'creator@acme-corp.example', role: 'admin' }, now: new Date() }))
      .rejects.toMatchObject({ code: 'not_found', message: 'blob not found' });
    await expect(grantBlobAccess(db, { actor: operator, org: 'globex-corp', input: { blob: 'no-such-blob', grantee_type: 'user', grantee: 'creator@acme-corp.example', role: 'admin' }, now: new Date() }))
      .rejects.toMatchObject({ code: 'not_found', message: 'blob not found' });
    await expect(revokeBlobGrant(db, { actor: operator, grantId: g.id })).rejects.toMatchObject({ code: 'not_found', message: 'grant not found' });
    await expect(revokeBlobGrant(db, { actor: operator, grantId: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({ code: 'not_found', message: 'grant not found' });
    // A key (even of the blob's admin) cannot manage grants: account management is for a browser login.
    await expect(revokeBlobGrant(db, { actor: { ...globexAdmin, roleCap: 'write' }, grantId: g.id })).rejects.toMatchObject({ code: 'forbidden' });
    expect((await listBlobGrants(db, { actor: globexAdmin, org: 'globex-corp' })).grants.map((x) => x.id)).toContain(g.id);
  });
});
