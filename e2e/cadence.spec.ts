/**
 * Acceptance 5 of "Cadence and delivery" (SPEC §12) on the real web app and worker:
 * - the New Schedule form creates a rate schedule with a retry policy and a 10-minute flexible window;
 *   its preview's next fire times are lib/cron's `nextRateOccurrences` (from the next whole minute, then
 *   from the start date), in the schedule's zone and the viewer's; the schedule page, the grid and the
 *   API show every setting, and an edit sends only what changed;
 * - a schedule aimed at a closed session with `maximum_retry_attempts: 1` fires attempt 1, is
 *   "retrying" in the grid, fires attempt 2 sixty seconds later (the back-off) and lands in the dead
 *   letters; the history groups both attempts under the occurrence; after the session is reopened,
 *   Replay records a successful manual run linked to the dead letter, and Dismiss (confirmed) removes it.
 * The viewer's zone is pinned to America/New_York and the schedules' are not UTC, so "your time" and
 * "in <zone>" differ.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { DateTime } from 'luxon';
import { nextRateOccurrences, parseRateExpression } from '../lib/cron';
import { retryDelaySeconds } from '../lib/schedules/contract';
import {
  testSession,
  createApiSchedule,
  deleteApiSchedules,
  getApiSchedule,
  listAllDeadLetters,
  OPS_SCHEDULER,
  revisionOf,
  schedulerCommand,
  uniqueSuffix,
  wallTimeIn,
  type ApiRun,
} from './api';
import { gridCell, gridHref, gridRow, literal, property, whenHydrated } from './ui';

const VIEWER_ZONE = 'America/New_York';
test.use({ timezoneId: VIEWER_ZONE });

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const SCHEDULE_URL = new RegExp(`/schedules/(${UUID.source})$`);

/** `yyyy-MM-dd HH:mm:ss` of `at` in `zone`: how the pages print an instant before the zone's short name. */
const wall = (at: Date, zone: string) => DateTime.fromJSDate(at).setZone(zone).toFormat('yyyy-MM-dd HH:mm:ss');

/** The wall times (without the zone name) of one column of the preview's "Next 5 fire times" table. */
async function previewColumn(page: Page, column: 2 | 3): Promise<string[]> {
  const cells = page.getByRole('table', { name: 'Next 5 fire times' }).locator(`tbody tr td:nth-child(${column})`);
  return (await cells.allInnerTexts()).map((t) => t.trim().slice(0, 19));
}

