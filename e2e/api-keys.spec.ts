/**
 * API keys through the UI (issue "Accounts and access", acceptance 4): a personal key and an org key
 * are created in the browser, their secret is shown once, they work against the API with their role,
 * their last use is shown, and once revoked they get `401` on the very next request. No secret —
 * keys, the operator's password, an invitation link's token, an invitee's password — is stored in the
 * database file or written to the server's log in clear.
 */
import { expect, test, type APIRequestContext, type Dialog, type Page } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_DEMO_PASSWORD, revisionOf, SERVER_LOG } from './api';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SUFFIX = Math.random().toString(16).slice(2, 8);

test.describe.configure({ mode: 'serial' });

/** The secrets this file has seen; checked against the database and the log at the end. */
const secrets: { what: string; value: string }[] = [{ what: 'operator password', value: E2E_DEMO_PASSWORD }];

async function createKey(page: Page, formName: string, name: string, role: 'read' | 'write'): Promise<string> {
  const form = page.getByRole('form', { name: formName });
  await form.getByLabel('Key name').fill(name);
  await form.getByLabel('Key role').selectOption(role);
  await form.getByRole('button', { name: 'Create key' }).click();
  const shown = form.getByTestId('shown-once');
  await expect(shown).toBeVisible();
  const key = (await shown.innerText()).trim();
  expect(key).toMatch(/^sk_[0-9a-f]{12}_[A-Za-z0-9_-]{32}$/);
  return key;
}

async function revokeKey(page: Page, name: string): Promise<void> {
  // The project's confirmation dialog, never the browser's confirm(): a native one is dismissed and fails the test.
  const native: string[] = [];
  const onDialog = (d: Dialog) => {
    native.push(d.message());
    void d.dismiss();
  };
  page.on('dialog', onDialog);
  const row = page.getByRole('row').filter({ hasText: name });
  await row.getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByRole('dialog', { name: `Revoke key "${name}"?` });
  await expect(confirm).toContainText('Requests with it are refused from their next request on');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  page.off('dialog', onDialog);
  expect(native, 'no browser confirm()').toEqual([]);
  await expect(page.getByRole('row').filter({ hasText: name }).getByText(/^revoked /)).toBeVisible();
}

async function listSchedules(request: APIRequestContext, key: string, revisionId: string) {
  const res = await request.post(`/api/v1/revisions/${revisionId}/data`, { headers: { authorization: `Bearer ${key}` }, data: { engine: 'scheduler_blobhub', command: 'list_schedules' } });
  return { status: res.status(), body: await res.json() };
}

test('a personal key made on /account acts as its user, shows its last use, and gets 401 at once when revoked', async ({ page, request }) => {
  const ops = await revisionOf(request, 'ops-scheduler');
  await page.goto('/account');
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  const name = `e2e-personal-${SUFFIX}`;
  const key = await createKey(page, 'New personal key', name, 'write');
  secrets.push({ what: 'personal key', value: key });

  // The row lists the key by its prefix only, never used yet.
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(`sk_${key.slice(3, 15)}_…`);
  await expect(row).toContainText('never');
  // The secret appears once on the page: in the create form's answer.
  expect((await page.content()).split(key).length - 1).toBe(1);

  const ok = await listSchedules(request, key, ops);
  expect(ok.status).toBe(200);
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: name })).not.toContainText('never');
  // The secret is not shown again after a reload.
  await expect(page.getByTestId('shown-once')).toHaveCount(0);
  expect(await page.content()).not.toContain(key);

  await revokeKey(page, name);
  const refused = await listSchedules(request, key, ops);
  expect(refused.status).toBe(401);
  expect(refused.body.error.code).toBe('unauthorized');
});

