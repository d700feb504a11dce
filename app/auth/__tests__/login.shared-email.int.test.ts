/**
 * One email, accounts made through two orgs' links (docs/decisions.md 160, 162, 335, 336), driven
 * through the real handlers (`POST /auth/invitations/accept`, `POST /auth/login`, lib/api/web-login.ts)
 * on a real database (SQLite, or PostgreSQL with TEST_DATABASE=postgresql): another org's admin who
 * holds an account of the email cannot lock the real owner out with successful logins of his own, the
 * refusal he meets speaks of logins, not failures, and accepting an invitation leaves the same device
 * cookie a login leaves, so a freshly invited owner keeps logging in while the email is guessed at.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../prisma/seed';
import { closeDb, getDb, type Db } from '../../../lib/db';
import { createTestDb, type TestDb } from '../../../lib/testing/test-db';
import { acceptInvitationResponse, loginResponse } from '../../../lib/api';
import { countLoginAttempt, DEVICE_COOKIE, deviceTokenUser, inviteOrgMember, LOGIN_FAILURES_PER_ACCOUNT, type Actor } from '../../../lib/auth';

const VICTIM = 'newhire@acme-corp.example';
const REAL_PW = 'the real newhire pw';
const GLOBEX_PW = 'globex admin chose this';
let t: TestDb;
let db: Db;
let acmeAdmin: Actor;
let globexAdmin: Actor;

beforeAll(async () => {
  t = await createTestDb();
  const ctx = await seed(t.db, undefined, 'operator-password-1');
  await t.db.$disconnect();
  // The handlers use the process's client (lib/api runtime()): make it this database's.
  await closeDb();
  db = getDb({ databaseUrl: t.url, databasePoolSize: 2 });
  acmeAdmin = { type: 'user', id: ctx.userId, roleCap: null };
  const globex = await db.org.create({ data: { alias: 'globex-corp', name: 'Globex' } });
  const admin = await db.user.create({ data: { email: 'admin@globex.example', name: 'Globex admin' } });
  await db.membership.create({ data: { userId: admin.id, orgId: globex.id, role: 'admin' } });
  globexAdmin = { type: 'user', id: admin.id, roleCap: null };
});
afterAll(async () => {
  await closeDb();
  await t.cleanup();
});

/** The `name=value` pairs of a response's Set-Cookie headers. */
const cookiesOf = (res: Response): Record<string, string> =>
  Object.fromEntries(res.headers.getSetCookie().map((c) => c.split(';')[0].split('=') as [string, string]));

/** The invitation page's "make your account" form, as JSON. */
async function acceptWithPassword(token: string, password: string): Promise<{ status: number; userId: string; cookies: Record<string, string> }> {
  const res = await acceptInvitationResponse(
    new Request('http://127.0.0.1/auth/invitations/accept', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, password }) }),
  );
  const body = (await res.json()) as { user?: { id: string } };
  return { status: res.status, userId: body.user?.id ?? '', cookies: cookiesOf(res) };
}

/** `POST /auth/login` (JSON) from address `client`, with the `cookie` header when given. */
async function logIn(email: string, password: string, opts: { client?: string; cookie?: string } = {}): Promise<{ status: number; userId: string | null; message: string | null; cookies: Record<string, string> }> {
  const res = await loginResponse(
    new Request('http://127.0.0.1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-scheduler-client-address': opts.client ?? '10.1.0.1', ...(opts.cookie ? { cookie: opts.cookie } : {}) },
      body: JSON.stringify({ email, password }),
    }),
  );
  const body = (await res.json()) as { user?: { id: string }; error?: { message: string } };
  return { status: res.status, userId: body.user?.id ?? null, message: body.error?.message ?? null, cookies: cookiesOf(res) };
}

