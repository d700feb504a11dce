/**
 * Security hardening (issue "Security and fault hardening"): invitations instead of shown passwords
 * (acceptance 1, the pre-hijack replayed through the UI), forwarded headers and the login limiter
 * (acceptance 5), and the HTTP edge: HSTS, server-action refusals, `X-Forwarded-Host`, `/metrics`.
 *
 * The main e2e server trusts no proxy; the limits server (LIMITS_PORT) trusts 127.0.0.1 as its
 * reverse proxy (playwright.config.ts). A second client address is made by binding the client socket
 * to 127.0.0.2 (loopback holds all of 127.0.0.0/8). The org lookup timing test is acceptance 4.
 */
import { expect, request as playwrightRequest, test, type Browser, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AccessFixtures } from './setup/access-fixtures';
import { ACCESS_FIXTURES, DEMO_EMAIL, E2E_DEMO_PASSWORD, E2E_PORT, getFrom, headers, LIMITS_PORT, postFrom } from './api';
import { expectNoSeriousViolations } from './ui';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const fx = JSON.parse(readFileSync(path.join(ROOT, ACCESS_FIXTURES), 'utf8')) as AccessFixtures;
const SUFFIX = Math.random().toString(16).slice(2, 8);
const NO_SESSION = { cookies: [], origins: [] };

async function loginInBrowser(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/schedulers$/);
}

/** Invite `email` on the org's admin page; returns the one-time link shown. */
async function invite(page: Page, org: string, email: string, role: 'read' | 'write' | 'admin'): Promise<{ link: string; label: string }> {
  await page.goto(`/orgs/${org}/admin`);
  const form = page.getByRole('form', { name: 'Invite a member' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Role').selectOption(role);
  await form.getByRole('button', { name: 'Invite' }).click();
  const shown = form.getByTestId('shown-once');
  await expect(shown).toBeVisible();
  const link = (await shown.innerText()).trim();
  expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${E2E_PORT}/invite/[A-Za-z0-9_-]{43}$`));
  const label = (await form.getByRole('status').locator('strong').innerText()).trim();
  return { link, label };
}

/** Grant `email` read on the org's `procedures` blob on the admin page; returns the one-time link shown. */
async function grantByEmail(page: Page, org: string, email: string): Promise<{ link: string }> {
  await page.goto(`/orgs/${org}/admin`);
  const form = page.getByRole('form', { name: 'Grant access to a blob' });
  await form.getByLabel('Blob', { exact: true }).selectOption({ label: 'procedures (workflow)' });
  await form.getByLabel('Grantee type').selectOption('user');
  await form.getByLabel('Grantee', { exact: true }).fill(email);
  await form.getByLabel('Role').selectOption('read');
  await form.getByRole('button', { name: 'Grant' }).click();
  const shown = form.getByTestId('shown-once');
  await expect(shown).toBeVisible();
  const link = (await shown.innerText()).trim();
  expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${E2E_PORT}/invite/[A-Za-z0-9_-]{43}$`));
  return { link };
}

async function apiLogin(email: string, password: string): Promise<number> {
  const api = await playwrightRequest.newContext({ baseURL: `http://127.0.0.1:${E2E_PORT}`, storageState: NO_SESSION });
  try {
    return (await api.post('/auth/login', { data: { email, password } })).status();
  } finally {
    await api.dispose();
  }
}

async function withPage<T>(browser: Browser, fn: (p: Page) => Promise<T>): Promise<T> {
  const ctx = await browser.newContext({ storageState: NO_SESSION });
  try {
    return await fn(await ctx.newPage());
  } finally {
    await ctx.close();
  }
}

