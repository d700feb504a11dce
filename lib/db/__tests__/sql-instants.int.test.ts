/**
 * The hand-written SQL in lib/db/sql compares stored DateTime columns with bound instants. This pins
 * the stored form (SQLite: Prisma's fixed-width ISO text, see lib/db/sql/instant.ts) and the claim's
 * inclusive `next_fire_at <= now` bound on both dialects.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { claimDue, dialectOfDb, sqlInstant } from '..';
import { insertSchedules } from '../../testing/insert-schedules';
import { createTestDb, type TestDb } from '../../testing/test-db';
import { seed } from '../../../prisma/seed';

let t: TestDb;
let ctx: Awaited<ReturnType<typeof seed>>;
beforeAll(async () => {
  t = await createTestDb();
  ctx = await seed(t.db, undefined);
});
afterAll(() => t.cleanup());

it('stores next_fire_at in the form sqlInstant writes, and the claim takes next_fire_at <= now (inclusive), oldest first', async () => {
  const at = new Date('2030-01-15T10:00:15.000Z');
  const s = await t.db.schedule.create({
    data: {
      revisionId: ctx.schedulerRevisionId, repeat: 'recurring_cron', cronExpression: '* * * * ? *', timezone: 'UTC',
      name: 'instants', invocationTarget: {}, nextFireAt: at, createdByType: 'org', createdById: ctx.orgId,
    },
  });
  const dialect = dialectOfDb(t.db);
  const [stored] = await t.db.$queryRawUnsafe<{ v: string }[]>(
    dialect === 'sqlite' ? 'SELECT CAST(next_fire_at AS TEXT) AS v FROM schedules WHERE id = ?' : `SELECT to_char(next_fire_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS v FROM schedules WHERE id = $1`,
    s.id,
  );
  expect(stored.v).toBe(sqlInstant(dialect, at)); // SQLite: '2030-01-15T10:00:15.000+00:00'
  const [later] = await insertSchedules(t.db, [
    { revisionId: ctx.schedulerRevisionId, createdBy: { type: 'org', id: ctx.orgId }, invocationTarget: {}, nextFireAt: new Date(at.getTime() + 1) },
  ]);
  const claim = (now: Date) => t.db.$transaction(async (tx) => (await claimDue(tx, now, 10)).map((r) => r.id));
  expect(await claim(new Date(at.getTime() - 1))).toEqual([]);
  expect(await claim(at)).toEqual([s.id]);
  expect(await claim(new Date(at.getTime() + 1))).toEqual([s.id, later]);
});