test('New Schedule: a rate schedule with a retry policy and a 10-minute flexible window; its next fires are nextRateOccurrences in both zones', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const alias = `ui-rate-${uniqueSuffix()}`;
  const zone = 'Asia/Kolkata';
  const rate = parseRateExpression('15 minutes');
  const made: string[] = [];
  try {
    await page.goto(`/schedulers/${rev}/new`);
    await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
    await page.getByLabel('Alias').fill(alias);
    await page.getByRole('radio', { name: /Recurring \(rate\)/ }).check();
    await page.getByLabel('Rate', { exact: true }).fill('15 minutes');
    await page.getByLabel('Timezone').fill(zone);
    const preview = page.locator('.preview');
    await expect(preview.locator('.preview-description')).toHaveText('Every 15 minutes');

    // No start date: counted from the next whole minute after now (where a save now anchors it).
    await expect(preview).toContainText('Counted from the next whole minute after saving');
    await expect
      .poll(async () => {
        const now = Date.now();
        const expected = nextRateOccurrences(rate, new Date(Math.ceil(now / 60_000) * 60_000), new Date(now), 5);
        return JSON.stringify([await previewColumn(page, 2), await previewColumn(page, 3)]) === JSON.stringify([expected.map((d) => wall(d, zone)), expected.map((d) => wall(d, VIEWER_ZONE))]);
      }, { message: 'the preview lists nextRateOccurrences from the next whole minute', timeout: 20_000 })
      .toBe(true);

    // A start date: counted from it, whatever the clock says.
    const anchor = new Date('2030-01-01T00:07:00Z');
    await page.getByLabel(/^Start date/).fill('2030-01-01T00:07');
    await expect(preview).toContainText(`Counted from the start date, ${wall(anchor, zone)}`);
    const fromStart = nextRateOccurrences(rate, anchor, new Date(), 5);
    expect(fromStart[0].toISOString()).toBe('2030-01-01T00:07:00.000Z');
    await expect.poll(() => previewColumn(page, 2)).toEqual(fromStart.map((d) => wall(d, zone)));
    await expect.poll(() => previewColumn(page, 3)).toEqual(fromStart.map((d) => wall(d, VIEWER_ZONE)));
    await expect(page.getByRole('table', { name: 'Next 5 fire times' }).locator('thead')).toContainText(`Your time (${VIEWER_ZONE})`);

    // Delivery: retries with their back-off in words, a 10-minute flexible window, pause after 5.
    await page.getByRole('radio', { name: /Retry failed attempts/ }).check();
    await page.getByLabel('Maximum retry attempts').fill('2');
    await page.getByLabel('Maximum event age (seconds)').fill('3600');
    await expect(page.getByText('Waits before each retry: 60 s, 120 s, doubling each time, capped at 1 day.')).toBeVisible();
    await page.getByRole('radio', { name: /^Flexible Each occurrence/ }).check();
    await page.getByLabel('Window (minutes)').fill('10');
    await expect(page.getByText('Flexible time window on: each occurrence fires at its own fixed offset, from 0 up to 10 minutes after the time shown')).toBeVisible();
    await page.getByLabel(/^Pause after consecutive failed occurrences/).fill('5');
    // A bound from the contract, refused in the browser at its field; then corrected.
    await page.getByLabel('Window (minutes)').fill('1441');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await expect(page.getByText('Window (minutes) must be a whole number from 1 to 1,440.')).toBeVisible();
    await page.getByLabel('Window (minutes)').fill('10');
    await page.getByRole('button', { name: 'Create schedule' }).click();

    await expect(page).toHaveURL(SCHEDULE_URL);
    const id = SCHEDULE_URL.exec(new URL(page.url()).pathname)![1];
    made.push(id);
    const saved = await getApiSchedule(request, rev, id);
    expect(saved).toMatchObject({
      alias,
      repeat: 'recurring_rate',
      rate_expression: '15 minutes',
      timezone: zone,
      start_date: anchor.toISOString(),
      retry_policy: { maximum_retry_attempts: 2, maximum_event_age_seconds: 3600 },
      flexible_time_window: { mode: 'flexible', maximum_window_minutes: 10 },
      pause_after_failures: 5,
    });
    expect(saved.cron_expression).toBeUndefined();
    expect(saved.dead_letter).toBeUndefined();
    expect(saved.action_after_completion).toBeUndefined();
    // SPEC §12.4: the first occurrence is the anchor; it fires at a fixed offset inside the 10 minutes.
    const next = Date.parse(saved.next_fire_at!);
    expect(next).toBeGreaterThanOrEqual(anchor.getTime());
    expect(next).toBeLessThan(anchor.getTime() + 10 * 60_000);

    // The schedule page says each setting in words.
    await expect(property(page, 'Repeat')).toHaveText('Recurring (recurring_rate)');
    await expect(property(page, 'Rate').locator('code')).toHaveText('15 minutes');
    await expect(property(page, 'Rate')).toContainText('Every 15 minutes');
    await expect(property(page, 'Rate')).toContainText('Counted from the start date');
    await expect(property(page, 'Retry policy')).toContainText('Up to 2 retries (3 attempts), none starting later than 1 h after the scheduled time.');
    await expect(property(page, 'Dead-letter queue')).toContainText('None');
    await expect(property(page, 'Flexible time window')).toHaveText('Flexible, 10 minutes: each occurrence fires at its own fixed offset from 0 up to 10 minutes after its scheduled time.');
    await expect(property(page, 'After completion')).toHaveText('Keep the schedule once it completes (read-only).');
    await expect(property(page, 'Pause after failures')).toHaveText('Disable after 5 consecutive failed occurrences.');
    await expect(property(page, 'Next fire').locator('time').first()).toHaveText(literal(wall(new Date(next), zone)));

    // The grid: the rate and its words in the Cadence column.
    await page.goto(await gridHref(request, rev, id));
    const row = gridRow(page, alias);
    await expect(await gridCell(page, row, 'Cadence')).toHaveText(/^15 minutes\s*Every 15 minutes$/);

    // Edit: the stored settings come back; only what changed is sent, and the occurrence is kept.
    await page.goto(`/schedulers/${rev}/schedules/${id}/edit`);
    await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
    await expect(page.getByLabel('Maximum retry attempts')).toHaveValue('2');
    await expect(page.getByLabel('Window (minutes)')).toHaveValue('10');
    await expect.poll(() => previewColumn(page, 2)).toEqual(nextRateOccurrences(rate, anchor, new Date(), 5).map((d) => wall(d, zone)));
    await page.getByLabel(/^Pause after consecutive failed occurrences/).fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(SCHEDULE_URL);
    await expect(property(page, 'Pause after failures')).toHaveText('Never: failures do not disable it.');
    const edited = await getApiSchedule(request, rev, id);
    expect(edited.pause_after_failures).toBeUndefined();
    expect(edited.next_fire_at).toBe(saved.next_fire_at);
    expect(edited.retry_policy).toEqual(saved.retry_policy);
  } finally {
    await deleteApiSchedules(request, rev, made);
  }
});

