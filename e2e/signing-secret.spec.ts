/**
 * SPEC §13.1, the scheduler's webhook signing secret, on the real web app: an admin opens the
 * scheduler's Settings, is shown the secret once, rotates it (the previous one listed as still
 * signing for 24 h); the product API's `get_signing_secret` / `rotate_signing_secret` for an admin's
 * write key, refused for read keys and non-admins; a read member has no Settings (404). Beside it,
 * SPEC §16.3's `metrics_per_schedule`: the admin turns the per-schedule series of /metrics on and
 * off on the same page.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ACCESS_FIXTURES } from './api';
import { expectNoSeriousViolations } from './ui';
import type { AccessFixtures } from './setup/access-fixtures';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const fx = JSON.parse(readFileSync(path.join(ROOT, ACCESS_FIXTURES), 'utf8')) as AccessFixtures;
const acme = fx.orgs.acme;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

async function secretCommand(request: APIRequestContext, key: string, command: 'get_signing_secret' | 'rotate_signing_secret') {
  const res = await request.post(`/api/v1/revisions/${acme.scheduler.revisionId}/data`, { headers: { authorization: `Bearer ${key}` }, data: { engine: 'scheduler_blobhub', command } });
  return { status: res.status(), body: await res.json() };
}
const keyOf = (owner: 'org' | 'user', role: 'read' | 'write', userRole?: string) =>
  fx.keys.find((k) => k.org === 'acme' && k.owner === owner && k.role === role && (userRole === undefined || k.userRole === userRole))!.key;

test('§13.1 an admin is shown the signing secret once, rotates it, and sees the previous one still signing', async ({ page }) => {
  await page.goto(`/schedulers/${acme.scheduler.revisionId}`);
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Settings of ${acme.scheduler.name}` })).toBeVisible();
  await expect(page.getByTestId('signing-secret')).toContainText('No signing secret yet');

  const show = page.getByRole('form', { name: 'Show the signing secret' });
  await show.getByRole('button', { name: 'Show secret once' }).click();
  const shown = show.getByTestId('shown-once');
  await expect(shown).toHaveText(SECRET);
  const first = (await shown.innerText()).trim();

  // Shown once: after a reload only its hint is left, and no way to show it again.
  await page.reload();
  await expect(page.getByTestId('signing-secret')).toContainText(`${first.slice(0, 10)}…`);
  await expect(page.getByRole('button', { name: 'Show secret once' })).toHaveCount(0);
  expect(await page.content()).not.toContain(first);

  const rotate = page.getByRole('form', { name: 'Rotate the signing secret' });
  await rotate.getByRole('button', { name: 'Rotate secret' }).click();
  // The project's confirmation dialog names the consequence before anything changes.
  const confirm = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
  await expect(confirm).toContainText('keeps signing for 24 hours');
  await confirm.getByRole('button', { name: 'Rotate secret' }).click();
  await expect(rotate.getByTestId('shown-once')).toHaveText(SECRET);
  const second = (await rotate.getByTestId('shown-once').innerText()).trim();
  expect(second).not.toBe(first);
  await page.reload();
  await expect(page.getByTestId('signing-secret')).toContainText(`${second.slice(0, 10)}…`);
  await expect(page.getByRole('table', { name: 'Previous secrets still signing' })).toContainText(`${first.slice(0, 10)}…`);

  // The API tells the same, without the secret (it was shown already).
  const got = await secretCommand(page.request, keyOf('org', 'write'), 'get_signing_secret');
  expect(got.status).toBe(200);
  expect(got.body.signing_secret.secret).toBeUndefined();
  expect(got.body.signing_secret.hint).toBe(`${second.slice(0, 10)}…`);
  expect(got.body.signing_secret.previous.map((p: { hint: string }) => p.hint)).toEqual([`${first.slice(0, 10)}…`]);
});

test('§13.1 the API: an admin\'s write key rotates (the answer shows the secret); read keys and non-admins are refused', async ({ request }) => {
  const rotated = await secretCommand(request, keyOf('user', 'write', 'admin'), 'rotate_signing_secret');
  expect(rotated.status).toBe(200);
  expect(rotated.body.signing_secret.secret).toMatch(SECRET);
  for (const key of [keyOf('org', 'read'), keyOf('user', 'write', 'write'), keyOf('user', 'read', 'admin')]) {
    for (const command of ['get_signing_secret', 'rotate_signing_secret'] as const) {
      const refused = await secretCommand(request, key, command);
      expect(refused.status, command).toBe(403);
      expect(refused.body.error.code).toBe('forbidden');
    }
  }
});

test('§13.1 a read member sees no Settings, and the settings page is a 404 for it', async ({ browser }) => {
  const reader = fx.users.find((u) => u.org === 'acme' && u.role === 'read')!;
  const ctx = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  try {
    const p = await ctx.newPage();
    await p.goto('/login');
    await p.getByLabel('Email').fill(reader.email);
    await p.getByLabel('Password').fill(reader.password);
    await p.getByRole('button', { name: 'Log in' }).click();
    await expect(p).toHaveURL(/\/schedulers$/);
    await p.goto(`/schedulers/${acme.scheduler.revisionId}`);
    await expect(p.getByRole('heading', { level: 1, name: acme.scheduler.name })).toBeVisible();
    await expect(p.getByRole('link', { name: 'Settings' })).toHaveCount(0);
    const res = await p.goto(`/schedulers/${acme.scheduler.revisionId}/settings`);
    expect(res?.status()).toBe(404);
  } finally {
    await ctx.close();
  }
});

test('§16.3 an admin turns the per-schedule series of /metrics on and off in the scheduler\'s settings', async ({ page }) => {
  const series = `scheduler_schedule_consecutive_failures{scheduler="acme-corp/${acme.scheduler.alias}",schedule="`;
  const scrape = async () => {
    const res = await page.request.get('/metrics');
    expect(res.status()).toBe(200);
    return res.text();
  };
  await page.goto(`/schedulers/${acme.scheduler.revisionId}/settings`);
  const state = page.getByTestId('metrics-per-schedule');
  await expect(state).toHaveText('Per-schedule metrics are off.');
  expect(await scrape()).not.toContain(series);
  await expectNoSeriousViolations(page, 'the scheduler settings page');

  await page.getByRole('form', { name: 'Turn per-schedule metrics on' }).getByRole('button', { name: 'Turn on' }).click();
  await expect(state).toHaveText('Per-schedule metrics are on.');
  expect(await scrape()).toContain(series);
  await page.reload();
  await expect(state).toHaveText('Per-schedule metrics are on.');

  await page.getByRole('form', { name: 'Turn per-schedule metrics off' }).getByRole('button', { name: 'Turn off' }).click();
  await expect(state).toHaveText('Per-schedule metrics are off.');
  expect(await scrape()).not.toContain(series);
});