describe('one email, two orgs’ accounts: successes never lock the email', () => {
  it('20 successful logins of globex’s account of the email leave the real owner logging in from a new browser', async () => {
    const acmeLink = await inviteOrgMember(db, { actor: acmeAdmin, org: 'acme-corp', input: { email: VICTIM, role: 'read' }, now: new Date() });
    const real = await acceptWithPassword(acmeLink.token, REAL_PW);
    expect(real.status).toBe(200);
    const globexLink = await inviteOrgMember(db, { actor: globexAdmin, org: 'globex-corp', input: { email: VICTIM, role: 'read' }, now: new Date() });
    const other = await acceptWithPassword(globexLink.token, GLOBEX_PW);
    expect(other.status).toBe(200);
    expect(other.userId).not.toBe(real.userId);

    // Globex’s admin logs in 20 times (the limit of his account’s logins) with his own password, no cookies: every one succeeds.
    for (let i = 0; i < 20; i++) expect(await logIn(VICTIM, GLOBEX_PW, { client: `10.2.0.${i}` })).toMatchObject({ status: 200, userId: other.userId });
    // None of them is a failure of the email.
    const failures = await db.loginThrottle.findUnique({ where: { key: `account:${VICTIM}` } });
    expect(failures?.failures ?? 0).toBe(0);

    // The real owner, from a new browser, with the right password, logs in.
    expect(await logIn(VICTIM, REAL_PW, { client: '10.3.0.1' })).toMatchObject({ status: 200, userId: real.userId });

    // His own account is past its logins from new browsers: refused as such (no "failed" attempts), and not a failure either.
    const past = await logIn(VICTIM, GLOBEX_PW, { client: '10.2.1.1' });
    expect(past.status).toBe(429);
    expect(past.message).toMatch(/^too many logins for this account from new browsers; try again in 15 minutes$/);
    expect((await db.loginThrottle.findUnique({ where: { key: `account:${VICTIM}` } }))?.failures ?? 0).toBe(0);
    // His own browser (the device cookie his accept left) still logs in to his account.
    expect(await logIn(VICTIM, GLOBEX_PW, { client: '10.2.1.2', cookie: `${DEVICE_COOKIE}=${other.cookies[DEVICE_COOKIE]}` })).toMatchObject({ status: 200, userId: other.userId });
    // And the owner is still not affected.
    expect(await logIn(VICTIM, REAL_PW, { client: '10.3.0.2' })).toMatchObject({ status: 200, userId: real.userId });
  }, 180_000);

  it('accepting an invitation with a new account sets the device cookie a login sets: the owner passes a locked email from that browser', async () => {
    const email = 'fresh-hire@acme-corp.example';
    const link = await inviteOrgMember(db, { actor: acmeAdmin, org: 'acme-corp', input: { email, role: 'read' }, now: new Date() });
    const fresh = await acceptWithPassword(link.token, 'fresh hire password 1');
    expect(fresh.status).toBe(200);
    expect(Object.keys(fresh.cookies).sort()).toEqual([DEVICE_COOKIE, 'scheduler_session'].sort());
    expect(deviceTokenUser(fresh.cookies[DEVICE_COOKIE], new Date())).toBe(fresh.userId);

    // 20 failed guesses lock the email (counted directly: the slow-down would take seconds).
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) await countLoginAttempt(db, email, new Date());
    const locked = await logIn(email, 'fresh hire password 1', { client: '10.4.0.1' });
    expect([locked.status, locked.message]).toEqual([429, 'too many failed login attempts for this account; try again in 15 minutes']);
    // The browser that accepted the invitation is one the account used.
    expect(await logIn(email, 'fresh hire password 1', { client: '10.4.0.2', cookie: `${DEVICE_COOKIE}=${fresh.cookies[DEVICE_COOKIE]}` })).toMatchObject({ status: 200, userId: fresh.userId });
  }, 120_000);

  it('joining another org, logged in, sets the device cookie of the account that joined', async () => {
    const email = 'joiner@example.com';
    const fromGlobex = await inviteOrgMember(db, { actor: globexAdmin, org: 'globex-corp', input: { email, role: 'read' }, now: new Date() });
    const own = await acceptWithPassword(fromGlobex.token, 'joiner pw 12345');
    const session = await logIn(email, 'joiner pw 12345', { client: '10.5.0.1' });
    const fromAcme = await inviteOrgMember(db, { actor: acmeAdmin, org: 'acme-corp', input: { email, role: 'read' }, now: new Date() });
    const res = await acceptInvitationResponse(
      new Request('http://127.0.0.1/auth/invitations/accept', {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `scheduler_session=${session.cookies.scheduler_session}` },
        body: JSON.stringify({ token: fromAcme.token }),
      }),
    );
    expect(res.status).toBe(200);
    expect(deviceTokenUser(cookiesOf(res)[DEVICE_COOKIE], new Date())).toBe(own.userId);
  });
});