test.describe('invitations (acceptance 1)', () => {
  test('pre-hijack replayed: org B and org A invite one email; only the invitee ever logs in as it, and each org sees only its own invitation', async ({ page, browser }) => {
    const email = `invitee-${SUFFIX}@example.com`;
    const globexAdmin = fx.users.find((u) => u.org === 'globex' && u.role === 'admin')!;

    // Org B (globex) invites first: its admin gets a link, no password, and no account exists.
    const fromGlobex = await withPage(browser, async (g) => {
      await loginInBrowser(g, globexAdmin.email, globexAdmin.password);
      return invite(g, 'globex-corp', email, 'admin');
    });
    // Org A (acme) invites the same email.
    const fromAcme = await invite(page, 'acme-corp', email, 'write');
    expect(fromAcme.link).not.toBe(fromGlobex.link);
    // The form answers alike for an email that already has an account (a globex member's).
    const existing = await invite(page, 'acme-corp', fx.users.find((u) => u.org === 'globex' && u.role === 'read')!.email, 'read');
    const shape = (label: string) => label.replace(/for \S+ as \S+:/, 'for E as R:').replace(/until .*\./, 'until T.');
    expect(shape(existing.label)).toBe(shape(fromAcme.label));

    // Each org sees only its own invitation (same email, its own role).
    const acmeRows = page.getByRole('table', { name: 'Pending invitations' }).getByRole('row').filter({ hasText: email });
    await expect(acmeRows).toHaveCount(1);
    await expect(acmeRows.getByRole('cell').nth(1)).toHaveText('write');
    await withPage(browser, async (g) => {
      await loginInBrowser(g, globexAdmin.email, globexAdmin.password);
      await g.goto('/orgs/globex-corp/admin');
      const rows = g.getByRole('table', { name: 'Pending invitations' }).getByRole('row').filter({ hasText: email });
      await expect(rows).toHaveCount(1);
      await expect(rows.getByRole('cell').nth(1)).toHaveText('admin');
    });

    // Nobody can log in as the email yet: no account, no password anywhere.
    expect(await apiLogin(email, E2E_DEMO_PASSWORD)).toBe(401);

    // The invitee opens acme's link and chooses a password: logged in, a member of acme only.
    const invitee = await browser.newContext({ storageState: NO_SESSION });
    try {
      const p = await invitee.newPage();
      await p.goto(fromAcme.link);
      await expect(p.getByRole('heading', { level: 1, name: 'Join Acme Corp' })).toBeVisible();
      await expect(p.getByRole('main')).toContainText(`${email} is invited to Acme Corp with the role write`);
      await p.getByLabel('Choose a password').fill('invitee password 1');
      await p.getByRole('button', { name: 'Make account and join' }).click();
      await expect(p).toHaveURL(/\/schedulers$/);
      await expect(p.getByRole('link', { name: 'Ops scheduler' })).toBeVisible();
      await expect(p.getByText(fx.orgs.globex.scheduler.name)).toHaveCount(0);

      // The invitee, logged in, opens B's link: the page offers to accept as the account, and it joins B.
      await p.goto(fromGlobex.link);
      await p.getByRole('button', { name: 'Accept and join Globex Corporation' }).click();
      await expect(p).toHaveURL(/\/orgs$/);
      await expect(p.getByRole('main')).toContainText('Globex Corporation');
      // Both links are used up.
      for (const link of [fromAcme.link, fromGlobex.link]) {
        await p.goto(link);
        await expect(p.getByRole('main').getByRole('alert')).toContainText('This invitation link is not valid');
      }
    } finally {
      await invitee.close();
    }
    expect(await apiLogin(email, 'invitee password 1')).toBe(200);

    // The takeover variant: A grants `procedures` to an email with no account (a link of A's, blob access
    // only); B's admin invites the same email to B and, holding B's link, picks the password itself. The
    // page offers "Log in as …" to whoever has an account; a new password makes B's own, separate account,
    // which holds nothing of A's.
    const second = `second-${SUFFIX}@example.com`;
    const grant = await grantByEmail(page, 'acme-corp', second);
    const fromGlobex2 = await withPage(browser, async (g) => {
      await loginInBrowser(g, globexAdmin.email, globexAdmin.password);
      return invite(g, 'globex-corp', second, 'read');
    });
    await withPage(browser, async (attacker) => {
      await attacker.goto(fromGlobex2.link);
      await expect(attacker.getByRole('link', { name: `Log in as ${second}` })).toBeVisible();
      await attacker.getByLabel('Choose a password').fill('attacker password 1');
      await attacker.getByRole('button', { name: 'Make account and join' }).click();
      await expect(attacker).toHaveURL(/\/schedulers$/);
      await expect(attacker.getByRole('link', { name: 'Ops scheduler' })).toHaveCount(0);
      await attacker.goto('/catalog');
      await expect(attacker.getByRole('main')).not.toContainText('Procedures');
    });
    // A's grant still waits for A's link; the real person's account made with it holds the grant.
    await page.goto('/orgs/acme-corp/admin');
    await expect(page.getByRole('table', { name: 'Blob access grants' }).getByRole('row').filter({ hasText: second })).toContainText('pending');
    await expect(page.getByRole('table', { name: 'Pending invitations' }).getByRole('row').filter({ hasText: second })).toContainText('blob access only');
    await expectNoSeriousViolations(page, 'the org admin page with a pending grant and its invitation');
    await withPage(browser, async (real) => {
      await real.goto(grant.link);
      await expect(real.getByRole('heading', { level: 1, name: 'Access to Acme Corp' })).toBeVisible();
      await expect(real.getByRole('list', { name: 'Blob access this link gives' })).toContainText('read on procedures');
      await expectNoSeriousViolations(real, 'the invitation page of a blob-access link');
      await real.getByLabel('Choose a password').fill('real person password 1');
      await real.getByRole('button', { name: 'Make account and accept' }).click();
      await expect(real).toHaveURL(/\/schedulers$/);
      await real.goto('/catalog');
      await expect(real.getByRole('main')).toContainText('Procedures');
    });
    expect(await apiLogin(second, 'real person password 1')).toBe(200);
    expect(await apiLogin(second, 'attacker password 1')).toBe(200); // B's own account of the email, holding nothing of A's
  });
});

