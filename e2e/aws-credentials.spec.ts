/**
 * SPEC §13.5 on the org admin page: the AWS credentials section shows the org's external ID, its
 * rotation asks first and names the consequence, allowed accounts are saved, and the settings
 * answer the same through the product API. axe on the section.
 */
import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations } from './ui';

test('an org admin sees the external ID, rotates it after a confirmation naming the consequence, and sets allowed accounts', async ({ page }) => {
  await page.goto('/orgs/acme-corp/admin');
  const section = page.getByRole('region', { name: 'AWS credentials' });
  const shown = section.getByTestId('aws-external-id');
  const before = (await shown.textContent())!.trim();
  expect(before).toMatch(/^[0-9a-f]{40}$/);
  // The demo org is listed in SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS by `npm start` and chose the worker's credentials.
  await expect(section.getByLabel('Credentials')).toHaveValue('worker');
  await expectNoSeriousViolations(page, 'the org admin page with its AWS credentials');

  await section.getByRole('button', { name: 'Rotate external ID' }).click();
  const confirm = page.getByRole('dialog', { name: 'Rotate the external ID of Acme Corp?' });
  await expect(confirm).toContainText("fails with assume_role_failed until each role's trust policy names the new external ID");
  await confirm.getByRole('button', { name: 'Rotate external ID' }).click();
  await expect(page.getByText(/^New external ID: [0-9a-f]{40}\./)).toBeVisible();
  await expect(shown).not.toHaveText(before);

  await section.getByLabel('Allowed AWS accounts').fill('123456789012, 210987654321');
  await section.getByRole('button', { name: 'Save AWS settings' }).click();
  await expect(page.getByText('AWS settings saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: 'AWS credentials' }).getByLabel('Allowed AWS accounts')).toHaveValue('123456789012, 210987654321');

  // Put it back for the other tests: any account.
  await page.getByRole('region', { name: 'AWS credentials' }).getByLabel('Allowed AWS accounts').fill('');
  await page.getByRole('region', { name: 'AWS credentials' }).getByRole('button', { name: 'Save AWS settings' }).click();
  await expect(page.getByText('AWS settings saved.')).toBeVisible();
});
