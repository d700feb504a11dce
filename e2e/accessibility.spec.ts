/**
 * Acceptance (SPEC §10, operators in a browser): the operator's pages are accessible and usable on a
 * desktop and on a phone.
 * - axe-core finds no `serious` or `critical` violation on the schedulers list, a scheduler's grid
 *   (also with a row's Actions menu open), the New Schedule form (also showing validation errors from
 *   the browser and from the server, and with every Delivery setting open), the edit form, a schedule
 *   page with runs (also with its Delete confirmation open) and with an exhausted occurrence, the
 *   workflow execution page a run links to, and the dead-letter page (also with its Dismiss
 *   confirmation open).
 * - At 1280×800 and at 390×844 the grid page, the New Schedule form and a schedule page do not scroll
 *   sideways (a table may scroll inside its own box), and New Schedule, Create schedule and Run now are
 *   visible, inside the viewport and work when clicked; at the phone width axe finds no serious or
 *   critical violation on those three pages either.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createApiSchedule, deleteApiSchedules, listAllDeadLetters, OPS_SCHEDULER, revisionOf, schedulerCommand, testSession, uniqueSuffix, wallTimeIn } from './api';
import { expectNoSeriousViolations, gridHref, gridRow, property, whenHydrated } from './ui';

test.use({ timezoneId: 'UTC' });

test.describe('axe: no serious or critical violations', () => {
  test('the schedulers list and a scheduler grid (with a row Actions menu open)', async ({ page, request }) => {
    const rev = await revisionOf(request, OPS_SCHEDULER);
    const alias = `a11y-grid-${uniqueSuffix()}`;
    const made = await createApiSchedule(request, rev, { alias, description: 'accessibility check of the grid', repeat: 'recurring_cron', cron_expression: '0 9 ? * MON-FRI *' });
    try {
      await page.goto('/schedulers');
      await expect(page.getByRole('heading', { level: 1, name: 'Schedulers' })).toBeVisible();
      await expectNoSeriousViolations(page, '/schedulers');

      await page.goto(await gridHref(request, rev, made.id));
      const row = gridRow(page, alias);
      await expect(row).toHaveCount(1);
      await expectNoSeriousViolations(page, 'the grid page');

      const menuButton = row.getByRole('button', { name: `Actions for ${alias}` });
      await whenHydrated(menuButton);
      await menuButton.click();
      await expect(page.getByRole('group', { name: `Actions for ${alias}` })).toBeVisible();
      await expectNoSeriousViolations(page, 'the grid page with a row Actions menu open');
    } finally {
      await deleteApiSchedules(request, rev, [made.id]);
    }
  });

  test('the New Schedule form, empty and showing validation errors', async ({ page, request }) => {
    const rev = await revisionOf(request, OPS_SCHEDULER);
    await page.goto(`/schedulers/${rev}/new`);
    await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
    await expectNoSeriousViolations(page, 'the New Schedule form');

    // Refused in the browser: a cron syntax error and a blank required field.
    await page.getByLabel('Cron expression').fill('61 9 * * ? *');
    await page.getByLabel('Session').fill('');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await expect(page.getByText('Session is required.')).toBeVisible();
    await expect(page.getByText('minutes: `61` is outside 0–59')).toBeVisible();
    await expectNoSeriousViolations(page, 'the New Schedule form with browser-side validation errors');

    // Refused by the server: a cron expression that never fires, shown at the field and in the alert.
    await page.getByLabel('Session').fill('nightly-batch');
    await page.getByLabel('Cron expression').fill('0 0 30 2 ? *');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'The schedule was not saved.' })).toBeVisible();
    await expect(page.locator('.field-error')).toHaveText(/never fires/);
    await expectNoSeriousViolations(page, 'the New Schedule form with a server-side validation error');
  });

  test('the edit form, and a schedule page with runs (with its Delete confirmation open)', async ({ page, request }) => {
    const rev = await revisionOf(request, OPS_SCHEDULER);
    const alias = `a11y-page-${uniqueSuffix()}`;
    const made = await createApiSchedule(request, rev, { alias, description: 'accessibility check of the schedule page', repeat: 'recurring_cron', cron_expression: '15 8 ? * MON-FRI *', timezone: 'Europe/Berlin' });
    try {
      await page.goto(`/schedulers/${rev}/schedules/${made.id}/edit`);
      await expect(page.getByRole('heading', { level: 1, name: `Edit ${alias}` })).toBeVisible();
      await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
      await expectNoSeriousViolations(page, 'the edit form');

      for (let i = 0; i < 2; i++) await schedulerCommand(request, rev, 'run_schedule', { schedule_id: made.id });
      await page.goto(`/schedulers/${rev}/schedules/${made.id}`);
      await expect(page.getByRole('table', { name: 'Executions' }).locator('tbody tr')).toHaveCount(2);
      await expect(property(page, 'Timezone')).toHaveText('Europe/Berlin');
      await expectNoSeriousViolations(page, 'a schedule page with runs');

      await whenHydrated(page.getByRole('button', { name: 'Delete' }));
      await page.getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByRole('dialog', { name: `Delete schedule ${alias}?` })).toBeVisible();
      await expectNoSeriousViolations(page, 'a schedule page with its Delete confirmation open');

      // The workflow execution a run created (linked from the history).
      await page.keyboard.press('Escape');
      await page.getByRole('table', { name: 'Executions' }).locator('tbody tr').first().getByRole('link').first().click();
      await expect(page.getByRole('heading', { level: 1, name: /^Execution / })).toBeVisible();
      await expectNoSeriousViolations(page, 'a workflow execution page');
    } finally {
      await deleteApiSchedules(request, rev, [made.id]);
    }
  });
});

test.describe('axe: cadence and delivery (SPEC §12)', () => {
  test('the New Schedule form with a rate, retries, a flexible window and a pause note', async ({ page, request }) => {
    const rev = await revisionOf(request, OPS_SCHEDULER);
    await page.goto(`/schedulers/${rev}/new`);
    await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
    await page.getByRole('radio', { name: /Recurring \(rate\)/ }).check();
    await page.getByRole('radio', { name: /Retry failed attempts/ }).check();
    await page.getByRole('radio', { name: /^Flexible Each occurrence/ }).check();
    await page.getByLabel('Enabled').uncheck();
    await page.getByLabel(/^Pause note/).fill('Paused while the billing migration runs');
    await expect(page.getByRole('table', { name: 'Next 5 fire times' })).toBeVisible();
    await expectNoSeriousViolations(page, 'the New Schedule form with every Delivery setting open');
    // Refused in the browser at the fields: bounds from the contract.
    await page.getByLabel('Maximum retry attempts').fill('186');
    await page.getByLabel('Window (minutes)').fill('0');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await expect(page.getByText('Maximum retry attempts must be a whole number from 0 to 185.')).toBeVisible();
    await expectNoSeriousViolations(page, 'the New Schedule form with Delivery errors');
  });

  test('the dead-letter page (with its Dismiss confirmation open), and a schedule page with an exhausted occurrence', async ({ page, request }) => {
    const rev = await revisionOf(request, OPS_SCHEDULER);
    const s = uniqueSuffix();
    const session = await testSession(request, `a11y-closed-${s}`);
    const alias = `a11y-dead-${s}`;
    const made: string[] = [];
    try {
      // A dead letter without retries: the first failed attempt is exhausted (docs/decisions.md 48).
      const schedule = await createApiSchedule(request, rev, {
        alias,
        repeat: 'one_time',
        invocation_time: wallTimeIn(5),
        invocation_target: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: session.alias }, workflow: { definition: 'triage' } },
        dead_letter: { arn: 'arn:aws:sqs:eu-west-1:123456789012:a11y-dlq' },
      });
      made.push(schedule.id);
      await session.close();
      await expect.poll(async () => (await listAllDeadLetters(request, rev)).some((l) => l.schedule_id === schedule.id), { timeout: 30_000 }).toBe(true);
      await page.goto(`/schedulers/${rev}/schedules/${schedule.id}`);
      await expect(page.locator('tr.occurrence-row')).toContainText('exhausted after 1 attempt');
      await expectNoSeriousViolations(page, 'a schedule page with an exhausted occurrence');

      await page.goto(`/schedulers/${rev}/dead-letters`);
      await expect(page.getByRole('table', { name: 'Dead letters' }).getByRole('link', { name: alias })).toBeVisible();
      await expectNoSeriousViolations(page, 'the dead-letter page');
      const dismiss = page.getByRole('button', { name: `Dismiss the dead letter of ${alias}` });
      await whenHydrated(dismiss);
      await dismiss.click();
      await expect(page.getByRole('dialog', { name: `Dismiss the dead letter of ${alias}?` })).toBeVisible();
      await expectNoSeriousViolations(page, 'the dead-letter page with its Dismiss confirmation open');
      await page.keyboard.press('Escape');
    } finally {
      for (const l of await listAllDeadLetters(request, rev)) if (made.includes(l.schedule_id)) await schedulerCommand(request, rev, 'dismiss_dead_letter', { dead_letter_id: l.id });
      await deleteApiSchedules(request, rev, made);
      await session.remove();
    }
  });
});

/**
 * The elements that stick out past the viewport's right edge and are not inside a box of their own
 * that clips or scrolls sideways: the outermost such elements, described by tag, id, classes and text.
 */