test('an org key made on the org admin page acts as the org with its role, and gets 401 at once when revoked', async ({ page, request }) => {
  const ops = await revisionOf(request, 'ops-scheduler');
  // The org's own address takes its admin there; an org it does not belong to is a 404.
  expect((await page.goto('/orgs/no-such-org-e2e'))?.status()).toBe(404);
  await page.goto('/orgs/acme-corp');
  await expect(page).toHaveURL(/\/orgs\/acme-corp\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Acme Corp' })).toBeVisible();
  const name = `e2e-org-${SUFFIX}`;
  const key = await createKey(page, 'New org key', name, 'read');
  secrets.push({ what: 'org key', value: key });

  expect((await listSchedules(request, key, ops)).status).toBe(200);
  // A read key cannot write, whoever owns it (SPEC §2).
  const write = await request.post(`/api/v1/revisions/${ops}/data`, { headers: { 'x-api-key': key }, data: { engine: 'scheduler_blobhub', command: 'set_all_enabled', enabled: false } });
  expect(write.status()).toBe(403);

  await revokeKey(page, name);
  expect((await listSchedules(request, key, ops)).status).toBe(401);
});

test('an org admin invites a new member by email: a one-time link is shown once, the invitee chooses a password and logs in', async ({ page, browser }) => {
  await page.goto('/orgs/acme-corp/admin');
  const email = `new-member-${SUFFIX}@acme-corp.example`;
  const form = page.getByRole('form', { name: 'Invite a member' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Role').selectOption('read');
  await form.getByRole('button', { name: 'Invite' }).click();
  const shown = form.getByTestId('shown-once');
  await expect(shown).toBeVisible();
  const link = (await shown.innerText()).trim();
  const token = link.split('/invite/')[1];
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  secrets.push({ what: 'invitation token', value: token });
  await expect(page.getByRole('table', { name: 'Pending invitations' })).toContainText(email);
  // No account yet, so not a member yet.
  await expect(page.getByRole('table', { name: 'Members' })).not.toContainText(email);

  const password = `member-pw-${SUFFIX}-0123`;
  secrets.push({ what: 'invitee password', value: password });
  const ctx = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  try {
    const p = await ctx.newPage();
    await p.goto(link);
    await p.getByLabel('Choose a password').fill(password);
    await p.getByRole('button', { name: 'Make account and join' }).click();
    await expect(p).toHaveURL(/\/schedulers$/);
    await expect(p.getByRole('link', { name: 'Ops scheduler' })).toBeVisible();
    // A read member is not an admin: the org admin page is a 404 for it, and the org's address lists its orgs.
    const res = await p.goto('/orgs/acme-corp/admin');
    expect(res?.status()).toBe(404);
    await p.goto('/orgs/acme-corp');
    await expect(p).toHaveURL(/\/orgs$/);
    // It logs in again with its own password.
    await ctx.clearCookies();
    await p.goto('/login');
    await p.getByLabel('Email').fill(email);
    await p.getByLabel('Password').fill(password);
    await p.getByRole('button', { name: 'Log in' }).click();
    await expect(p).toHaveURL(/\/schedulers$/);
  } finally {
    await ctx.close();
  }

  // Now a member, no longer pending; remove it again (the org keeps its admin).
  await page.reload();
  await expect(page.getByRole('table', { name: 'Members' })).toContainText(email);
  await expect(page.getByRole('table', { name: 'Pending invitations' }).getByRole('row').filter({ hasText: email })).toHaveCount(0);
  await page.getByRole('table', { name: 'Members' }).getByRole('row').filter({ hasText: email }).getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog', { name: `Remove ${email} from Acme Corp?` }).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('table', { name: 'Members' })).not.toContainText(email);
});

test('no secret is stored in the database file or written to the server log in clear', async () => {
  const files = ['data/e2e.db', 'data/e2e.db-wal', 'data/e2e.db-shm', SERVER_LOG].map((f) => path.join(ROOT, f)).filter((f) => existsSync(f));
  expect(files.map((f) => path.basename(f))).toEqual(expect.arrayContaining(['e2e.db', path.basename(SERVER_LOG)]));
  expect(secrets.length).toBe(5);
  for (const file of files) {
    const bytes = readFileSync(file);
    for (const s of secrets) {
      // The whole value, and for keys the secret part after the public prefix.
      for (const needle of [s.value, s.value.startsWith('sk_') ? s.value.slice(16) : null]) {
        if (needle) expect(bytes.includes(Buffer.from(needle, 'utf8')), `${s.what} found in ${path.basename(file)}`).toBe(false);
      }
    }
  }
});
