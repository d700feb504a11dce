/**
 * The claims read rows as arrays (docs/decisions.md 412): `claimDue` and `claimOccurrence` decode,
 * by position, exactly what Prisma's model API reads for the same rows — every firing column type
 * (text, nullable, integer, boolean, instant, JSON) — on the transaction's own driver connection
 * (`inTransaction`) and through Prisma's raw rows (a transaction of `$transaction` called directly).
 * And `anyRunningBackfill`, the worker's read before it opens a backfill transaction.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../prisma/seed';
import { everyColumnSchedule } from '../../testing/every-column-schedule';
import { createTestDb, testDialect, type TestDb } from '../../testing/test-db';
import { inTransaction } from '../client';
import { anyRunningBackfill, claimDue, claimOccurrence, scheduleRecordOf, type ClaimedSchedule } from '..';

let t: TestDb;
let revisionId: string;
let orgId: string;

beforeAll(async () => {
  t = await createTestDb();
  const ctx = await seed(t.db, undefined);
  revisionId = ctx.schedulerRevisionId;
  orgId = ctx.orgId;
  // The seeded demo schedules are never due here.
  await t.db.schedule.updateMany({ data: { nextFireAt: null } });
});
afterAll(() => t.cleanup());

const at = (s: string) => new Date(s);
const NOW = at('2030-01-15T11:00:00.000Z');

/** The model row's record, projected on the fields a claim returns (a NULL next_scheduled_for is next_fire_at's occurrence). */
function expected(row: Parameters<typeof scheduleRecordOf>[0], claimed: ClaimedSchedule): Record<string, unknown> {
  const record = scheduleRecordOf(row) as unknown as Record<string, unknown>;
  return { ...Object.fromEntries(Object.keys(claimed).map((k) => [k, record[k]])), nextScheduledFor: row.nextScheduledFor ?? row.nextFireAt };
}

describe('the claims read rows as arrays', () => {
  it('decode every firing column as Prisma reads it, on the driver and through Prisma, one occurrence or the due range', async () => {
    const full = await t.db.schedule.create({ data: everyColumnSchedule(revisionId, orgId, { enabled: true, pausedByType: null, pausedById: null, pausedAt: null, pauseNote: null, pausedBulk: false }) });
    // next_scheduled_for NULL: the occurrence is next_fire_at itself.
    const bare = await t.db.schedule.create({
      data: { id: randomUUID(), revisionId, name: 'bare', repeat: 'one_time', invocationTime: '2030-01-15T10:00:00', timezone: 'UTC', invocationTarget: ['a', 1], createdByType: 'org', createdById: orgId, nextFireAt: at('2030-01-15T10:00:00.000Z'), updatedAt: NOW },
    });
    for (const row of [full, bare]) {
      const direct = await inTransaction(t.db, (tx) => claimOccurrence(tx, row.id, row.nextFireAt!));
      const viaPrisma = await t.db.$transaction((tx) => claimOccurrence(tx, row.id, row.nextFireAt!));
      expect(direct).not.toBeNull();
      expect(Object.keys(direct!)).toHaveLength(32);
      expect(direct).toEqual(expected(row, direct!));
      expect(viaPrisma).toEqual(direct);
    }
    // Oldest first, only what is due, the same records.
    const due = await inTransaction(t.db, (tx) => claimDue(tx, NOW, 10));
    expect(due.map((r) => r.alias ?? r.name)).toEqual(['bare', 'every-column']);
    expect(due[1]).toEqual(expected(full, due[1]));
    expect(await t.db.$transaction((tx) => claimDue(tx, NOW, 10))).toEqual(due);
    // Another occurrence than the row holds is not claimed.
    expect(await inTransaction(t.db, (tx) => claimOccurrence(tx, full.id, at('2030-01-15T10:00:00.000Z')))).toBeNull();
    await t.db.schedule.deleteMany({ where: { id: { in: [full.id, bare.id] } } });
  });

  it.runIf(testDialect() === 'sqlite')('read an INTEGER instant in a SQLite column (written by something else) as epoch ms, as Prisma does', async () => {
    const row = await t.db.schedule.create({
      data: { id: randomUUID(), revisionId, name: 'int-start', repeat: 'recurring_rate', rateExpression: 'rate(1 hour)', timezone: 'UTC', invocationTarget: {}, createdByType: 'org', createdById: orgId, nextFireAt: at('2030-01-15T10:00:00.000Z'), updatedAt: NOW },
    });
    await t.db.$executeRawUnsafe('UPDATE schedules SET start_date = 1900000000000 WHERE id = ?', row.id);
    const direct = await inTransaction(t.db, (tx) => claimOccurrence(tx, row.id, row.nextFireAt!));
    expect(direct?.startDate).toEqual(new Date(1_900_000_000_000));
    expect((await t.db.schedule.findUniqueOrThrow({ where: { id: row.id } })).startDate).toEqual(new Date(1_900_000_000_000));
    expect(await t.db.$transaction((tx) => claimOccurrence(tx, row.id, row.nextFireAt!))).toEqual(direct);
    await t.db.schedule.delete({ where: { id: row.id } });
  });

  it('anyRunningBackfill: false with none running, true with one, false again once it ended', async () => {
    const schedule = await t.db.schedule.create({
      data: { id: randomUUID(), revisionId, name: 'backfilled', repeat: 'recurring_rate', rateExpression: 'rate(1 hour)', timezone: 'UTC', invocationTarget: {}, createdByType: 'org', createdById: orgId, updatedAt: NOW },
    });
    expect(await anyRunningBackfill(t.db)).toBe(false);
    const backfill = await t.db.backfill.create({
      data: { id: randomUUID(), revisionId, scheduleId: schedule.id, rangeFrom: at('2030-01-01T00:00:00Z'), rangeTo: at('2030-01-02T00:00:00Z'), reprocess: 'missing', maxConcurrency: 1, fireOrder: 'oldest_first', total: 24, createdByType: 'org', createdById: orgId, createdAt: NOW },
    });
    expect(await anyRunningBackfill(t.db)).toBe(true);
    await t.db.backfill.update({ where: { id: backfill.id }, data: { state: 'completed', finishedAt: NOW } });
    expect(await anyRunningBackfill(t.db)).toBe(false);
    await t.db.schedule.delete({ where: { id: schedule.id } });
  });
});
