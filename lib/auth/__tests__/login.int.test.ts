/**
 * Browser login (SPEC §2): scrypt password hashes, database sessions keyed by the token's SHA-256,
 * one identical refusal for every wrong credential, and the failed-attempt limits stored in the
 * database (5 per email + client address and 50 per address in 15 minutes → 429 rate_limited; an
 * email guessed from many addresses is slowed, then refused but for browsers its accounts used before).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../../prisma/seed';
import { createDb, type Db } from '../../db';
import { createTestDb } from '../../testing/test-db';
import {
  DEMO_USER_EMAIL,
  endWebSession,
  findWebSession,
  hashPassword,
  hashSecret,
  login,
  LOGIN_FAILURES_PER_ACCOUNT,
  LOGIN_SUCCESSES_PER_ACCOUNT,
  LOGIN_MAX_DELAY_MS,
  LOGIN_REFUSED_MESSAGE,
  verifyPassword,
  WEB_SESSION_TTL_MS,
  countLoginAttempt,
  passwordHashForEmail,
} from '..';

const PASSWORD = 'correct horse battery staple';
let db: Db;
let cleanup: () => Promise<void>;
let url: string;
const t0 = new Date('2026-03-01T12:00:00.000Z');

beforeAll(async () => {
  ({ db, cleanup, url } = await createTestDb());
  await seed(db, undefined, PASSWORD);
});
afterAll(async () => cleanup());
beforeEach(async () => {
  await db.$transaction((tx) => tx.loginThrottle.deleteMany());
});

const attempt = (password: string, opts: { email?: string; client?: string; now?: Date; db?: Db } = {}) =>
  login(opts.db ?? db, { email: opts.email ?? DEMO_USER_EMAIL, password, client: opts.client ?? '10.0.0.1', now: opts.now ?? t0 });

describe('password hashes', () => {
  it('are scrypt$N$r$p$salt$hash with a fresh salt, and verify only the right password', async () => {
    const a = await hashPassword('s3cret-value');
    const b = await hashPassword('s3cret-value');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('s3cret-value', a)).toBe(true);
    expect(await verifyPassword('s3cret-valuE', a)).toBe(false);
    expect(await verifyPassword('s3cret-value', null)).toBe(false);
    expect(await verifyPassword('s3cret-value', 'plain-text')).toBe(false);
  });

  it('the seed stores the operator password (SCHEDULER_DEMO_PASSWORD) as a hash, never in clear', async () => {
    const user = await db.user.findFirstOrThrow({ where: { email: DEMO_USER_EMAIL } });
    expect(user.passwordHash).toMatch(/^scrypt\$/);
    expect(user.passwordHash).not.toContain(PASSWORD);
    expect(await verifyPassword(PASSWORD, user.passwordHash)).toBe(true);
    // Seeding again with the same password leaves the hash alone; without one, nothing is printed.
    const again = await seed(db, undefined, PASSWORD);
    expect(again.printedPassword).toBeNull();
    expect((await db.user.findFirstOrThrow({ where: { email: DEMO_USER_EMAIL } })).passwordHash).toBe(user.passwordHash);
    expect((await seed(db, undefined, undefined)).printedPassword).toBeNull();
  });
});

describe('login and sessions', () => {
  it('a good login stores only the SHA-256 of the token, and the token finds the user until it expires', async () => {
    const s = await attempt(PASSWORD, { email: `  ${DEMO_USER_EMAIL.toUpperCase()} ` });
    expect(s.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(s.expiresAt.toISOString()).toBe(new Date(t0.getTime() + WEB_SESSION_TTL_MS).toISOString()); // 2026-03-08T12:00Z
    const rows = await db.webSession.findMany({ where: { userId: s.user.id } });
    expect(rows.map((r) => r.tokenHash)).toContain(hashSecret(s.token));
    expect(JSON.stringify(rows)).not.toContain(s.token);

    const found = await findWebSession(db, s.token, new Date(t0.getTime() + 1000));
    expect(found?.actor).toEqual({ type: 'user', id: s.user.id, roleCap: null });
    expect(await findWebSession(db, s.token, s.expiresAt)).toBeNull();
    expect(await findWebSession(db, `${s.token.slice(0, -1)}${s.token.endsWith('A') ? 'B' : 'A'}`, t0)).toBeNull();
    expect(await findWebSession(db, 'not-a-token', t0)).toBeNull();
  });

  it('logout deletes the session row', async () => {
    const s = await attempt(PASSWORD);
    await endWebSession(db, s.token);
    expect(await findWebSession(db, s.token, t0)).toBeNull();
    expect(await db.webSession.count({ where: { tokenHash: hashSecret(s.token) } })).toBe(0);
  });

  it('a wrong password, an unknown email and an account without a password get the same 401 with the same message', async () => {
    await db.user.create({ data: { email: 'nopassword@acme-corp.example', name: 'No password' } });
    for (const [email, password] of [
      [DEMO_USER_EMAIL, 'wrong password'],
      ['nobody@acme-corp.example', PASSWORD],
      ['nopassword@acme-corp.example', ''],
      ['not an email', PASSWORD],
    ]) {
      await expect(attempt(password, { email })).rejects.toMatchObject({ code: 'unauthorized', message: LOGIN_REFUSED_MESSAGE, status: 401 });
    }
  });
});

describe('failed-attempt limit: 5 per email + client address per 15 minutes', () => {
  it('the 6th attempt is 429 rate_limited even with the right password; another address is not affected; the window ends after 15 minutes', async () => {
    for (let i = 0; i < 5; i++) await expect(attempt('wrong', { now: new Date(t0.getTime() + i * 1000) })).rejects.toMatchObject({ code: 'unauthorized' });
    const limited = attempt(PASSWORD, { now: new Date(t0.getTime() + 10_000) });
    await expect(limited).rejects.toMatchObject({ code: 'rate_limited', status: 429 });
    await expect(attempt(PASSWORD, { now: new Date(t0.getTime() + 10_000) })).rejects.toThrow(/too many failed login attempts for this email; try again in 15 minutes/);
    // The same email from another client address still logs in.
    expect((await attempt(PASSWORD, { client: '10.0.0.2', now: new Date(t0.getTime() + 11_000) })).token).toBeTruthy();
    // 15 minutes after the first failure the pair may try again.
    expect((await attempt(PASSWORD, { now: new Date(t0.getTime() + 15 * 60_000) })).token).toBeTruthy();
  });

  it('a successful login clears the pair\'s failures', async () => {
    for (let i = 0; i < 4; i++) await expect(attempt('wrong')).rejects.toMatchObject({ code: 'unauthorized' });
    await attempt(PASSWORD);
    for (let i = 0; i < 4; i++) await expect(attempt('wrong')).rejects.toMatchObject({ code: 'unauthorized' });
    expect((await attempt(PASSWORD)).token).toBeTruthy();
  });

  it('50 failures from one address (any emails) refuse that address for every email; other addresses are not affected', async () => {
    for (let i = 0; i < 50; i++) {
      await expect(attempt('wrong', { email: `guess-${i}@acme-corp.example`, client: '192.0.2.9' })).rejects.toMatchObject({ code: 'unauthorized' });
    }
    await expect(attempt(PASSWORD, { client: '192.0.2.9' })).rejects.toThrow(/too many failed login attempts from this address; try again in 15 minutes/);
    expect((await attempt(PASSWORD, { client: '192.0.2.10' })).token).toBeTruthy();
  }, 60_000);

  it('guesses of one password from 40 addresses meet a 429 at the 20th failure; the owner still logs in from a browser it used before', async () => {
    // The owner logged in earlier from its own browser: that browser keeps the device token.
    const earlier = await attempt(PASSWORD, { client: '198.51.100.7', now: new Date(t0.getTime() - 86_400_000) });
    // 40 addresses, 5 guesses each (each stays under its pair limit), in parallel per round.
    const answers: string[] = [];
    for (let round = 0; round < 5; round++) {
      const settled = await Promise.allSettled(
        Array.from({ length: 40 }, (_, i) => attempt(`guess ${round}-${i}`, { client: `192.0.2.${i}`, now: new Date(t0.getTime() + round * 1000) })),
      );
      for (const r of settled) answers.push(r.status === 'rejected' ? (r.reason as { code: string }).code : 'logged in');
    }
    expect(answers.filter((c) => c === 'unauthorized').length).toBe(LOGIN_FAILURES_PER_ACCOUNT);
    expect(answers.filter((c) => c === 'rate_limited').length).toBe(200 - LOGIN_FAILURES_PER_ACCOUNT);
    // Anyone else, the right password included, is refused for the rest of the window, from any address.
    await expect(attempt(PASSWORD, { client: '203.0.113.5', now: new Date(t0.getTime() + 10_000) })).rejects.toThrow(
      /too many failed login attempts for this account; try again in 15 minutes/,
    );
    // The owner's browser is let through (checked against its own account only), without the slow-down.
    const started = Date.now();
    const owner = await login(db, { email: DEMO_USER_EMAIL, password: PASSWORD, client: '203.0.113.5', deviceToken: earlier.deviceToken, now: new Date(t0.getTime() + 11_000) });
    expect(owner.user.id).toBe(earlier.user.id);
    expect(Date.now() - started).toBeLessThan(LOGIN_MAX_DELAY_MS);
    // A device token does not help a wrong password, and a forged or foreign one is no token at all.
    await expect(login(db, { email: DEMO_USER_EMAIL, password: 'wrong', client: '203.0.113.5', deviceToken: earlier.deviceToken, now: new Date(t0.getTime() + 12_000) })).rejects.toMatchObject({ code: 'unauthorized' });
    const forged = `${earlier.user.id}.${earlier.deviceToken.split('.')[1]}.${'A'.repeat(43)}`;
    await expect(login(db, { email: DEMO_USER_EMAIL, password: PASSWORD, client: '203.0.113.6', deviceToken: forged, now: new Date(t0.getTime() + 13_000) })).rejects.toMatchObject({ code: 'rate_limited' });
    // When the window ends, anyone may try again.
    expect((await attempt(PASSWORD, { client: '203.0.113.7', now: new Date(t0.getTime() + 15 * 60_000) })).token).toBeTruthy();
  }, 120_000);

  it('the holder of another account of the email cannot turn guesses into successes: its logins are counted, the owner is untouched', async () => {
    const email = 'shared@example.com';
    const victim = await db.user.create({ data: { email, name: 'victim', passwordHash: await passwordHashForEmail(db, email, PASSWORD), createdAt: new Date(t0.getTime() - 2 * 86_400_000) } });
    const attacker = await db.user.create({ data: { email, name: 'made through another org', passwordHash: await passwordHashForEmail(db, email, 'attacker own pw'), createdAt: new Date(t0.getTime() - 86_400_000) } });
    const owner = await attempt(PASSWORD, { email, client: '198.51.100.20', now: new Date(t0.getTime() - 3600_000) });
    expect(owner.user.id).toBe(victim.id);
    // The attacker sets its own password to each guess and logs in: each attempt succeeds, as its own account.
    let token = '';
    for (let i = 0; i < 3; i++) {
      await db.user.update({ where: { id: attacker.id }, data: { passwordHash: await passwordHashForEmail(db, email, `guess ${i}`) } });
      const s = await attempt(`guess ${i}`, { email, client: `192.0.2.${100 + i}`, now: new Date(t0.getTime() + i) });
      expect(s.user.id).toBe(attacker.id);
      token = s.deviceToken;
    }
    // Each of those successes is a login of the attacker's account, none a failure of the email.
    expect((await db.loginThrottle.findUnique({ where: { key: `login:${attacker.id}` } }))?.failures).toBe(3);
    expect((await db.loginThrottle.findUnique({ where: { key: `account:${email}` } }))?.failures ?? 0).toBe(0);
    // The rest of its logins, spent the same way (counted directly: each would cost a scrypt).
    await db.loginThrottle.update({ where: { key: `login:${attacker.id}` }, data: { failures: LOGIN_SUCCESSES_PER_ACCOUNT } });
    // The next guess, even the right one, is refused as the attacker's own password: not checked against the victim's account.
    await db.user.update({ where: { id: attacker.id }, data: { passwordHash: await passwordHashForEmail(db, email, PASSWORD) } });
    await expect(attempt(PASSWORD, { email, client: '192.0.2.200', now: new Date(t0.getTime() + 100) })).rejects.toThrow(
      /^too many logins for this account from new browsers; try again in 15 minutes$/,
    );
    // The attacker's own browser is checked against its own account only.
    const own = await login(db, { email, password: PASSWORD, client: '192.0.2.201', deviceToken: token, now: new Date(t0.getTime() + 200) });
    expect(own.user.id).toBe(attacker.id);
    // A guess that is not the attacker's password is checked against the victim's account: a failure of the email.
    await expect(attempt('another guess', { email, client: '192.0.2.203', now: new Date(t0.getTime() + 250) })).rejects.toMatchObject({ code: 'unauthorized' });
    expect((await db.loginThrottle.findUnique({ where: { key: `account:${email}` } }))?.failures).toBe(1);
    // The victim, with another password than the attacker's, logs in from a new browser and from its own.
    await db.user.update({ where: { id: attacker.id }, data: { passwordHash: await passwordHashForEmail(db, email, 'attacker own pw') } });
    expect((await attempt(PASSWORD, { email, client: '192.0.2.204', now: new Date(t0.getTime() + 280) })).user.id).toBe(victim.id);
    const back = await login(db, { email, password: PASSWORD, client: '192.0.2.202', deviceToken: owner.deviceToken, now: new Date(t0.getTime() + 300) });
    expect(back.user.id).toBe(victim.id);
  }, 120_000);

  it('between the 10th and the 20th failure an email is slowed, not refused', async () => {
    for (let i = 0; i < 15; i++) await countLoginAttempt(db, DEMO_USER_EMAIL, new Date(t0.getTime() + i));
    const started = Date.now();
    const s = await attempt(PASSWORD, { client: '198.51.100.7', now: new Date(t0.getTime() + 1000) });
    const waited = Date.now() - started;
    expect(s.token).toBeTruthy();
    expect(waited).toBeGreaterThanOrEqual(250 * 6 - 50); // 15 failures: 6 × 250 ms
    expect(waited).toBeLessThan(LOGIN_MAX_DELAY_MS + 2000);
  }, 60_000);

  it('the counters live in the database: failures counted by one web process refuse the pair in another', async () => {
    const other = createDb(url);
    try {
      for (let i = 0; i < 5; i++) await expect(attempt('wrong', { db: i % 2 ? other : db })).rejects.toMatchObject({ code: 'unauthorized' });
      await expect(attempt(PASSWORD, { db: other })).rejects.toMatchObject({ code: 'rate_limited' });
      await expect(attempt(PASSWORD)).rejects.toMatchObject({ code: 'rate_limited' });
      expect(await db.loginThrottle.findUnique({ where: { key: `pair:10.0.0.1|${DEMO_USER_EMAIL}` } })).toMatchObject({ failures: 5, windowStart: t0 });
    } finally {
      await other.$disconnect();
    }
  });

  it('parallel failures each count once', async () => {
    await Promise.allSettled(Array.from({ length: 8 }, () => attempt('wrong', { client: '10.9.9.9' })));
    expect((await db.loginThrottle.findUnique({ where: { key: 'source:10.9.9.9' } }))?.failures).toBe(8);
  });
});
