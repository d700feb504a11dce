/**
 * `findSchedules` (lib/db/sql/find-schedule.ts): the one page statement behind list_schedules,
 * ListSchedules and pause-all/resume-all, on both dialects. Its filters against the same rows read
 * through Prisma's model API (the oracle), its keyset cursor across rows of one `created_at`, and its
 * name prefix compared exactly (no LIKE wildcards, case-sensitive, code points).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSchedules } from '..';
import { insertSchedules } from '../../testing/insert-schedules';
import { createTestDb, type TestDb } from '../../testing/test-db';
import { seed } from '../../../prisma/seed';

let t: TestDb;
let ctx: Awaited<ReturnType<typeof seed>>;
const ALIASES = ['a_b', 'axb', 'a%c', 'abc', 'ABC', 'été', 'étage', 'zeta'];
beforeAll(async () => {
  t = await createTestDb();
  ctx = await seed(t.db, undefined);
  const created = new Date('2031-05-01T00:00:00.000Z');
  // One created_at for every row: the cursor's order then rests on `id` alone.
  await insertSchedules(
    t.db,
    ALIASES.map((alias, i) => ({ revisionId: ctx.schedulerRevisionId, alias, createdBy: { type: 'org', id: ctx.orgId }, invocationTarget: {}, nextFireAt: null, enabled: i % 2 === 0 })),
    created,
  );
  // Another revision's rows: only a filter naming it reads them.
  await insertSchedules(t.db, [{ revisionId: ctx.proceduresRevisionId, alias: 'abc-other', createdBy: { type: 'org', id: ctx.orgId }, invocationTarget: {}, nextFireAt: null }], created);
});
afterAll(() => t.cleanup());

const oracle = async (revisionIds: string[], enabled?: boolean) =>
  (
    await t.db.schedule.findMany({
      where: { revisionId: { in: revisionIds }, ...(enabled !== undefined ? { enabled } : {}) },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true },
    })
  ).map((r) => r.id);

describe('findSchedules', () => {
  it('reads what Prisma reads, in created_at then id order, by revision and enabled', async () => {
    for (const revisionIds of [[ctx.schedulerRevisionId], [ctx.schedulerRevisionId, ctx.proceduresRevisionId]]) {
      for (const enabled of [undefined, true, false]) {
        const ids = (await findSchedules(t.db, { revisionIds, enabled })).map((r) => r.id);
        expect(ids).toEqual(await oracle(revisionIds, enabled));
      }
    }
    expect(await findSchedules(t.db, { revisionIds: [] })).toEqual([]);
    // Whole records through the codec: alias, revision and state as stored.
    const [first] = await findSchedules(t.db, { revisionIds: [ctx.proceduresRevisionId] });
    expect(first).toMatchObject({ alias: 'abc-other', revisionId: ctx.proceduresRevisionId, state: 'active', enabled: true });
  });

  it('pages with the keyset cursor among equal created_at: every row once, in order', async () => {
    const revisionIds = [ctx.schedulerRevisionId, ctx.proceduresRevisionId];
    const all = await oracle(revisionIds);
    const seen: string[] = [];
    let after: { createdAt: Date; id: string } | null = null;
    for (let pages = 0; pages < 20; pages++) {
      const page = await findSchedules(t.db, { revisionIds, after, limit: 3 });
      seen.push(...page.map((r) => r.id));
      if (page.length < 3) break;
      after = { createdAt: page[2].createdAt, id: page[2].id };
    }
    expect(seen).toEqual(all);
  });

  it('compares the name prefix exactly: LIKE wildcards are text, case counts, a character is a code point', async () => {
    const names = async (namePrefix: string) =>
      (await findSchedules(t.db, { revisionIds: [ctx.schedulerRevisionId, ctx.proceduresRevisionId], namePrefix })).map((r) => r.name).sort();
    expect(await names('a_')).toEqual(['a_b']);
    expect(await names('a%')).toEqual(['a%c']);
    expect(await names('ab')).toEqual(['abc', 'abc-other']);
    expect(await names('AB')).toEqual(['ABC']);
    expect(await names('ét')).toEqual(['étage', 'été']);
    expect(await names('été')).toEqual(['été']);
    expect(await names('zz')).toEqual([]);
  });
});