/** The Executions table's occurrence row of the occurrence `scheduledFor` (ISO UTC). */
function occurrence(page: Page, scheduledFor: string): Locator {
  return page.getByRole('table', { name: 'Executions' }).locator(`tbody[data-occurrence="${scheduledFor}"]`);
}

test('a retried occurrence: attempt 1, "retrying" in the grid, attempt 2 sixty seconds later, the dead letter, Replay into a successful manual run, Dismiss', async ({ page, request }) => {
  // Attempt 2 comes 60 s after attempt 1 (the back-off of SPEC §12.2), through the real worker.
  test.setTimeout(240_000);
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const s = uniqueSuffix();
  const alias = `ui-retry-${s}`;
  const arn = 'arn:aws:sqs:us-east-1:123456789012:e2e-dead-letters';
  const session = await testSession(request, `e2e-closed-${s}`);
  const made: string[] = [];
  try {
    const schedule = await createApiSchedule(request, rev, {
      alias,
      repeat: 'one_time',
      invocation_time: wallTimeIn(6, 'Europe/Berlin'),
      timezone: 'Europe/Berlin',
      invocation_target: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: session.alias }, workflow: { definition: 'triage' } },
      retry_policy: { maximum_retry_attempts: 1, maximum_event_age_seconds: 3600 },
      dead_letter: { arn },
    });
    made.push(schedule.id);
    await session.close();
    const runsOf = async () => ((await schedulerCommand(request, rev, 'list_executions', { schedule_id: schedule.id })).executions as ApiRun[]).reverse();

    // Attempt 1 fails (the session is closed) and is retried.
    await expect.poll(async () => (await runsOf()).length, { timeout: 30_000 }).toBe(1);
    const [first] = await runsOf();
    expect(first).toMatchObject({ trigger: 'schedule', attempt: 1, status: 'invocation_error', result: { error: 'session_not_open' } });
    expect(Date.parse(first.next_attempt_at!) - Date.parse(first.created_at)).toBe(retryDelaySeconds(1) * 1000);

    await page.goto(`/schedulers/${rev}/schedules/${schedule.id}`);
    const group = occurrence(page, first.scheduled_for);
    await expect(group.locator('tr.occurrence-row')).toContainText('retrying attempt 2 of 2 is due at');
    const attempt1 = group.locator(`tr[data-run-id="${first.id}"]`);
    await expect(attempt1).toContainText('attempt 1 of 2');
    await expect(attempt1).toContainText('next attempt at');
    await expect(attempt1).toContainText('session_not_open');
    await expect(property(page, 'Retrying')).toContainText('Attempt 2 of the occurrence');

    // The grid shows the retry as a state.
    await page.goto(await gridHref(request, rev, schedule.id));
    await expect(await gridCell(page, gridRow(page, alias), 'State')).toContainText('retrying');

    // Attempt 2, sixty seconds after attempt 1, fails too: the occurrence is exhausted into a dead letter.
    await expect.poll(async () => (await runsOf()).length, { timeout: 100_000, intervals: [2000] }).toBe(2);
    const [, second] = await runsOf();
    expect(second).toMatchObject({ trigger: 'schedule', attempt: 2, status: 'invocation_error', exhausted: 'maximum_retry_attempts', scheduled_for: first.scheduled_for });
    expect(Date.parse(second.created_at)).toBeGreaterThanOrEqual(Date.parse(first.next_attempt_at!));
    const letter = (await listAllDeadLetters(request, rev)).find((l) => l.schedule_id === schedule.id);
    expect(letter).toMatchObject({ schedule_label: alias, attempts: 2, exhausted: 'maximum_retry_attempts', last_run_id: second.id, dead_letter_arn: arn, scheduled_for: first.scheduled_for });
    expect(letter!.replay).toBeUndefined();

    // The history groups both attempts under the occurrence (newest first), with why it ended.
    await page.goto(`/schedulers/${rev}/schedules/${schedule.id}`);
    await expect(group.locator('tr.occurrence-row')).toContainText('exhausted after 2 attempts: maximum retry attempts');
    await expect(group.locator('tr[data-run-id]')).toHaveCount(2);
    expect(await group.locator('tr[data-run-id]').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-attempt')))).toEqual(['2', '1']);
    await expect(group.locator(`tr[data-run-id="${second.id}"]`)).toContainText('attempt 2 of 2');
    await expect(group.locator(`tr[data-run-id="${second.id}"]`)).toContainText('exhausted: maximum retry attempts');

    // The scheduler page counts the dead letters and links to them.
    const count = (await listAllDeadLetters(request, rev)).length;
    await page.goto(`/schedulers/${rev}`);
    await page.getByRole('link', { name: `${count} dead letter${count === 1 ? '' : 's'}`, exact: true }).click();
    await expect(page).toHaveURL(`/schedulers/${rev}/dead-letters`);
    await expect(page.getByRole('heading', { level: 1, name: 'Dead letters' })).toBeVisible();
    const row = page.locator(`tr[data-dead-letter-id="${letter!.id}"]`);
    await expect(row.getByRole('link', { name: alias })).toHaveAttribute('href', `/schedulers/${rev}/schedules/${schedule.id}`);
    await expect(row).toContainText('2 attempts');
    await expect(row).toContainText('maximum retry attempts');
    await expect(row).toContainText('session_not_open');
    await expect(row).toContainText(arn);
    await expect(row).toContainText('Never');

    // Reopened, the session takes the replay: a successful manual run linked to the dead letter.
    await session.reopen();
    const replay = row.getByRole('button', { name: `Replay the dead letter of ${alias}` });
    await whenHydrated(replay);
    await replay.click();
    await expect(page.getByRole('status')).toContainText(`Replayed the occurrence of ${alias}: a manual run, success`);
    await expect(row.locator('td').nth(6)).toContainText('success');
    const [manual] = (await schedulerCommand(request, rev, 'list_executions', { schedule_id: schedule.id })).executions as ApiRun[];
    expect(manual).toMatchObject({ trigger: 'manual', attempt: 1, status: 'success', dead_letter_id: letter!.id });
    const replayed = (await listAllDeadLetters(request, rev)).find((l) => l.id === letter!.id);
    expect(replayed!.replay).toMatchObject({ run_id: manual.id, status: 'success' });

    await page.getByRole('status').getByRole('link', { name: 'See its executions' }).click();
    await expect(page).toHaveURL(`/schedulers/${rev}/schedules/${schedule.id}`);
    const manualRow = page.getByRole('table', { name: 'Executions' }).locator(`tr[data-run-id="${manual.id}"]`);
    await expect(manualRow).toContainText('manual');
    await expect(manualRow).toContainText('success');
    const link = manualRow.getByRole('link', { name: letter!.id.slice(0, 8) });
    await expect(manualRow).toContainText(`replay of dead letter ${letter!.id.slice(0, 8)}`);
    await expect(link).toHaveAttribute('href', `/schedulers/${rev}/dead-letters#dead-letter-${letter!.id}`);

    // Dismiss asks first, naming what is lost; Cancel keeps it, Dismiss removes it.
    await link.click();
    await expect(page).toHaveURL(`/schedulers/${rev}/dead-letters#dead-letter-${letter!.id}`);
    const dismiss = row.getByRole('button', { name: `Dismiss the dead letter of ${alias}` });
    await whenHydrated(dismiss);
    await dismiss.click();
    const dialog = page.getByRole('dialog', { name: `Dismiss the dead letter of ${alias}?` });
    await expect(dialog).toContainText('it can no longer be replayed');
    await expect(dialog).toContainText('2 attempts, exhausted: maximum retry attempts');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect((await listAllDeadLetters(request, rev)).some((l) => l.id === letter!.id)).toBe(true);
    await dismiss.click();
    await dialog.getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByRole('status')).toHaveText(`The dead letter of ${alias} was dismissed.`);
    await expect(row).toHaveCount(0);
    expect((await listAllDeadLetters(request, rev)).some((l) => l.id === letter!.id)).toBe(false);
  } finally {
    await deleteApiSchedules(request, rev, made);
    await session.remove();
  }
});
