/**
 * Browser login (issue "Accounts and access", acceptance 3): log in, see only your orgs' schedulers,
 * log out, and be sent to the login page from every page. Plus the edges of the login form: the
 * failed-attempt limit (429), cross-site posts (CSRF), the cookie's attributes, the `next` redirect,
 * and the security headers. These tests start WITHOUT the operator's stored session.
 */
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AccessFixtures } from './setup/access-fixtures';
import { ACCESS_FIXTURES, DEMO_EMAIL, E2E_DEMO_PASSWORD, E2E_PORT, postFrom } from './api';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const fx = JSON.parse(readFileSync(path.join(ROOT, ACCESS_FIXTURES), 'utf8')) as AccessFixtures;
const acme = fx.orgs.acme;
const globex = fx.orgs.globex;

test.use({ storageState: { cookies: [], origins: [] } });

/** Every page of the app (with real ids) and an unknown path: each needs a session. */
const PAGES = [
  '/',
  '/schedulers',
  `/schedulers/${acme.scheduler.revisionId}`,
  `/schedulers/${acme.scheduler.revisionId}/new`,
  `/schedulers/${acme.scheduler.revisionId}/schedules/${acme.schedule.id}`,
  `/schedulers/${acme.scheduler.revisionId}/schedules/${acme.schedule.id}/edit`,
  `/schedulers/${acme.scheduler.revisionId}?state=active&enabled=false`,
  '/account',
  '/orgs',
  '/orgs/acme-corp/admin',
  '/no-such-page',
];