async function overflowCulprits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const clipsX = (el: Element) => ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(el).overflowX);
    const sticksOut = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 1 && r.right > vw + 0.5;
    };
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : '';
      const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 60);
      return `<${el.tagName.toLowerCase()}${id}${cls}> right edge ${Math.round(el.getBoundingClientRect().right)}px > ${vw}px${text ? ` “${text}”` : ''}`;
    };
    const out: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      if (!sticksOut(el)) continue;
      let clipped = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (clipsX(p)) {
          clipped = true;
          break;
        }
      }
      if (clipped) continue;
      const parent = el.parentElement;
      if (parent && parent !== document.body && sticksOut(parent)) continue;
      out.push(describe(el));
    }
    return out;
  });
}

/** The page does not scroll sideways; on failure, names what sticks out. */
async function expectNoHorizontalOverflow(page: Page, what: string): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  const culprits = widths.scroll <= widths.inner ? [] : await overflowCulprits(page);
  expect(widths.scroll, `${what} scrolls sideways (${widths.scroll}px wide in a ${widths.inner}px window); sticking out:\n${culprits.join('\n')}`).toBeLessThanOrEqual(widths.inner);
}

/** A primary action is visible, enabled, wholly inside the viewport once scrolled to, and takes a click. */
async function expectUsable(page: Page, action: Locator): Promise<void> {
  await action.scrollIntoViewIfNeeded();
  await expect(action).toBeVisible();
  await expect(action).toBeEnabled();
  await expect(action).toBeInViewport({ ratio: 1 });
  const box = (await action.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
  // Nothing covers it: the trial click checks the point it would click receives the event.
  await action.click({ trial: true });
}

for (const viewport of [
  { name: 'desktop 1280×800', width: 1280, height: 800 },
  { name: 'phone 390×844', width: 390, height: 844 },
]) {
  test.describe(viewport.name, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('grid → New Schedule → Create schedule → Run now: no sideways scrolling, every primary action usable', async ({ page, request }) => {
      const rev = await revisionOf(request, OPS_SCHEDULER);
      const alias = `layout-${viewport.width}-${uniqueSuffix()}`;
      const made: string[] = [];
      try {
        // The grid, with a schedule whose long description and target fill its cells.
        const wide = await createApiSchedule(request, rev, {
          alias: `${alias}-wide`,
          description: 'A long description that an operator wrote to explain exactly what this schedule does and why it runs at this time of day',
          repeat: 'recurring_cron',
          cron_expression: '0/15 8-18 ? * MON-FRI *',
          timezone: 'America/Argentina/Buenos_Aires',
          // Disabled: it only has to fill the grid's cells, never fire.
          enabled: false,
        });
        made.push(wide.id);
        await page.goto(await gridHref(request, rev, wide.id));
        await expect(gridRow(page, wide.alias!)).toHaveCount(1);
        await expectNoHorizontalOverflow(page, 'the grid page');
        if (viewport.width < 600) await expectNoSeriousViolations(page, `the grid page at ${viewport.name}`);
        const newSchedule = page.getByRole('button', { name: 'New Schedule' });
        await whenHydrated(newSchedule);
        await expectUsable(page, newSchedule);
        await newSchedule.click();

        // The form.
        await expect(page.getByRole('heading', { level: 1, name: 'New schedule' })).toBeVisible();
        await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
        await page.getByLabel('Alias').fill(alias);
        await page.getByLabel('Description').fill('Made by the layout check');
        await page.getByLabel('Timezone').fill('America/Argentina/Buenos_Aires');
        await expect(page.getByRole('table', { name: 'Next 5 fire times' })).toBeVisible();
        await expectNoHorizontalOverflow(page, 'the New Schedule form');
        if (viewport.width < 600) await expectNoSeriousViolations(page, `the New Schedule form at ${viewport.name}`);
        const create = page.getByRole('button', { name: 'Create schedule' });
        await expectUsable(page, create);
        await create.click();

        // The schedule page it lands on, after one run so Executions has a row.
        await expect(page).toHaveURL(/\/schedules\/[0-9a-f-]{36}$/);
        made.push(page.url().split('/').pop()!);
        await expect(property(page, 'Timezone')).toHaveText('America/Argentina/Buenos_Aires');
        const runNow = page.getByRole('button', { name: 'Run now' });
        await whenHydrated(runNow);
        await expectUsable(page, runNow);
        await runNow.click();
        await expect(page.getByRole('status')).toHaveText(`Run now on ${alias} recorded a run: success`);
        await expect(page.getByRole('table', { name: 'Executions' }).locator('tbody tr')).toHaveCount(1);
        await expectNoHorizontalOverflow(page, 'the schedule page');
        if (viewport.width < 600) await expectNoSeriousViolations(page, `the schedule page at ${viewport.name}`);
      } finally {
        await deleteApiSchedules(request, rev, made);
      }
    });
  });
}
