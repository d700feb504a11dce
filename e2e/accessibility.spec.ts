/**
 * Acceptance (SPEC §10, operators in a browser): the operator's pages are accessible and usable on a
 * desktop and on a phone.
 * - axe-core finds no `serious` or `critical` violation on the schedulers list, a scheduler's grid
 *   (also with a row's Actions menu open), the New Schedule form (also showing validation errors from
 *   the browser and from the server), the edit form, and a schedule page with runs (also with its
 *   Delete confirmation open), and the workflow execution page a run links to.
 * - At 1280×800 and at 390×844 the grid page, the New Schedule form and a schedule page do not scroll
 *   sideways (a table may scroll inside its own box), and New Schedule, Create schedule and Run now are
 *   visible, inside the viewport and work when clicked; at the phone width axe finds no serious or
 *   critical violation on those three pages either.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createApiSchedule, deleteApiSchedules, OPS_SCHEDULER, revisionOf, schedulerCommand, uniqueSuffix } from './api';
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