test('axe: the login page, the org admin page with a shown invitation link, and the invitation page have no serious violations (nonce CSP in force)', async ({ page, browser }) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const { link } = await invite(page, 'acme-corp', `a11y-${SUFFIX}@example.com`, 'read');
  await expectNoSeriousViolations(page, 'the org admin page with an invitation link shown');
  await withPage(browser, async (p) => {
    p.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await p.goto('/login');
    await expectNoSeriousViolations(p, 'the login page');
    await p.goto(link);
    await expect(p.getByRole('heading', { level: 1, name: 'Join Acme Corp' })).toBeVisible();
    await expectNoSeriousViolations(p, 'the invitation page');
    await p.goto('/invite/not-a-real-token');
    await expectNoSeriousViolations(p, 'an invitation page for a link that does not work');
  });
  // No script was blocked by the policy (Chromium reports a CSP refusal as a console error).
  expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
});

test.describe('forwarded headers and the login limiter (acceptance 5)', () => {
  test('60 failed logins with forged X-Forwarded-For do not stop the real user logging in from another address; with no trusted proxy the header changes nothing', async () => {
    const user = fx.users.find((u) => u.org === 'acme' && u.role === 'write')!;
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await postFrom('127.0.0.2', '/auth/login', { email: user.email, password: `guess-${i}` }, { 'x-forwarded-for': `198.51.100.${i}`, 'x-real-ip': `198.51.100.${i}` });
      statuses.push(res.status);
    }
    // Every forged address counted as the one real source: 5 failures, then that source is refused for the email.
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
    console.log(`forged X-Forwarded-For: ${statuses.filter((s) => s === 401).length} × 401, ${statuses.filter((s) => s === 429).length} × 429`);
    // Without the header, the same source gets the same answer: the header changed nothing.
    expect((await postFrom('127.0.0.2', '/auth/login', { email: user.email, password: user.password })).status).toBe(429);
    // The real user, from 127.0.0.1, logs in.
    expect(await apiLogin(user.email, user.password)).toBe(200);
  });

  test('behind a trusted proxy (127.0.0.1 on the limits server) X-Forwarded-For names the client; from any other peer it is ignored', async () => {
    const login = (from: string, xff: string, password: string) => postFrom(from, '/auth/login', { email: DEMO_EMAIL, password }, { 'x-forwarded-for': xff }, LIMITS_PORT);
    for (let i = 0; i < 5; i++) expect((await login('127.0.0.1', '203.0.113.50', 'wrong')).status).toBe(401);
    expect((await login('127.0.0.1', '203.0.113.50', E2E_DEMO_PASSWORD)).status).toBe(429);
    // Another client behind the same proxy is another address.
    expect((await login('127.0.0.1', '203.0.113.51', E2E_DEMO_PASSWORD)).status).toBe(200);
    // 127.0.0.2 is no proxy: its forged header does not borrow 203.0.113.50's (or anyone's) identity.
    expect((await login('127.0.0.2', '203.0.113.50', E2E_DEMO_PASSWORD)).status).toBe(200);
  });
});

