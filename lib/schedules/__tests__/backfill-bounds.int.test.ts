/**
 * SPEC §18.1 backfill bounds on the dialect of TEST_DATABASE (decision 352): the product API's
 * `backfill_schedule` (which the CLI calls) and the Backfill… form's domain call read `from`/`to`
 * the same way — an ISO instant, or a wall time in the schedule's timezone by SPEC §7.1's rule (a
 * DST gap is skipped, a repeated time is its first instant); an impossible calendar date is refused
 * `invalid_backfill_range`, never rolled over.
 */
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../workflows';
import { DomainError } from '../../errors';
import { createSchedule, dryRunBackfill, schedulerCommands } from '..';
import { SEEDED_TARGET, useSeededScheduler } from '../../testing/seeded-scheduler';
import { TEST_LIMITS } from '../../testing/limits';

const w = useSeededScheduler();

async function scope() {
  return { db: w.db, actor: w.actor(), revision: await w.scheduler() };
}

/** `backfill_schedule {dry_run: true}` through the API's command handler: the count and the instants. */
async function apiDryRun(schedule: string, from: string, to: string): Promise<{ total: number; first: string[] }> {
  const s = await scope();
  const ctx = { ...s, revision: s.revision as CommandContext['revision'], limits: TEST_LIMITS, now: new Date(), params: { schedule_id: schedule, from, to, dry_run: true } };
  return (await schedulerCommands.backfill_schedule(ctx as CommandContext)) as { total: number; first: string[] };
}

async function refusal(p: Promise<unknown>): Promise<{ code: string; path?: string; message: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DomainError) return { code: e.code, path: e.path, message: e.message };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('§18.1 backfill bounds: one reading for the API, the CLI and the form', () => {
  it('a wall time in a DST gap is skipped (SPEC §7.1): the bound falls at the jump; a repeated one is its first instant', async () => {
    await createSchedule({
      ...(await scope()),
      limits: TEST_LIMITS,
      now: new Date('2026-03-20T00:00:00Z'),
      input: { alias: 'bounds-berlin', repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'Europe/Berlin', invocation_target: SEEDED_TARGET, enabled: false },
    });
    // 2026-03-29: Berlin's clocks jump from 02:00 CET to 03:00 CEST (01:00Z); 02:30 does not exist.
    const before = { total: 2, first: ['2026-03-29T00:58:00.000Z', '2026-03-29T00:59:00.000Z'] };
    expect(await apiDryRun('bounds-berlin', '2026-03-29T01:57', '2026-03-29T02:30')).toMatchObject(before);
    const after = { total: 3, first: ['2026-03-29T01:00:00.000Z', '2026-03-29T01:01:00.000Z', '2026-03-29T01:02:00.000Z'] };
    expect(await apiDryRun('bounds-berlin', '2026-03-29T02:30', '2026-03-29T03:02')).toMatchObject(after);
    // The form's call (wall times handed to the domain as they are typed) reads them the same way.
    const form = { ...(await scope()), scheduleRef: 'bounds-berlin', now: new Date() };
    expect(await dryRunBackfill({ ...form, from: '2026-03-29T01:57', to: '2026-03-29T02:30' })).toMatchObject(before);
    expect(await dryRunBackfill({ ...form, from: '2026-03-29T02:30', to: '2026-03-29T03:02' })).toMatchObject(after);
    // 2026-10-25: 02:00–02:59 happen twice; the minutely schedule fires the first pass only, and a
    // bound in that hour is its first instant (02:01 CEST = 00:01Z).
    expect(await apiDryRun('bounds-berlin', '2026-10-25T01:58', '2026-10-25T02:01')).toMatchObject({
      total: 3,
      first: ['2026-10-24T23:59:00.000Z', '2026-10-25T00:00:00.000Z', '2026-10-25T00:01:00.000Z'],
    });
    // An ISO instant is that instant.
    expect(await apiDryRun('bounds-berlin', '2026-03-29T00:58:00Z', '2026-03-29T01:01:00+00:00')).toMatchObject({ total: 3 });
  });

  it('refuses an impossible calendar date (2020-02-30) and a malformed bound with invalid_backfill_range, in every form', async () => {
    await createSchedule({
      ...(await scope()),
      limits: TEST_LIMITS,
      now: new Date('2020-01-01T00:00:00Z'),
      input: { alias: 'bounds-utc', repeat: 'recurring_cron', cron_expression: '0 * * * ? *', timezone: 'UTC', invocation_target: SEEDED_TARGET, enabled: false },
    });
    const wall = await refusal(apiDryRun('bounds-utc', '2020-02-30T10:00', '2020-03-02T00:00'));
    expect(wall).toMatchObject({ code: 'invalid_backfill_range', path: 'from' });
    expect(wall.message).toContain('not a real calendar date');
    // Date.parse would roll this over to 2020-03-01: refused instead.
    expect(await refusal(apiDryRun('bounds-utc', '2020-02-28T00:00:00Z', '2020-02-30T00:00:00Z'))).toMatchObject({ code: 'invalid_backfill_range', path: 'to' });
    expect(await refusal(dryRunBackfill({ ...(await scope()), scheduleRef: 'bounds-utc', from: '2020-02-30T10:00', to: '2020-03-02T00:00', now: new Date() }))).toMatchObject({ code: 'invalid_backfill_range', path: 'from' });
    expect(await refusal(apiDryRun('bounds-utc', 'yesterday', '2020-03-02T00:00'))).toMatchObject({ code: 'invalid_backfill_range', path: 'from' });
    // An offset past ±23:59 is no instant (it was a 500).
    for (const bad of ['2020-02-28T00:00:00+25:00', '2020-02-28T00:00:00-00:60', '2020-02-28T00:00:00+99:00']) {
      const r = await refusal(apiDryRun('bounds-utc', bad, '2020-03-02T00:00'));
      expect(r).toMatchObject({ code: 'invalid_backfill_range', path: 'from' });
      expect(r.message).toContain('offset');
    }
    expect((await apiDryRun('bounds-utc', '2020-02-29T23:00:00+23:00', '2020-03-01T00:00')).total).toBe(24);
    // A real leap day is fine: 2020-02-29 00:00 → 2020-03-01 00:00 holds 24 hourly occurrences.
    expect((await apiDryRun('bounds-utc', '2020-02-29T00:00', '2020-03-01T00:00')).total).toBe(24);
  });
});
