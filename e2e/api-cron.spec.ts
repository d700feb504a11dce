/**
 * The main job through the API (issue "Main job end to end", acceptance 3): a `* * * * ? *` schedule in
 * Asia/Kolkata, created with the bootstrap key, fires once per minute on minute boundaries, never twice.
 */
import { expect, test } from '@playwright/test';
import { command, FOLLOWING_TARGET, revisionOf } from './api';

test('§8 a minutely cron in Asia/Kolkata fires once a minute for 3 minutes, on minute boundaries', async ({ request }) => {
  test.setTimeout(300_000);
  const scheduler = await revisionOf(request, 'ops-scheduler');
  const created = await command(request, scheduler, {
    engine: 'scheduler_blobhub',
    command: 'create_schedule',
    alias: 'every-minute-kolkata',
    description: 'minutely in Kolkata',
    repeat: 'recurring_cron',
    cron_expression: '* * * * ? *',
    timezone: 'Asia/Kolkata',
    invocation_target: FOLLOWING_TARGET,
  });
  expect(created.status).toBe(200);
  const schedule = created.body.schedule;
  expect(schedule.state).toBe('active');
  const firstDue = Date.parse(schedule.next_fire_at);
  expect(firstDue % 60_000).toBe(0);

  // Let the worker run through three occurrences (~3 minutes).
  const expected = [0, 1, 2].map((i) => new Date(firstDue + i * 60_000).toISOString());
  let runs: { scheduled_for: string; status: string; trigger: string }[] = [];
  await expect
    .poll(
      async () => {
        const page = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'list_executions', schedule_id: schedule.id });
        runs = page.body.executions;
        return runs.length;
      },
      { timeout: firstDue + 2 * 60_000 + 60_000 - Date.now(), intervals: [5_000] },
    )
    .toBeGreaterThanOrEqual(3);

  // Stop it before asserting, so later tests see a quiet scheduler.
  expect((await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'delete_schedule', schedule_id: schedule.id })).status).toBe(200);

  const times = runs.map((r) => r.scheduled_for).sort();
  expect(new Set(times).size).toBe(times.length); // none duplicated
  expect(times.slice(0, 3)).toEqual(expected); // one per minute, from the first occurrence, none lost
  for (const r of runs) {
    expect(r.scheduled_for).toMatch(/:00\.000Z$/);
    expect(r.status).toBe('success');
    expect(r.trigger).toBe('schedule');
  }
});
