/**
 * Accounts across orgs (docs/decisions.md 160): an invitation link is the only proof of an email the
 * product has, and the admin who made it holds it too. So an org's link never makes, nor takes over,
 * the account that another org's grants or invitations name: a grant by email is a pending invitation
 * of the granting org, redeemed only by that org's link. Driven through the real handlers: the
 * invitation page's form target (`POST /auth/invitations/accept`, lib/api/web-login.ts), the login
 * endpoint and the product API's route (`create_execution` with the account's own API key), on a real
 * database; the admins' steps are the domain calls their admin page's server actions make.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../prisma/seed';
import { closeDb, getDb, type Db } from '../../../lib/db';
import { createTestDb, type TestDb } from '../../../lib/testing/test-db';
import { acceptInvitationResponse, loginResponse } from '../../../lib/api';
import {
  createApiKey,
  findWebSession,
  grantBlobAccess,
  inviteOrgMember,
  listBlobGrants,
  orgRole,
  type Actor,
} from '../../../lib/auth';

type RouteModule = { POST: (req: Request, ctx: { params: Promise<{ revisionId: string }> }) => Promise<Response> };

const VICTIM = 'newhire@acme-corp.example';
let t: TestDb;
let db: Db;
let route: RouteModule;
let acmeAdmin: Actor;
let acmeId: string;
let globexAdmin: Actor;
let globexId: string;
let proceduresRevision: string;
let proceduresBlob: string;
const now = new Date();

beforeAll(async () => {
  t = await createTestDb();
  const ctx = await seed(t.db, undefined, 'operator-password-1');
  await t.db.$disconnect();
  // The handlers use the process's client (lib/api runtime()): make it this database's.
  await closeDb();
  db = getDb({ databaseUrl: t.url, databasePoolSize: 2 });
  acmeAdmin = { type: 'user', id: ctx.userId, roleCap: null };
  acmeId = ctx.orgId;
  proceduresRevision = ctx.proceduresRevisionId;
  proceduresBlob = (await db.revision.findUniqueOrThrow({ where: { id: ctx.proceduresRevisionId } })).blobId;
  const globex = await db.org.create({ data: { alias: 'globex-corp', name: 'Globex' } });
  globexId = globex.id;
  const admin = await db.user.create({ data: { email: 'admin@globex.example', name: 'Globex admin' } });
  await db.membership.create({ data: { userId: admin.id, orgId: globex.id, role: 'admin' } });
  globexAdmin = { type: 'user', id: admin.id, roleCap: null };
  route = (await import('../../api/v1/revisions/[revisionId]/data/route')) as unknown as RouteModule;
});
afterAll(async () => {
  await closeDb();
  await t.cleanup();
});

/** The invitation page's "make your account" form, as JSON: status and body. */
async function acceptWithPassword(token: string, password: string): Promise<{ status: number; body: Record<string, unknown>; cookie: string | null }> {
  const res = await acceptInvitationResponse(
    new Request('http://127.0.0.1/auth/invitations/accept', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, password }) }),
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, cookie: res.headers.get('set-cookie') };
}

/** The invitation page's "accept" button for the browser session `cookie`. */
async function acceptLoggedIn(token: string, cookie: string): Promise<number> {
  const res = await acceptInvitationResponse(
    new Request('http://127.0.0.1/auth/invitations/accept', { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ token }) }),
  );
  return res.status;
}

/** `POST /auth/login` (JSON): the session cookie and user, or the refusal's status. */
async function logIn(email: string, password: string, client = '10.1.0.1'): Promise<{ status: number; cookie: string; userId: string | null }> {
  const res = await loginResponse(
    new Request('http://127.0.0.1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json', 'x-scheduler-client-address': client }, body: JSON.stringify({ email, password }) }),
  );
  const body = (await res.json()) as { user?: { id: string } };
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  return { status: res.status, cookie, userId: body.user?.id ?? null };
}

const actorOf = (userId: string): Actor => ({ type: 'user', id: userId, roleCap: null });

/** `create_execution` in acme's `procedures` with a personal write key of user `userId`: the HTTP status. */
async function createExecutionAs(userId: string): Promise<number> {
  const { key } = await createApiKey(db, { actor: actorOf(userId), owner: { type: 'user' }, input: { name: 'probe', role: 'write' }, now });
  const res = await route.POST(
    new Request(`http://127.0.0.1/api/v1/revisions/${proceduresRevision}/data`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ engine: 'workflow_blobhub', command: 'create_execution', target: { session: 'nightly-batch' }, workflow: { definition: 'triage' }, input_data: [] }),
    }),
    { params: Promise.resolve({ revisionId: proceduresRevision }) },
  );
  return res.status;
}

const grantProceduresWrite = (email: string) =>
  grantBlobAccess(db, { actor: acmeAdmin, org: 'acme-corp', input: { blob: 'procedures', grantee_type: 'user', grantee: email, role: 'write' }, now });

