/**
 * A stored schedule the row codec cannot read (decision 425): a hand-edited row, a column holding what
 * no save writes. Every read that meets it answers `500 internal_error` naming the schedule, the
 * column and the way out, instead of a bare 500; `delete_schedule` deletes it (by what names it) and
 * records the delete. Through the API's command handler, on real SQLite and PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../workflows';
import { errorResponse } from '../../api';
import { createSchedule, listSchedules, schedulerCommands, setAllEnabled } from '..';
import { testDialect } from '../../testing/test-db';
import { SEEDED_TARGET, useSeededScheduler } from '../../testing/seeded-scheduler';
import { TEST_LIMITS } from '../../testing/limits';

const w = useSeededScheduler();
const dialect = testDialect();

async function command(name: keyof typeof schedulerCommands, params: Record<string, unknown>): Promise<unknown> {
  const ctx = { db: w.db, actor: w.actor(), revision: (await w.scheduler()) as CommandContext['revision'], limits: TEST_LIMITS, now: new Date(), params };
  return schedulerCommands[name](ctx as CommandContext);
}

/** The API's answer for what `p` threw: status and body, as the HTTP edge writes them. */
async function answer(p: Promise<unknown>): Promise<{ status: number; body: { error: { code: string; message: string; path?: string } } }> {
  try {
    await p;
  } catch (e) {
    const res = errorResponse(e);
    return { status: res.status, body: (await res.json()) as { error: { code: string; message: string } } };
  }
  throw new Error('expected a refusal');
}

describe('a schedule whose row the codec cannot read', () => {
  it('get, list and update name it and the way out; delete_schedule deletes it and records the delete', async () => {
    const revision = await w.scheduler();
    const base = { repeat: 'recurring_cron', cron_expression: '0 9 * * ? *', timezone: 'UTC', invocation_target: SEEDED_TARGET, enabled: false };
    const kept = await createSchedule({ db: w.db, actor: w.actor(), revision, limits: TEST_LIMITS, now: new Date(), input: { alias: 'kept-one', ...base } });
    const broken = await createSchedule({ db: w.db, actor: w.actor(), revision, limits: TEST_LIMITS, now: new Date(), input: { alias: 'broken-one', ...base } });
    // A value no save writes (a text column on both dialects): the codec refuses it.
    // Enabled by the same hand edit, so pause-all reaches it.
    await w.db.$executeRawUnsafe(`UPDATE schedules SET overlap_policy = 'queue_all', enabled = true WHERE id = '${broken.id}'`);

    const expected = {
      status: 500,
      body: {
        error: {
          code: 'internal_error',
          message: `schedule ${broken.id} cannot be read: schedules.overlap_policy holds "queue_all", none of allow_all, skip, buffer_one; it cannot be shown, changed or fired until it is deleted (delete_schedule ${broken.id}) or the row is restored from a backup`,
        },
      },
    };
    expect(await answer(command('get_schedule', { schedule_id: 'broken-one' }))).toEqual(expected);
    expect(await answer(command('get_schedule', { schedule_id: broken.id }))).toEqual(expected);
    expect(await answer(command('list_schedules', {}))).toEqual(expected);
    expect(await answer(command('update_schedule', { schedule_id: 'broken-one', description: 'x' }))).toEqual(expected);
    // The other schedule is untouched and readable.
    expect(await command('get_schedule', { schedule_id: 'kept-one' })).toMatchObject({ schedule: { id: kept.id, alias: 'kept-one' } });

    // A stale expected_version still refuses, deleting nothing.
    expect(await answer(command('delete_schedule', { schedule_id: 'broken-one', expected_version: 99 }))).toMatchObject({ status: 409, body: { error: { code: 'version_conflict' } } });
    expect(await w.db.schedule.count({ where: { id: broken.id } })).toBe(1);

    // Pause-all names the row too, and pauses nothing (one transaction).
    expect(await answer(setAllEnabled({ db: w.db, actor: w.actor(), revision, enabled: false, now: new Date() }))).toEqual(expected);
    expect(await w.db.schedule.count({ where: { id: broken.id, enabled: true } })).toBe(1);

    await command('delete_schedule', { schedule_id: 'broken-one', expected_version: 1 });
    expect(await w.db.schedule.count({ where: { id: broken.id } })).toBe(0);
    const entry = await w.db.activityEntry.findFirst({ where: { scheduleId: broken.id, action: 'delete' } });
    expect(entry).toMatchObject({ scheduleLabel: broken.name, revisionId: revision.id });
    // The list reads again, and a second delete is an ordinary 404.
    expect(((await command('list_schedules', {})) as { schedules: { id: string }[] }).schedules.map((s) => s.id)).toContain(kept.id);
    expect(await answer(command('delete_schedule', { schedule_id: broken.id }))).toMatchObject({ status: 404, body: { error: { code: 'schedule_not_found' } } });
  });

  it('resume-all names a paused schedule whose stored expression no longer computes, resumes nothing; corrected, it resumes all', async () => {
    const revision = await w.scheduler();
    const base = { repeat: 'recurring_cron', cron_expression: '0 9 * * ? *', timezone: 'UTC', invocation_target: SEEDED_TARGET };
    const a = await createSchedule({ db: w.db, actor: w.actor(), revision, limits: TEST_LIMITS, now: new Date(), input: { alias: 'resume-a', ...base } });
    const b = await createSchedule({ db: w.db, actor: w.actor(), revision, limits: TEST_LIMITS, now: new Date(), input: { alias: 'resume-b', ...base } });
    await setAllEnabled({ db: w.db, actor: w.actor(), revision, enabled: false, now: new Date() });
    // A hand edit the row codec reads (any text) but the time engine cannot compute.
    await w.db.$executeRawUnsafe(`UPDATE schedules SET cron_expression = 'not a cron' WHERE id = '${b.id}'`);
    const refused = await answer(setAllEnabled({ db: w.db, actor: w.actor(), revision, enabled: true, now: new Date() }));
    expect(refused.status).toBe(500);
    expect(refused.body.error.code).toBe('internal_error');
    expect(refused.body.error.message).toMatch(new RegExp(`^schedule ${b.id} cannot be resumed: its occurrences could not be computed \\(\\w+: .+\\); correct its expression with update_schedule or delete it \\(delete_schedule ${b.id}\\), then try again$`));
    // All or nothing: the readable one stays paused too.
    expect(await w.db.schedule.count({ where: { id: { in: [a.id, b.id] }, enabled: true } })).toBe(0);
    await command('update_schedule', { schedule_id: 'resume-b', cron_expression: '0 10 * * ? *' });
    expect(await setAllEnabled({ db: w.db, actor: w.actor(), revision, enabled: true, now: new Date() })).toMatchObject({ updated: expect.any(Number) });
    expect(await w.db.schedule.count({ where: { id: { in: [a.id, b.id] }, enabled: true } })).toBe(2);
  });

  it.runIf(dialect === 'sqlite')('SQLite: text that is not JSON is named without quoting it (list, get, pause-all); delete removes it', async () => {
    const revision = await w.scheduler();
    const s = await createSchedule({
      db: w.db, actor: w.actor(), revision, limits: TEST_LIMITS, now: new Date(),
      input: { alias: 'json-broken', repeat: 'recurring_cron', cron_expression: '0 9 * * ? *', timezone: 'UTC', invocation_target: SEEDED_TARGET, enabled: false },
    });
    // SQLite keeps JSON as text; PostgreSQL's jsonb cannot hold this. The text holds a would-be secret.
    await w.db.$executeRawUnsafe(`UPDATE schedules SET enabled = 1, invocation_target = '{"headers": {"authorization": Bearer sk_live_123' WHERE id = '${s.id}'`);
    const expected = {
      status: 500,
      body: {
        error: {
          code: 'internal_error',
          message: `schedule ${s.id} cannot be read: schedules.invocation_target holds text that is not JSON; it cannot be shown, changed or fired until it is deleted (delete_schedule ${s.id}) or the row is restored from a backup`,
        },
      },
    };
    // Prisma's own read would fail on the JSON before naming anything: the list reads rows on the driver.
    expect(await answer(command('list_schedules', {}))).toEqual(expected);
    expect(await answer(command('get_schedule', { schedule_id: 'json-broken' }))).toEqual(expected);
    expect(JSON.stringify(await answer(command('get_schedule', { schedule_id: s.id })))).not.toContain('sk_live');
    // Pause-all reads the enabled rows on the driver too, and pauses nothing.
    const enabled = () => w.db.schedule.count({ where: { revisionId: revision.id, enabled: true } });
    const before = await enabled();
    expect(await answer(setAllEnabled({ db: w.db, actor: w.actor(), revision, enabled: false, now: new Date() }))).toEqual(expected);
    expect(await enabled()).toBe(before);
    await command('delete_schedule', { schedule_id: 'json-broken' });
    expect(await w.db.schedule.count({ where: { id: s.id } })).toBe(0);
    expect(await command('list_schedules', {})).toMatchObject({ schedules: expect.any(Array) });
  });
});

