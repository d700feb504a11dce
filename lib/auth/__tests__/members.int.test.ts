/**
 * Org members and invitations (SPEC §2, docs/decisions.md 26, 51): an org admin invites an email and
 * gets a one-time link (only its hash is stored; 7 days; single use); the invitee makes an account
 * with its own password, or accepts while logged in; no account is ever made or attached by the admin.
 * Roles change and members leave; the org always keeps an admin; an org the caller holds no role on
 * answers as one that does not exist; blob grants tell nothing about other tenants.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../prisma/seed';
import type { Db } from '../../db';
import { createTestDb } from '../../testing/test-db';
import {
  acceptInvitationAsUser,
  acceptInvitationWithNewAccount,
  changeMemberRole,
  findInvitation,
  grantBlobAccess,
  hashSecret,
  INVITATION_TTL_MS,
  inviteOrgMember,
  listBlobGrants,
  listOrgInvitations,
  listOrgMembers,
  listUserOrgs,
  login,
  orgRole,
  removeOrgMember,
  revokeBlobGrant,
  revokeInvitation,
  type Actor,
} from '..';

let db: Db;
let cleanup: () => Promise<void>;
let operator: Actor;
let orgId: string;
let globexAdmin: Actor;
let globexId: string;
const now = new Date('2026-03-01T12:00:00.000Z');

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  const ctx = await seed(db, undefined, 'operator-password-1');
  operator = { type: 'user', id: ctx.userId, roleCap: null };
  orgId = ctx.orgId;
  const globex = await db.org.create({ data: { alias: 'globex-corp', name: 'Globex' } });
  globexId = globex.id;
  const admin = await db.user.create({ data: { email: 'admin@globex.example', name: 'Globex admin' } });
  await db.membership.create({ data: { userId: admin.id, orgId: globex.id, role: 'admin' } });
  globexAdmin = { type: 'user', id: admin.id, roleCap: null };
});
afterAll(async () => cleanup());

const invite = (actor: Actor, org: string, email: string, role: 'read' | 'write' | 'admin' = 'read', at = now) =>
  inviteOrgMember(db, { actor, org, input: { email, role }, now: at });

describe('invitations', () => {
  it('an invitation makes no account and stores only the hash of its 256-bit link token; the invitee chooses the password', async () => {
    const inv = await invite(operator, 'acme-corp', 'new.member@acme-corp.example', 'read');
    expect(inv.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(inv.expiresAt.toISOString()).toBe(new Date(now.getTime() + INVITATION_TTL_MS).toISOString()); // 2026-03-08T12:00Z
    expect(await db.user.count({ where: { email: 'new.member@acme-corp.example' } })).toBe(0);
    const row = await db.invitation.findUniqueOrThrow({ where: { id: inv.id } });
    expect(row.tokenHash).toBe(hashSecret(inv.token));
    expect(JSON.stringify(row)).not.toContain(inv.token);

    const accepted = await acceptInvitationWithNewAccount(db, { token: inv.token, password: 'my own password 1', now });
    expect(accepted.user.email).toBe('new.member@acme-corp.example');
    const session = await login(db, { email: 'new.member@acme-corp.example', password: 'my own password 1', client: 'test', now });
    expect(await orgRole(db, session.actor, orgId)).toBe('read');
    expect(await listUserOrgs(db, { actor: session.actor })).toEqual([{ id: orgId, alias: 'acme-corp', name: 'Acme Corp', role: 'read' }]);
    // Single use: the link is dead, and the row is gone.
    expect(await findInvitation(db, inv.token, now)).toBeNull();
    await expect(acceptInvitationWithNewAccount(db, { token: inv.token, password: 'another password 2', now })).rejects.toMatchObject({ code: 'not_found', status: 404 });
    // Inviting a member of this org again is 409.
    await expect(invite(operator, 'acme-corp', 'new.member@acme-corp.example', 'write')).rejects.toMatchObject({ code: 'already_member', status: 409 });
  });

  it('pre-hijack: two orgs invite one email; a link never sets the password of an existing account, and the other org joins only when the owner accepts logged in', async () => {
    const email = 'victim@example.com';
    const fromGlobex = await invite(globexAdmin, 'globex-corp', email, 'admin');
    const fromAcme = await invite(operator, 'acme-corp', email, 'write');
    // Each org sees only its own invitation.
    expect((await listOrgInvitations(db, { actor: globexAdmin, org: 'globex-corp', now })).map((i) => i.email)).toEqual([email]);
    expect((await listOrgInvitations(db, { actor: operator, org: 'acme-corp', now })).filter((i) => i.email === email)).toHaveLength(1);
    expect((await listOrgInvitations(db, { actor: operator, org: 'acme-corp', now })).map((i) => i.id)).not.toContain(fromGlobex.id);
    // The invitee makes the account with acme's link.
    const made = await acceptInvitationWithNewAccount(db, { token: fromAcme.token, password: 'victim password 1', now });
    // Globex's link (held by globex's admin) makes globex's own account: the victim's keeps its password and gains nothing.
    const other = await acceptInvitationWithNewAccount(db, { token: fromGlobex.token, password: 'attacker password', now });
    expect(other.user.id).not.toBe(made.user.id);
    const victim = await login(db, { email, password: 'victim password 1', client: 'test', now });
    expect(victim.user.id).toBe(made.user.id);
    expect(await orgRole(db, victim.actor, globexId)).toBeNull();
    expect((await login(db, { email, password: 'attacker password', client: 'test', now })).user.id).toBe(other.user.id);
    // Another user holding a link cannot accept it for themselves.
    const again = await invite(globexAdmin, 'globex-corp', email, 'admin').catch((e: unknown) => e);
    expect(again).toMatchObject({ code: 'already_member' }); // globex's own account of the email is its member
    const fromGlobex2 = await invite(globexAdmin, 'globex-corp', 'victim2@example.com', 'admin');
    await expect(acceptInvitationAsUser(db, { actor: operator, token: fromGlobex2.token, now })).rejects.toMatchObject({ code: 'forbidden' });
    // The owner, logged in, accepts a link of its email: now (and only now) its account holds that org's role.
    const initech = await db.org.create({ data: { alias: 'initech-corp', name: 'Initech' } });
    await db.membership.create({ data: { userId: globexAdmin.id, orgId: initech.id, role: 'admin' } });
    const fromInitech = await invite(globexAdmin, 'initech-corp', email, 'read');
    await acceptInvitationAsUser(db, { actor: victim.actor, token: fromInitech.token, now });
    expect(await orgRole(db, victim.actor, initech.id)).toBe('read');
    expect(await orgRole(db, { type: 'user', id: other.user.id, roleCap: null }, initech.id)).toBeNull();
    expect(await findInvitation(db, fromInitech.token, now)).toBeNull();
  });

  it('answers alike whether or not the email has an account; re-inviting replaces the link; links expire after 7 days and can be withdrawn', async () => {
    const existing = await invite(operator, 'acme-corp', 'admin@globex.example', 'read');
    const fresh = await invite(operator, 'acme-corp', 'nobody-yet@example.com', 'read');
    expect(Object.keys(existing).sort()).toEqual(Object.keys(fresh).sort());
    expect([existing.email, existing.role]).toEqual(['admin@globex.example', 'read']);

    const again = await invite(operator, 'acme-corp', 'nobody-yet@example.com', 'write');
    expect(await findInvitation(db, fresh.token, now)).toBeNull();
    expect(await findInvitation(db, again.token, now)).toMatchObject({ email: 'nobody-yet@example.com', role: 'write' });
    const expiry = new Date(now.getTime() + INVITATION_TTL_MS);
    expect(await findInvitation(db, again.token, expiry)).toBeNull();
    await expect(acceptInvitationWithNewAccount(db, { token: again.token, password: 'late password 1', now: expiry })).rejects.toMatchObject({ code: 'not_found' });
    expect((await listOrgInvitations(db, { actor: operator, org: 'acme-corp', now: expiry })).find((i) => i.id === again.id)?.expired).toBe(true);

    await revokeInvitation(db, { actor: operator, org: 'acme-corp', invitationId: existing.id });
    expect(await findInvitation(db, existing.token, now)).toBeNull();
    // Another org's admin cannot withdraw it (and learns nothing): not found.
    await expect(revokeInvitation(db, { actor: globexAdmin, org: 'globex-corp', invitationId: again.id })).rejects.toMatchObject({ code: 'not_found', message: 'invitation not found' });
  });
});

describe('members', () => {
  it('roles change and members leave at once; the last admin can be neither demoted nor removed', async () => {
    const inv = await invite(operator, 'acme-corp', 'second@acme-corp.example', 'write');
    const second: Actor = { type: 'user', id: (await acceptInvitationWithNewAccount(db, { token: inv.token, password: 'second password 1', now })).user.id, roleCap: null };
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
      await expect(invite(actor, org, 'x@example.com', 'admin')).rejects.toMatchObject({ code: 'not_found', message: 'org not found' });
    }
    expect(await db.invitation.count({ where: { email: 'x@example.com' } })).toBe(0);
  });
});

describe('blob grants tell nothing about other tenants', () => {
  it("a user grant answers alike for an email with and without an account elsewhere; only the org's own link gives it", async () => {
    const blob = (await db.blob.findFirstOrThrow({ where: { orgId, alias: 'procedures' } })).id;
    const withAccount = await grantBlobAccess(db, { actor: operator, org: 'acme-corp', input: { blob, grantee_type: 'user', grantee: 'admin@globex.example', role: 'read' }, now });
    const without = await grantBlobAccess(db, { actor: operator, org: 'acme-corp', input: { blob, grantee_type: 'user', grantee: 'Later@Example.com', role: 'read' }, now });
    expect([withAccount.grantee.type, withAccount.grantee.label, withAccount.pending]).toEqual(['user', 'admin@globex.example', true]);
    expect([without.grantee.type, without.grantee.label, without.pending]).toEqual(['user', 'later@example.com', true]);
    expect(withAccount.invitation?.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(without.invitation?.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const listed = (await listBlobGrants(db, { actor: operator, org: 'acme-corp' })).grants.map((g) => [g.grantee.type, g.grantee.label, g.pending]);
    expect(listed).toEqual(expect.arrayContaining([['user', 'admin@globex.example', true], ['user', 'later@example.com', true]]));
    // The link carries blob grants only: it is listed as such, and shows what it gives.
    expect((await listOrgInvitations(db, { actor: operator, org: 'acme-corp', now })).find((i) => i.email === 'later@example.com')).toMatchObject({ role: null, grants: 1 });
    expect(await findInvitation(db, without.invitation!.token, now)).toMatchObject({ role: null, grants: [{ blob: 'procedures', role: 'read' }] });

    // Another org's link makes an account that holds nothing of acme's.
    const inv = await invite(globexAdmin, 'globex-corp', 'later@example.com', 'read');
    const viaGlobex = await acceptInvitationWithNewAccount(db, { token: inv.token, password: 'later password 1', now });
    expect(await db.blobGrant.count({ where: { granteeType: 'user', granteeId: viaGlobex.user.id } })).toBe(0);
    // acme's link, accepted logged in as that account, gives it the grant (and no membership).
    await acceptInvitationAsUser(db, { actor: { type: 'user', id: viaGlobex.user.id, roleCap: null }, token: without.invitation!.token, now });
    expect((await db.blobGrant.findFirstOrThrow({ where: { blobId: blob, granteeType: 'user', granteeId: viaGlobex.user.id } })).role).toBe('read');
    expect(await orgRole(db, { type: 'user', id: viaGlobex.user.id, roleCap: null }, orgId)).toBeNull();
    expect(await db.blobGrant.count({ where: { granteeType: 'email', granteeId: 'later@example.com' } })).toBe(0);

    // Revoking the last pending grant of a blob-access-only link withdraws the link; withdrawing a link drops its grants.
    const g = await db.blobGrant.findFirstOrThrow({ where: { blobId: blob, granteeType: 'email', granteeId: 'admin@globex.example' } });
    await revokeBlobGrant(db, { actor: operator, grantId: g.id });
    expect(await findInvitation(db, withAccount.invitation!.token, now)).toBeNull();
    const third = await grantBlobAccess(db, { actor: operator, org: 'acme-corp', input: { blob, grantee_type: 'user', grantee: 'third@example.com', role: 'write' }, now });
    const thirdInvitation = await db.invitation.findFirstOrThrow({ where: { orgId, email: 'third@example.com' } });
    await revokeInvitation(db, { actor: operator, org: 'acme-corp', invitationId: thirdInvitation.id });
    expect(await db.blobGrant.count({ where: { id: third.id } })).toBe(0);
  });

  it('an org is named by alias only when the caller belongs to it; a foreign alias and a missing one get the same refusal; any org by id', async () => {
    const blob = (await db.blob.findFirstOrThrow({ where: { orgId, alias: 'procedures' } })).id;
    const refusal = async (grantee: string) => {
      const e = await grantBlobAccess(db, { actor: operator, org: 'acme-corp', input: { blob, grantee_type: 'org', grantee, role: 'read' }, now }).catch((x: unknown) => x);
      return JSON.stringify({ code: (e as { code?: string }).code, message: (e as Error).message, path: (e as { path?: string }).path });
    };
    expect(await refusal('globex-corp')).toBe(await refusal('no-such-org'));
    expect(await refusal('globex-corp')).toBe(await refusal('00000000-0000-4000-8000-000000000000'));
    expect(JSON.parse(await refusal('globex-corp'))).toMatchObject({ code: 'invalid_request_body', path: 'grantee' });
    const byId = await grantBlobAccess(db, { actor: operator, org: 'acme-corp', input: { blob, grantee_type: 'org', grantee: globexId, role: 'read' }, now });
    expect(byId.grantee).toMatchObject({ type: 'org', id: globexId, label: 'globex-corp' });
    expect((await grantBlobAccess(db, { actor: operator, org: 'acme-corp', input: { blob, grantee_type: 'org', grantee: 'acme-corp', role: 'read' }, now })).grantee.id).toBe(orgId);
  });
});
