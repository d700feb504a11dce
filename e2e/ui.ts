/**
 * Shared helpers for end-to-end tests that drive the operator's pages in the browser (SPEC §10):
 * where a schedule sits in the grid, reading grid cells and schedule properties by their visible
 * headings, waiting for hydration, and the expected wall times of simple cron expressions.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { DateTime } from 'luxon';
import { schedulerCommand, type ApiSchedule } from './api';

/**
 * The grid page (`/schedulers/{rev}`, `?page=N` after the first of its 50-a-page pages) that holds
 * `scheduleId`, so a test finds its own row whatever other tests left in the scheduler. The grid's
 * default order is the API's `list_schedules` order (created_at, then id).
 */
export async function gridHref(request: APIRequestContext, revisionId: string, scheduleId: string): Promise<string> {
  let cursor: string | null = null;
  let index = 0;
  for (;;) {
    const body = await schedulerCommand(request, revisionId, 'list_schedules', cursor ? { start_schedule_id: cursor } : {});
    const schedules = body.schedules as ApiSchedule[];
    const at = schedules.findIndex((s) => s.id === scheduleId);
    if (at >= 0) {
      const page = Math.floor((index + at) / 50) + 1;
      return page > 1 ? `/schedulers/${revisionId}?page=${page}` : `/schedulers/${revisionId}`;
    }
    index += schedules.length;
    cursor = body.last_schedule_id as string | null;
    expect(cursor, `schedule ${scheduleId} is listed`).not.toBeNull();
  }
}

/** Resolves once React has hydrated the element (its handlers are attached), so typing is not lost. */
export async function whenHydrated(locator: Locator): Promise<void> {
  await expect
    .poll(() => locator.evaluate((el) => Object.keys(el).some((k) => k.startsWith('__reactFiber') || k.startsWith('__reactProps'))), {
      message: 'the element is hydrated',
    })
    .toBe(true);
}

/** The grid's table of schedules. */
export function scheduleGrid(page: Page): Locator {
  return page.getByRole('table', { name: 'Schedules' });
}

/** The grid row whose name link reads `label` (alias, or id when there is none). */
export function gridRow(page: Page, label: string): Locator {
  return scheduleGrid(page)
    .locator('tbody tr')
    .filter({ has: page.getByRole('link', { name: label, exact: true }) });
}

/** The names (first column's links) of the grid rows, top to bottom. */
export function gridNames(page: Page): Locator {
  return scheduleGrid(page).locator('tbody tr td:first-child').getByRole('link');
}

/** The cell of `row` under the column headed `header` ("Next fire"), found by the header's text. */
export async function gridCell(page: Page, row: Locator, header: string): Promise<Locator> {
  const headers = (await scheduleGrid(page).locator('thead th').allInnerTexts()).map((h) => h.replace(/[▲▼↕]/g, '').trim());
  const index = headers.indexOf(header);
  expect(index, `a grid column "${header}" among ${JSON.stringify(headers)}`).toBeGreaterThanOrEqual(0);
  return row.locator('td').nth(index);
}

/** The value (`<dd>`) of the schedule page's property whose term (`<dt>`) reads exactly `term`. */
export function property(page: Page, term: string): Locator {
  return page.locator(`dt:text-is("${term}") + dd`);
}

/**
 * The first instant strictly after `after` at local `hour:minute` in `zone`, on one of `weekdays`
 * (luxon numbering, 1 = Monday … 7 = Sunday; every day when omitted). Only for wall times that exist
 * every day in `zone` (no DST gap at that time).
 */
export function nextWallTime(zone: string, hour: number, minute: number, weekdays?: number[], after: DateTime = DateTime.now()): DateTime {
  let at = after.setZone(zone).set({ hour, minute, second: 0, millisecond: 0 });
  while (at <= after || (weekdays && !weekdays.includes(at.weekday))) at = at.plus({ days: 1 }).set({ hour, minute });
  return at;
}

/** `2026-03-08 02:30:00`: the wall-time part the pages print before the zone's short name. */
export function wallText(at: DateTime, seconds = true): string {
  return at.toFormat(seconds ? 'yyyy-MM-dd HH:mm:ss' : 'yyyy-MM-dd HH:mm');
}

/** `2026-03-08 01:30:00 UTC`: an instant as the schedule page prints it in UTC. */
export function utcText(at: DateTime): string {
  return `${at.toUTC().toFormat('yyyy-MM-dd HH:mm:ss')} UTC`;
}

/** A regular expression matching `s` literally. */
export function literal(s: string): RegExp {
  return new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

/** Runs axe on the page as it is now; fails listing every serious or critical violation readably. */
export async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  // Next streams the <title> after the body on a client-side navigation: scan once it is there.
  await expect(page).toHaveTitle(/\S/);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious
    .map((v) =>
      [
        `${v.id} (${v.impact}): ${v.help}`,
        `  ${v.helpUrl}`,
        ...v.nodes.slice(0, 8).map((n) => `  - ${n.target.join(' ')}\n    ${(n.failureSummary ?? '').replace(/\n/g, '\n    ')}`),
        ...(v.nodes.length > 8 ? [`  … and ${v.nodes.length - 8} more`] : []),
      ].join('\n'),
    )
    .join('\n\n');
  expect(serious.length, `serious or critical axe violations on ${what}:\n\n${report}`).toBe(0);
}
