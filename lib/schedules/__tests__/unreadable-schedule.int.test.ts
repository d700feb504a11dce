/**
 * A stored schedule the row codec cannot read (decision 425): a hand-edited row, a column holding what
 * no save writes. Every read that meets it answers `500 internal_error` naming the schedule, the
 * column and the way out, instead of a bare 500; `delete_schedule` deletes it (by what names it) and
 * records the delete. Through the API's command handler, on real SQLite and PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../workflows';
import { errorResponse } from '../../api';
import { createSchedule, schedulerCommands } from '..';
import { SEEDED_TARGET, useSeededScheduler } from '../../testing/seeded-scheduler';
import { TEST_LIMITS } from '../../testing/limits';

const w = useSeededScheduler();

async function command(name: keyof typeof schedulerCommands, params: Record<string, unknown>): Promise<unknown> {
  const ctx = { db: w.db, actor: w.actor(), revision: (await w.scheduler()) as CommandContext['revision'], limits: TEST_LIMITS, now: new Date(), params };
  return schedulerCommands[name](ctx as CommandContext);
}

/** The API's answer for what `p` threw: status and body, as the HTTP edge writes them. */
async function answer(p: Promise<unknown>): Promise<{ status: number; body: { error: { code: string; message: string } } }> {
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
    await w.db.$executeRawUnsafe(`UPDATE schedules SET overlap_policy = 'queue_all' WHERE id = '${broken.id}'`);

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

    await command('delete_schedule', { schedule_id: 'broken-one' });
    expect(await w.db.schedule.count({ where: { id: broken.id } })).toBe(0);
    const entry = await w.db.activityEntry.findFirst({ where: { scheduleId: broken.id, action: 'delete' } });
    expect(entry).toMatchObject({ scheduleLabel: broken.name, revisionId: revision.id });
    // The list reads again, and a second delete is an ordinary 404.
    expect(((await command('list_schedules', {})) as { schedules: { id: string }[] }).schedules.map((s) => s.id)).toContain(kept.id);
    expect(await answer(command('delete_schedule', { schedule_id: broken.id }))).toMatchObject({ status: 404, body: { error: { code: 'schedule_not_found' } } });
  });
});
