/**
 * The per-session limit window count (lib/db/sql/resolve-fire-targets.ts
 * `countRecentExecutionsBySession`, SPEC §9 `workflow.executions_per_session_per_minute`), on both
 * dialects, inside a transaction (the driver's connection, as the fire path runs it) and outside one
 * (Prisma's raw query): each session's executions in (after, upTo], 0 for one with none.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { countRecentExecutionsBySession, inTransaction } from '..';
import { createTestDb, type TestDb } from '../../testing/test-db';
import { seed } from '../../../prisma/seed';

let t: TestDb;
let sessions: string[];
const after = new Date('2031-05-01T10:00:00.000Z');
const upTo = new Date('2031-05-01T10:01:00.000Z');

beforeAll(async () => {
  t = await createTestDb();
  const ctx = await seed(t.db, undefined);
  const definition = await t.db.definition.findFirstOrThrow({ where: { revisionId: ctx.proceduresRevisionId, alias: 'triage' } });
  sessions = [];
  for (const alias of ['count-a', 'count-b', 'count-c']) sessions.push((await t.db.workflowSession.create({ data: { revisionId: ctx.proceduresRevisionId, alias, state: 'open' } })).id);
  const execution = (sessionId: string, createdAt: Date) => ({
    revisionId: ctx.proceduresRevisionId, sessionId, definitionId: definition.id, inputData: {}, createdByType: 'org', createdById: ctx.orgId, createdAt,
  });
  const ms = (d: Date, delta: number) => new Date(d.getTime() + delta);
  await t.db.execution.createMany({
    data: [
      // Session a: the window's edges: `after` itself is outside, `upTo` itself inside.
      execution(sessions[0], after),
      execution(sessions[0], ms(after, 1)),
      execution(sessions[0], ms(after, 30_000)),
      execution(sessions[0], upTo),
      execution(sessions[0], ms(upTo, 1)),
      // Session b: one inside, one long before.
      execution(sessions[1], ms(after, 59_999)),
      execution(sessions[1], ms(after, -3_600_000)),
      // Session c: none inside.
      execution(sessions[2], ms(upTo, 5)),
    ],
  });
});
afterAll(() => t.cleanup());

it('counts each session in (after, upTo] in one statement, inside and outside a transaction', async () => {
  const expected = new Map([[sessions[0], 3], [sessions[1], 1], [sessions[2], 0]]);
  expect(await countRecentExecutionsBySession(t.db, sessions, after, upTo)).toEqual(expected);
  expect(await inTransaction(t.db, (tx) => countRecentExecutionsBySession(tx, sessions, after, upTo))).toEqual(expected);
  // A session no execution names, and the empty list.
  expect(await countRecentExecutionsBySession(t.db, ['no-such-session'], after, upTo)).toEqual(new Map([['no-such-session', 0]]));
  expect(await countRecentExecutionsBySession(t.db, [], after, upTo)).toEqual(new Map());
});
