/**
 * The product API's hot reads on the driver (`readRows` / `directReader`, docs/decisions.md 385): a
 * client of `createDb` outside a transaction reads on its own better-sqlite3 connection or pg pool,
 * and what it answers is exactly what Prisma's model API answers for the same rows (every column
 * type of `schedules` and `api_keys`: text, nullable, integer, boolean, instant, JSON). After
 * `$disconnect` it steps aside until Prisma connects again, and a read inside `inTransaction` runs on
 * the transaction's connection (it sees the transaction's own uncommitted rows).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../prisma/seed';
import { everyColumnSchedule } from '../../testing/every-column-schedule';
import { createTestDb, type TestDb } from '../../testing/test-db';
import { directReader, inTransaction } from '../client';
import { findApiKeyByPrefix, findScheduleByKey, scheduleRecordOf } from '..';

let t: TestDb;
let revisionId: string;
let orgId: string;

beforeAll(async () => {
  t = await createTestDb();
  const ctx = await seed(t.db, 'sk_0123456789ab_direct-reads-test-key-0000', 'direct-reads-password-1');
  revisionId = ctx.schedulerRevisionId;
  orgId = ctx.orgId;
});
afterAll(() => t.cleanup());

const at = (s: string) => new Date(s);

describe('reads on the driver outside a transaction', () => {
  it('are taken on a connected client of createDb, and not on a transaction client', async () => {
    await t.db.org.count();
    expect(directReader(t.db)).not.toBeNull();
    await inTransaction(t.db, async (tx) => {
      expect(directReader(tx)).toBeNull();
    });
  });

  it('answer a schedule exactly as Prisma does, every column type, by id and by alias', async () => {
    const full = await t.db.schedule.create({ data: everyColumnSchedule(revisionId, orgId) });
    const bare = await t.db.schedule.create({
      data: { id: randomUUID(), revisionId, name: 'bare', repeat: 'one_time', invocationTime: '2030-02-01T10:00:00', timezone: 'UTC', invocationTarget: ['a', 1], createdByType: 'org', createdById: orgId, updatedAt: at('2030-01-01T00:00:00.000Z') },
    });
    for (const row of [full, bare]) {
      const viaPrisma = scheduleRecordOf(row);
      expect(await findScheduleByKey(t.db, revisionId, row.id, 'id')).toEqual(viaPrisma);
      // Prisma's raw query path (a transaction client of `$transaction` called directly) decodes alike.
      expect(await t.db.$transaction((tx) => findScheduleByKey(tx, revisionId, row.id, 'id'))).toEqual(viaPrisma);
    }
    expect(await findScheduleByKey(t.db, revisionId, 'every-column', 'alias')).toEqual(scheduleRecordOf(full));
    expect(await findScheduleByKey(t.db, revisionId, 'no-such-alias', 'alias')).toBeNull();
    expect(await findScheduleByKey(t.db, randomUUID(), full.id, 'id')).toBeNull(); // another revision's id is not found
  });

  it('answer an API key as Prisma does, revoked and last-used instants included', async () => {
    const key = await t.db.apiKey.create({
      data: { name: 'k', prefix: 'abcdefabcdef', secretHash: 'ff'.repeat(32), role: 'read', orgId, lastUsedAt: at('2030-01-01T00:00:00.123Z'), revokedAt: at('2030-01-02T00:00:00.456Z') },
    });
    const { id, secretHash, role, userId, lastUsedAt, revokedAt } = key;
    expect(await findApiKeyByPrefix(t.db, 'abcdefabcdef')).toEqual({ id, secretHash, role, orgId, userId, lastUsedAt, revokedAt });
    expect(await findApiKeyByPrefix(t.db, '000000000000')).toBeNull();
  });

  it('step aside after $disconnect until Prisma connects again, and still answer', async () => {
    const db = t.db;
    await db.$disconnect();
    expect(directReader(db)).toBeNull();
    expect(await findApiKeyByPrefix(db, 'abcdefabcdef')).toMatchObject({ role: 'read' }); // through Prisma, which connects
    expect(directReader(db)).not.toBeNull();
    expect(await findApiKeyByPrefix(db, 'abcdefabcdef')).toMatchObject({ role: 'read' });
  });

  it('inside inTransaction run on the transaction connection: its own uncommitted rows are seen', async () => {
    const id = randomUUID();
    const rollback = new Error('roll back');
    await expect(
      inTransaction(t.db, async (tx) => {
        await tx.schedule.create({ data: { id, revisionId, name: `n-${id}`, repeat: 'one_time', invocationTime: '2030-02-01T10:00:00', timezone: 'UTC', invocationTarget: {}, createdByType: 'org', createdById: orgId, updatedAt: new Date() } });
        expect((await findScheduleByKey(tx, revisionId, id, 'id'))?.id).toBe(id);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await findScheduleByKey(t.db, revisionId, id, 'id')).toBeNull();
  });
});