describe('list_schedules reads its page on the driver in one statement, through the codec', () => {
  it('pages in created_at, id order with the cursor, filters by enabled, and keeps every field', async () => {
    const revision = await w.scheduler();
    const scope = { db: w.db, actor: w.actor(), revision };
    const made = [];
    for (const [i, enabled] of [true, false, true].entries()) {
      made.push(await createSchedule({ ...scope, limits: TEST_LIMITS, now: new Date(Date.UTC(2031, 0, 1, 0, 0, i)), input: { alias: `paged-${i}`, repeat: 'recurring_cron', cron_expression: '0 9 * * ? *', timezone: 'Europe/Berlin', invocation_target: SEEDED_TARGET, enabled } }));
    }
    const all = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 50; pages++) {
      const page: Awaited<ReturnType<typeof listSchedules>> = await listSchedules({ ...scope, pageSize: 2, startScheduleId: cursor });
      expect(page.schedules.length).toBeLessThanOrEqual(2);
      all.push(...page.schedules);
      cursor = page.last_schedule_id;
      if (!cursor) break;
      expect(cursor).toBe(page.schedules[page.schedules.length - 1].id);
    }
    const ours = all.filter((s) => s.alias?.startsWith('paged-'));
    // Every field as get_schedule answers it, in creation order.
    expect(ours).toEqual(made);
    const sorted = [...all].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
    expect(all.map((s) => s.id)).toEqual(sorted.map((s) => s.id));
    // A cursor that names no schedule (not an id, or deleted since its page) says so, on its own field.
    for (const bad of ['not-an-id', '8f14e45f-cee4-4b0b-8f8a-8e3b1a2c3d4e', 'paged-0']) {
      expect(await answer(listSchedules({ ...scope, startScheduleId: bad }))).toMatchObject({
        status: 404,
        body: { error: { code: 'schedule_not_found', path: 'start_schedule_id', message: expect.stringMatching(/^start_schedule_id names no schedule of this scheduler/) } },
      });
    }
    const enabled = (await listSchedules({ ...scope, enabled: true })).schedules.filter((s) => s.alias?.startsWith('paged-'));
    expect(enabled.map((s) => s.alias)).toEqual(['paged-0', 'paged-2']);
  });
});
