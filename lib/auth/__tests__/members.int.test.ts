/**
 * Org members (SPEC §2): an org admin adds members by email (a new email gets an account with a
 * one-time password), changes roles and removes members; the org always keeps an admin; an org the
 * caller holds no role on answers as one that does not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../prisma/seed';
import type { Db } from '../../db';
import { createTestDb } from '../../testing/test-db';
import { addOrgMember, changeMemberRole, listOrgMembers, listUserOrgs, login, orgRole, removeOrgMember, type Actor } from '..';

let db: Db;
let cleanup: () => Promise<void>;
let operator: Actor;
let orgId: string;
const now = new Date('2026-03-01T12:00:00.000Z');

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  const ctx = await seed(db, undefined, 'operator-password-1');
  operator = { type: 'user', id: ctx.userId, roleCap: null };
  orgId = ctx.orgId;
});
afterAll(async () => cleanup());

describe('members', () => {
  it('adding a new email creates the account with a one-time password that logs in; only its hash is stored', async () => {
    const added = await addOrgMember(db, { actor: operator, org: 'acme-corp', input: { email: 'new.member@acme-corp.example', role: 'read' }, now });
    expect(added.generatedPassword).toBeTruthy();
    const user = await db.user.findUniqueOrThrow({ where: { id: added.userId } });
    expect(user.passwordHash).toMatch(/^scrypt\$/);
    expect(user.passwordHash).not.toContain(added.generatedPassword!);
    const session = await login(db, { email: 'new.member@acme-corp.example', password: added.generatedPassword!, client: 'test', now });
    expect(await orgRole(db, session.actor, orgId)).toBe('read');
    expect(await listUserOrgs(db, { actor: session.actor })).toEqual([{ id: orgId, alias: 'acme-corp', name: 'Acme Corp', role: 'read' }]);
    // Adding an existing account answers no password; adding a member again is 409.
    await expect(addOrgMember(db, { actor: operator, org: 'acme-corp', input: { email: 'new.member@acme-corp.example', role: 'write' }, now })).rejects.toMatchObject({ code: 'already_member', status: 409 });
  });

  it('roles change and members leave at once; the last admin can be neither demoted nor removed', async () => {
    const added = await addOrgMember(db, { actor: operator, org: 'acme-corp', input: { email: 'second@acme-corp.example', role: 'write' }, now });
    const second: Actor = { type: 'user', id: added.userId, roleCap: null };
    await expect(changeMemberRole(db, { actor: operator, org: 'acme-corp', input: { user_id: operator.id, role: 'write' } })).rejects.toMatchObject({ code: 'last_admin' });
    await expect(removeOrgMember(db, { actor: operator, org: 'acme-corp', userId: operator.id })).rejects.toMatchObject({ code: 'last_admin' });
    // A write member cannot manage members (403: it knows the org), even itself.
    await expect(changeMemberRole(db, { actor: second, org: 'acme-corp', input: { user_id: second.id, role: 'admin' } })).rejects.toMatchObject({ code: 'forbidden' });

    await changeMemberRole(db, { actor: operator, org: 'acme-corp', input: { user_id: second.id, role: 'admin' } });
    expect(await orgRole(db, second, orgId)).toBe('admin');
    // Now there are two admins: the second may remove the operator's admin role and re-add it.
    await changeMemberRole(db, { actor: second, org: 'acme-corp', input: { user_id: operator.id, role: 'read' } });
    expect(await orgRole(db, operator, orgId)).toBe('read');
    await changeMemberRole(db, { actor: second, org: 'acme-corp', input: { user_id: operator.id, role: 'admin' } });

    await removeOrgMember(db, { actor: operator, org: 'acme-corp', userId: second.id });
    expect(await orgRole(db, second, orgId)).toBeNull();
    await expect(removeOrgMember(db, { actor: operator, org: 'acme-corp', userId: second.id })).rejects.toMatchObject({ code: 'not_found', message: 'member not found' });
  });

  it('an org the caller holds no role on answers exactly as a missing org', async () => {
    const outsider = await db.user.create({ data: { email: 'outsider@globex.example', name: 'Outsider' } });
    const actor: Actor = { type: 'user', id: outsider.id, roleCap: null };
    for (const org of ['acme-corp', orgId, 'no-such-org', '00000000-0000-4000-8000-000000000000']) {
      await expect(listOrgMembers(db, { actor, org })).rejects.toMatchObject({ code: 'not_found', message: 'org not found' });
      await expect(addOrgMember(db, { actor, org, input: { email: 'x@example.com', role: 'admin' }, now })).rejects.toMatchObject({ code: 'not_found', message: 'org not found' });
    }
    // The refused add created no account.
    expect(await db.user.count({ where: { email: 'x@example.com' } })).toBe(0);
  });
});