test.describe('the HTTP edge', () => {
  test('HSTS and the Secure cookie only when the request is https: per a trusted proxy\'s X-Forwarded-Proto, never a client\'s', async () => {
    const viaProxy = await getFrom('127.0.0.1', '/login', { 'x-forwarded-proto': 'https' }, LIMITS_PORT);
    expect(viaProxy.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect((await getFrom('127.0.0.2', '/login', { 'x-forwarded-proto': 'https' }, LIMITS_PORT)).headers['strict-transport-security']).toBeUndefined();
    expect((await getFrom('127.0.0.1', '/login', { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBeUndefined();
    expect((await getFrom('127.0.0.1', '/login', {}, LIMITS_PORT)).headers['strict-transport-security']).toBeUndefined();

    const secure = await postFrom('127.0.0.1', '/auth/login', { email: DEMO_EMAIL, password: E2E_DEMO_PASSWORD }, { 'x-forwarded-proto': 'https' }, LIMITS_PORT);
    expect(secure.status).toBe(200);
    expect(String(secure.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    const forged = await postFrom('127.0.0.1', '/auth/login', { email: DEMO_EMAIL, password: E2E_DEMO_PASSWORD }, { 'x-forwarded-proto': 'https' });
    expect(String(forged.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Lax$/);
  });

  test('X-Forwarded-Host without a trusted proxy reaches neither the login redirect nor the same-origin check', async ({ request }) => {
    const api = await playwrightRequest.newContext({ baseURL: `http://127.0.0.1:${E2E_PORT}`, storageState: NO_SESSION });
    try {
      const redirect = await api.get('/schedulers', { headers: { 'x-forwarded-host': 'evil.example' }, maxRedirects: 0 });
      expect(redirect.status()).toBe(303);
      // Same host: Next.js writes the Location relative; either way never the forged host.
      expect(redirect.headers()['location'].replace(`http://127.0.0.1:${E2E_PORT}`, '')).toBe('/login?next=%2Fschedulers');
      const cross = await api.post('/auth/login', { headers: { origin: 'http://evil.example', 'x-forwarded-host': 'evil.example' }, data: { email: DEMO_EMAIL, password: E2E_DEMO_PASSWORD } });
      expect(cross.status()).toBe(403);
      expect(cross.headers()['set-cookie']).toBeUndefined();
    } finally {
      await api.dispose();
    }
    void request;
  });

  test('a foreign-origin server action is 403 and one over 1 MiB is 413, not Next.js\'s 500; nothing is changed', async ({ page, request }) => {
    await page.goto('/orgs/acme-corp/admin');
    const before = await page.getByRole('table', { name: 'Members' }).getByRole('row').count();
    const post = (headers: Record<string, string>, data: string) => request.post('/orgs/acme-corp/admin', { headers: { 'next-action': '7f00000000000000000000000000000000000000', 'content-type': 'text/plain;charset=UTF-8', ...headers }, data });
    const foreign = await post({ origin: 'http://evil.example', 'x-forwarded-host': 'evil.example' }, '["acme-corp",null,{}]');
    expect(foreign.status()).toBe(403);
    expect(await foreign.json()).toEqual({ error: { code: 'forbidden', message: 'cross-site form posts are refused' } });
    const huge = await post({ origin: `http://127.0.0.1:${E2E_PORT}` }, 'x'.repeat(1024 * 1024 + 10));
    expect(huge.status()).toBe(413);
    expect((await huge.json()).error.code).toBe('request_too_large');
    await page.reload();
    await expect(page.getByRole('table', { name: 'Members' }).getByRole('row')).toHaveCount(before);
  });

  test('/metrics answers a loopback scraper, and a client elsewhere only with the bearer token', async () => {
    const local = await getFrom('127.0.0.2', '/metrics');
    expect(local.status).toBe(200);
    expect(local.text).toContain('scheduler_due_backlog');
    // Through the limits server's proxy, the client is 203.0.113.9: not loopback, and no token is set.
    const remote = await getFrom('127.0.0.1', '/metrics', { 'x-forwarded-for': '203.0.113.9' }, LIMITS_PORT);
    expect(remote.status).toBe(401);
    expect(remote.headers['www-authenticate']).toBe('Bearer');
    expect(remote.text).not.toContain('scheduler_');
  });
});

test.describe('a hidden org answers as a missing one, in like time (acceptance 4)', () => {
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
  };

  test('medians of 100 interleaved not-found lookups of globex-corp (exists, hidden from acme-corp\'s key) and of a missing org differ by less than 10%', async ({ request }) => {
    const hidden = `/api/v1/orgs/${fx.orgs.globex.alias}/blobs`;
    const missing = `/api/v1/orgs/no-such-org-${SUFFIX}/blobs`;
    const lookup = async (url: string) => {
      const t0 = performance.now();
      const res = await request.get(url, { headers });
      const ms = performance.now() - t0;
      return { ms, status: res.status(), body: await res.json() };
    };
    // The two answers are one answer: nothing tells the caller that globex-corp exists.
    const [h, m] = [await lookup(hidden), await lookup(missing)];
    expect([h.status, m.status]).toEqual([404, 404]);
    expect(h.body).toEqual({ error: { code: 'not_found', message: 'org not found' } });
    expect(m.body).toEqual(h.body);

    // Warm both paths, then interleave (the order inside each pair alternates) so a busy moment of the
    // shared machine falls on both sides alike. A round outside 10% is measured again (at most 3 rounds):
    // a systematic difference (a second query for the hidden org) fails every round.
    for (let i = 0; i < 20; i += 1) await lookup(i % 2 ? hidden : missing);
    const rounds: string[] = [];
    let ratio = Infinity;
    for (let round = 0; round < 3 && !(ratio < 0.1); round += 1) {
      const times = { hidden: [] as number[], missing: [] as number[] };
      for (let i = 0; i < 100; i += 1) {
        const order = i % 2 ? (['hidden', 'missing'] as const) : (['missing', 'hidden'] as const);
        for (const which of order) {
          const r = await lookup(which === 'hidden' ? hidden : missing);
          expect(r.status).toBe(404);
          times[which].push(r.ms);
        }
      }
      const [mh, mm] = [median(times.hidden), median(times.missing)];
      ratio = Math.abs(mh - mm) / Math.max(mh, mm);
      rounds.push(`round ${round + 1}: hidden ${mh.toFixed(2)} ms, missing ${mm.toFixed(2)} ms, difference ${(ratio * 100).toFixed(1)}%`);
    }
    console.log(`org not-found lookup medians (100 each, interleaved): ${rounds.join('; ')}`);
    expect(ratio, rounds.join('; ')).toBeLessThan(0.1);
  });
});