test('log in, see only your orgs\' schedulers, log out, and be sent to login from every page', async ({ page, context }) => {
  await page.goto('/schedulers');
  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${E2E_PORT}/login\\?next=%2Fschedulers$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();

  // A wrong password: the same page, with the one refusal text.
  await page.getByLabel('Email').fill(DEMO_EMAIL);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('The email or password is incorrect.');
  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${E2E_PORT}/login\\?error=unauthorized$`));

  await page.getByLabel('Email').fill(DEMO_EMAIL);
  await page.getByLabel('Password').fill(E2E_DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/schedulers$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Schedulers' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Account' })).toContainText(DEMO_EMAIL);

  // Only acme-corp's schedulers: the operator is no member of globex-corp.
  await expect(page.getByRole('link', { name: 'Ops scheduler' })).toBeVisible();
  await expect(page.getByRole('link', { name: acme.scheduler.name })).toBeVisible();
  await expect(page.getByText(globex.scheduler.name)).toHaveCount(0);
  await expect(page.getByText('Globex Corporation')).toHaveCount(0);

  const sessionCookie = (await context.cookies()).find((c) => c.name === 'scheduler_session');
  expect(sessionCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false });

  // Log out from the header.
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login\?signed_out=1$/);
  await expect(page.getByText('You are logged out.')).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === 'scheduler_session')).toBeUndefined();

  // Every page now sends the browser to the login page, remembering where it wanted to go.
  for (const url of PAGES) {
    await page.goto(url);
    const expected = url === '/' ? '/login' : `/login?next=${encodeURIComponent(url)}`;
    expect(new URL(page.url()).pathname + new URL(page.url()).search, url).toBe(expected);
  }

  // The logged-out session's token is dead on the server too: replaying the old cookie is not a login.
  await context.addCookies([{ ...sessionCookie!, expires: -1 }]);
  for (const url of ['/schedulers', '/account', `/schedulers/${acme.scheduler.revisionId}`]) {
    await page.goto(url);
    expect(new URL(page.url()).pathname, url).toBe('/login');
  }

  // Logging in from a deep link returns there.
  const deep = `/schedulers/${acme.scheduler.revisionId}/schedules/${acme.schedule.id}`;
  await context.clearCookies();
  await page.goto(deep);
  await page.getByLabel('Email').fill(DEMO_EMAIL);
  await page.getByLabel('Password').fill(E2E_DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(new RegExp(`${deep}$`));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('a member of globex-corp sees its schedulers and none of acme-corp\'s', async ({ page }) => {
  const user = fx.users.find((u) => u.org === 'globex' && u.role === 'read')!;
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/schedulers$/);
  await expect(page.getByRole('link', { name: globex.scheduler.name })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ops scheduler' })).toHaveCount(0);
  await expect(page.getByText(acme.scheduler.name)).toHaveCount(0);
});

test('5 failed logins for one email from one address: the 6th is 429 with a clear message, even with the right password', async ({ page }) => {
  const user = fx.users.find((u) => u.org === 'globex' && u.role === 'write')!;
  // A client address of its own (the socket is bound to 127.0.0.3), so no other test shares this counter.
  const from = (data: unknown) => postFrom('127.0.0.3', '/auth/login', data);
  for (let i = 0; i < 5; i++) {
    const res = await from({ email: user.email, password: `wrong-${i}` });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toEqual({ error: { code: 'unauthorized', message: 'email or password is incorrect' } });
  }
  const limited = await from({ email: user.email, password: user.password });
  expect(limited.status).toBe(429);
  expect(JSON.parse(limited.text)).toEqual({ error: { code: 'rate_limited', message: 'too many failed login attempts for this email; try again in 15 minutes' } });
  // An unknown email answers exactly as a wrong password.
  const unknown = await from({ email: 'nobody@nowhere.example', password: 'whatever' });
  expect(unknown.status).toBe(401);
  expect(JSON.parse(unknown.text)).toEqual({ error: { code: 'unauthorized', message: 'email or password is incorrect' } });
  // The browser (127.0.0.1) is another address: the same user logs in there.
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/schedulers$/);
  // The login form explains the limit.
  await page.context().clearCookies();
  await page.goto('/login?error=rate_limited');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Too many login attempts for this email. Wait 15 minutes, then try again.');
});

test('CSRF: a login or logout posted from another site is refused', async () => {
  const base = test.info().project.use.baseURL!;
  const api = await playwrightRequest.newContext({ baseURL: base });
  try {
    const cross = await api.post('/auth/login', { headers: { origin: 'http://evil.example' }, data: { email: DEMO_EMAIL, password: E2E_DEMO_PASSWORD } });
    expect(cross.status()).toBe(403);
    expect(cross.headers()['set-cookie']).toBeUndefined();
    const nullOrigin = await api.post('/auth/login', { headers: { origin: 'null' }, data: { email: DEMO_EMAIL, password: E2E_DEMO_PASSWORD } });
    expect(nullOrigin.status()).toBe(403);
    // A browser form post from another site is sent back to the login page, without a session.
    const form = await api.post('/auth/login', { headers: { origin: 'http://evil.example' }, form: { email: DEMO_EMAIL, password: E2E_DEMO_PASSWORD }, maxRedirects: 0 });
    expect(form.status()).toBe(303);
    expect(form.headers()['location']).toBe('/login?error=forbidden');
    expect(form.headers()['set-cookie']).toBeUndefined();

    const same = await api.post('/auth/login', { headers: { origin: base }, data: { email: DEMO_EMAIL, password: E2E_DEMO_PASSWORD } });
    expect(same.status()).toBe(200);
    const [cookie, device] = same.headers()['set-cookie'].split('\n');
    expect(cookie).toMatch(/^scheduler_session=[A-Za-z0-9_-]{43}; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
    // The login device cookie (a browser the account used before, docs/decisions.md 162) goes to /auth only.
    expect(device).toMatch(/^scheduler_device=[0-9a-f-]{36}\.[0-9a-z]+\.[A-Za-z0-9_-]{43}; Path=\/auth; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
    // A cross-site logout does not end the session.
    const logout = await api.post('/auth/logout', { headers: { origin: 'http://evil.example' } });
    expect(logout.status()).toBe(403);
    expect((await api.get('/account', { maxRedirects: 0 })).status()).toBe(200);
    expect((await api.post('/auth/logout', { headers: { origin: base, 'content-type': 'application/json' }, data: {} })).status()).toBe(200);
    const after = await api.get('/account', { maxRedirects: 0 });
    expect(after.status()).toBe(303);
  } finally {
    await api.dispose();
  }
});

test('`next` never leaves the site, and one outside Latin-1 is encoded (no 500, no session before a failure)', async () => {
  const api = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      const res = await api.post('/auth/login', { form: { email: DEMO_EMAIL, password: E2E_DEMO_PASSWORD, next }, maxRedirects: 0 });
      expect(res.status(), next).toBe(303);
      expect(res.headers()['location'], next).toBe('/schedulers');
    }
    const ok = await api.post('/auth/login', { form: { email: DEMO_EMAIL, password: E2E_DEMO_PASSWORD, next: '/orgs?x=1' }, maxRedirects: 0 });
    expect(ok.headers()['location']).toBe('/orgs?x=1');
    const wide = await api.post('/auth/login', { form: { email: DEMO_EMAIL, password: E2E_DEMO_PASSWORD, next: '/orgs?q=Ā€😀' }, maxRedirects: 0 });
    expect(wide.status()).toBe(303);
    expect(wide.headers()['location']).toBe('/orgs?q=%C4%80%E2%82%AC%F0%9F%98%80');
    expect(wide.headers()['set-cookie']).toMatch(/^scheduler_session=/);
  } finally {
    await api.dispose();
  }
});

test('security headers: a nonce CSP without \'unsafe-inline\' scripts on pages, a deny-all policy on the API, Referrer-Policy, nosniff', async ({ request }) => {
  const nonces = new Set<string>();
  for (const url of ['/login', '/login?x=2']) {
    const res = await request.get(url);
    const csp = res.headers()['content-security-policy'];
    const script = csp.split('; ').find((d) => d.startsWith('script-src '))!;
    expect(script, url).toMatch(/^script-src 'self' 'nonce-[A-Za-z0-9+/=]{40,}' 'strict-dynamic'$/);
    expect(script).not.toContain("'unsafe-inline'");
    for (const d of ["frame-ancestors 'none'", "default-src 'self'", "form-action 'self'", "object-src 'none'", "base-uri 'self'"]) expect(csp, url).toContain(d);
    const nonce = /'nonce-([^']+)'/.exec(script)![1];
    nonces.add(nonce);
    // Next.js's own scripts carry the nonce; none goes without.
    const html = await res.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag, url).toContain(`nonce="${nonce}"`);
    expect(res.headers()['x-frame-options'], url).toBe('DENY');
    expect(res.headers()['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
    expect(res.headers()['x-content-type-options'], url).toBe('nosniff');
  }
  expect(nonces.size).toBe(2); // a fresh nonce per request
  const api = await request.get('/api/health');
  expect(api.headers()['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  expect(api.headers()['x-content-type-options']).toBe('nosniff');
});