describe('an invitation never makes or takes over the account another org names', () => {
  it("acme grants procedures write to an email with no account; globex's admin invites it and picks a password: the account holds nothing of acme's", async () => {
    const acmeGrant = await grantProceduresWrite(VICTIM);

    const globexLink = await inviteOrgMember(db, { actor: globexAdmin, org: 'globex-corp', input: { email: VICTIM, role: 'read' }, now });
    // Globex's admin opens its own link and chooses the password.
    const hijack = await acceptWithPassword(globexLink.token, 'globex admin chose this');
    expect(hijack.status).toBe(200);
    const hijacker = (hijack.body.user as { id: string }).id;
    expect(await orgRole(db, actorOf(hijacker), globexId)).toBe('read');
    expect(await orgRole(db, actorOf(hijacker), acmeId)).toBeNull();
    expect(await db.blobGrant.count({ where: { granteeType: 'user', granteeId: hijacker } })).toBe(0);
    // acme's grant still waits for acme's own link, and create_execution in acme is refused as not found.
    expect(await db.blobGrant.count({ where: { blobId: proceduresBlob, granteeType: 'email', granteeId: VICTIM } })).toBe(1);
    expect(await createExecutionAs(hijacker)).toBe(404);
    expect(acmeGrant.pending).toBe(true);
    expect(acmeGrant.invitation?.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The real person opens acme's link and makes their own account: it holds acme's grant.
    const real = await acceptWithPassword(acmeGrant.invitation!.token, 'the real newhire pw');
    expect(real.status).toBe(200);
    const realId = (real.body.user as { id: string }).id;
    expect(realId).not.toBe(hijacker);
    expect(await createExecutionAs(realId)).toBe(200);
    expect(await createExecutionAs(hijacker)).toBe(404);
    // Each password logs in to its own account of the email.
    expect((await logIn(VICTIM, 'the real newhire pw')).userId).toBe(realId);
    expect((await logIn(VICTIM, 'globex admin chose this')).userId).toBe(hijacker);
  });

  it("globex makes the account first; the real person's acme invitation still works for them, and globex's account gets no acme grant", async () => {
    const email = 'second-hire@acme-corp.example';
    const globexLink = await inviteOrgMember(db, { actor: globexAdmin, org: 'globex-corp', input: { email, role: 'read' }, now });
    const squatter = ((await acceptWithPassword(globexLink.token, 'squatter password 1')).body.user as { id: string }).id;

    // acme grants by email: the account globex made is a stranger to acme, so the grant waits for acme's link.
    const grant = await grantProceduresWrite(email);
    expect(await createExecutionAs(squatter)).toBe(404);
    const acmeLink = await inviteOrgMember(db, { actor: acmeAdmin, org: 'acme-corp', input: { email, role: 'write' }, now });
    const real = await acceptWithPassword(acmeLink.token, 'real second hire 1');
    expect(real.status).toBe(200);
    expect(grant.pending).toBe(true);
    // The grant's own link was replaced by the membership invitation, which carried the grant too.
    expect(await acceptWithPassword(grant.invitation!.token, 'too late password')).toMatchObject({ status: 404 });
    const realId = (real.body.user as { id: string }).id;
    expect(await orgRole(db, actorOf(realId), acmeId)).toBe('write');
    expect(await orgRole(db, actorOf(squatter), acmeId)).toBeNull();
    expect(await db.blobGrant.findMany({ where: { blobId: proceduresBlob, granteeId: { in: [realId, squatter, email] } }, select: { granteeType: true, granteeId: true } })).toEqual([
      { granteeType: 'user', granteeId: realId },
    ]);
    expect(await createExecutionAs(squatter)).toBe(404);
    expect(await createExecutionAs(realId)).toBe(200);
    // Now acme knows the account: a later grant by email goes to it at once, never to globex's.
    const later = await grantBlobAccess(db, { actor: acmeAdmin, org: 'acme-corp', input: { blob: 'ops-scheduler', grantee_type: 'user', grantee: email, role: 'read' }, now });
    expect([later.pending, later.grantee.id, later.invitation]).toEqual([false, realId, null]);
  });

  it('an existing account joins another org by logging in and accepting, never by choosing a password', async () => {
    const email = 'consultant@example.com';
    const fromGlobex = await inviteOrgMember(db, { actor: globexAdmin, org: 'globex-corp', input: { email, role: 'write' }, now });
    const own = await acceptWithPassword(fromGlobex.token, 'consultant pw 123');
    const ownId = (own.body.user as { id: string }).id;
    const grant = await grantProceduresWrite(email);
    // Logged in as the account, the consultant accepts acme's link: that account gains acme's grant.
    const session = await logIn(email, 'consultant pw 123');
    expect(session.userId).toBe(ownId);
    expect(await acceptLoggedIn(grant.invitation!.token, session.cookie)).toBe(200);
    expect(await createExecutionAs(ownId)).toBe(200);
    expect(await orgRole(db, actorOf(ownId), acmeId)).toBeNull(); // a blob grant, not a membership
    // The account's password is what it was; a link never set it.
    expect((await logIn(email, 'consultant pw 123')).userId).toBe(ownId);
    // Another account, logged in, cannot accept a link made for this email.
    const other = await inviteOrgMember(db, { actor: acmeAdmin, org: 'acme-corp', input: { email, role: 'read' }, now });
    const operator = await logIn('operator@acme-corp.example', 'operator-password-1');
    expect(await acceptLoggedIn(other.token, operator.cookie)).toBe(403);
    expect(await findWebSession(db, operator.cookie.split('=')[1], now)).not.toBeNull();
  });
  it('an org never gets two members with one email: accepting, logged in or with a new account, is 409 already_member then', async () => {
    const email = 'twice@example.com';
    const fromGlobex = await inviteOrgMember(db, { actor: globexAdmin, org: 'globex-corp', input: { email, role: 'read' }, now });
    const globexSide = ((await acceptWithPassword(fromGlobex.token, 'globex side pw 1')).body.user as { id: string }).id;
    const link = await inviteOrgMember(db, { actor: acmeAdmin, org: 'acme-corp', input: { email, role: 'read' }, now });
    // Another account of the email becomes an acme member while the link is pending (only the database can do this).
    const member = await db.user.create({ data: { email, name: 'already here' } });
    await db.membership.create({ data: { userId: member.id, orgId: acmeId, role: 'read' } });
    const session = await logIn(email, 'globex side pw 1');
    expect(session.userId).toBe(globexSide);
    expect(await acceptLoggedIn(link.token, session.cookie)).toBe(409);
    expect(await acceptWithPassword(link.token, 'a third password')).toMatchObject({ status: 409, body: { error: { code: 'already_member' } } });
    expect(await orgRole(db, actorOf(globexSide), acmeId)).toBeNull();
    expect(await db.user.count({ where: { email } })).toBe(2);
  });
});

describe('the invite, grant and accept answers tell no one whether an email has an account elsewhere', () => {
  it('inviting, granting and making an account answer alike for an email with an account in another org and for one with none', async () => {
    const taken = 'has-account@elsewhere.example';
    const globexLink = await inviteOrgMember(db, { actor: globexAdmin, org: 'globex-corp', input: { email: taken, role: 'read' }, now });
    expect((await acceptWithPassword(globexLink.token, 'elsewhere password')).status).toBe(200);
    const fresh = 'no-account@elsewhere.example';

    const shape = (x: object) =>
      JSON.stringify(x, (k, v) => (['token', 'id', 'email', 'label', 'expiresAt', 'createdAt'].includes(k) ? typeof v : v));
    const [i1, i2] = [
      await inviteOrgMember(db, { actor: acmeAdmin, org: 'acme-corp', input: { email: taken, role: 'read' }, now }),
      await inviteOrgMember(db, { actor: acmeAdmin, org: 'acme-corp', input: { email: fresh, role: 'read' }, now }),
    ];
    expect(shape(i1)).toBe(shape(i2));
    const [g1, g2] = [await grantProceduresWrite(taken), await grantProceduresWrite(fresh)];
    expect(shape(g1)).toBe(shape(g2));
    const listed = (await listBlobGrants(db, { actor: acmeAdmin, org: 'acme-corp' })).grants.filter((g) => [taken, fresh].includes(g.grantee.label));

    const [a1, a2] = [await acceptWithPassword(i1.token, 'acme side password'), await acceptWithPassword(i2.token, 'acme side password')];
    expect([a1.status, a2.status]).toEqual([200, 200]);
    expect(Object.keys(a1.body)).toEqual(Object.keys(a2.body));
    expect(Object.keys(a1.body.user as object)).toEqual(Object.keys(a2.body.user as object));
    expect([g1.pending, g1.invitation, g2.pending, g2.invitation]).toEqual([true, null, true, null]); // both carried by the pending invitations
    expect(listed.map((g) => [g.grantee.label, g.pending]).sort()).toEqual([
      [taken, true],
      [fresh, true],
    ]);
    // No 409 anywhere: the email with an account elsewhere got a new account of acme's, like the other.
    expect(await db.user.count({ where: { email: taken } })).toBe(2);
    expect(await db.user.count({ where: { email: fresh } })).toBe(1);
  });

  it('a login costs one scrypt however many accounts share the email (they share its salt)', async () => {
    const rows = await db.user.findMany({ where: { email: 'has-account@elsewhere.example' }, select: { passwordHash: true } });
    const salts = new Set(rows.map((r) => r.passwordHash!.split('$')[4]));
    expect(rows).toHaveLength(2);
    expect(salts.size).toBe(1);
  });
});
