/**
 * Lock order of in-flight attempts on PostgreSQL (docs/decisions.md 433, 434): whatever waits for
 * several of these locks takes them in one order: schedules by id, then their in-flight rows by id.
 *
 * - Counting sends, renewing leases and taking delivered rows (lib/db/sql/in-flight.ts): one worker
 *   runs them concurrently on different connections, over overlapping rows. Before the order, 150
 *   rounds here gave 6 deadlocks; in CI one failed a group of sends (`internal_error`, never sent).
 * - Recording delivered attempts (schedules, then rows) against a schedule's delete (its row, then the
 *   rows that cascade from it): before, 2 runs in 4 here had deadlocks; a record that lost repeated
 *   every delivery of its chunk after its leases ended.
 * - A schedule's delete (its row, then its pending attempts by id) against the send counts and lease
 *   renewals of its several attempts in flight, and against a backfill fire (which took its schedule
 *   through the foreign keys of what it inserts, holding the backfill row the delete cascades to):
 *   each round set met a deadlock in every run before.
 * - Against pause all / resume all and a scheduler's delete (many schedules each): the same order by
 *   reasoning; these rounds did not meet a deadlock before it either, their windows are narrow, and
 *   they check that every attempt ends recorded or gone with its schedule.
 *
 * Runs on the dialect of TEST_DATABASE (SQLite has one writer: nothing to order, the outcomes still hold).
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { inTransaction, markSendsStarted, renewInFlight, takeInFlight } from '../../db';
import { deleteBlob } from '../../workflows';
import { backfillSchedule, deleteSchedule, fireBackfills, fireDue, recordDelivered, setAllEnabled, type DeliveredAttempt, type InFlightAttempt } from '../../schedules';
import { insertSchedules } from '../../testing/insert-schedules';
import { TEST_LIMITS } from '../../testing/limits';
import { useSeededScheduler } from '../../testing/seeded-scheduler';

const w = useSeededScheduler();
const MINUTE = 60_000;
const ROWS = 60;
const ROUNDS = 150;

/** A deterministic shuffle (a linear congruential generator), so a failure replays. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

it('counting sends, renewing leases and taking rows of the same in-flight attempts, concurrently and in every order, never deadlock', async () => {
  const { ctx } = w;
  const due = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE);
  const target = { url: 'http://127.0.0.1:9/in', timeout_seconds: 5 };
  const base = { revisionId: ctx.schedulerRevisionId, createdBy: { type: 'user' as const, id: ctx.userId }, invocationTargetType: 'http', invocationTarget: target, nextFireAt: due, cronExpression: '0 0 1 1 ? *' };
  await insertSchedules(w.db, Array.from({ length: ROWS }, () => base));
  const now = new Date(due.getTime() + 1_000);
  const ids = (await fireDue({ db: w.db, now, limit: ROWS, limits: TEST_LIMITS })).flatMap((o) => (o.kind === 'delivering' ? [o.delivery.pendingId] : []));
  expect(ids.length).toBe(ROWS);

  const failures: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const all = shuffled(ids, round + 1);
    const some = shuffled(ids, round + 7).slice(0, 20);
    const others = shuffled(ids, round + 13).slice(0, 20);
    await Promise.all([
      // The loop renews every lease in hand.
      inTransaction(w.db, (tx) => renewInFlight(tx, all, new Date(now.getTime() + 90_000))).catch(note(failures, 'renew')),
      // The pool counts a group of sends.
      inTransaction(w.db, (tx) => markSendsStarted(tx, some)).catch(note(failures, 'mark')),
      // A recorder takes a chunk of rows (rolled back here, so the rows stay for the next round).
      inTransaction(w.db, async (tx) => {
        await takeInFlight(tx, others);
        throw new RollBack();
      }).catch((e) => (e instanceof RollBack ? undefined : note(failures, 'take')(e))),
    ]);
  }
  expect(failures).toEqual([]);
  // Every count committed: each row was counted once per round it was in.
  const counted = await w.db.pendingAttempt.aggregate({ where: { id: { in: ids } }, _sum: { deliveries: true } });
  expect(counted._sum.deliveries).toBe(ROUNDS * 20);
}, 120_000);

class RollBack extends Error {}

/** 20 http schedules due `round` seconds apart from other rounds' and claimed: their attempts in flight, and each delivered (a 200), in a shuffled order. */
async function deliveredRound(round: number, revisionId = w.ctx.schedulerRevisionId): Promise<{ ids: string[]; now: Date; delivered: DeliveredAttempt[] }> {
  const { ctx } = w;
  const due = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE - round * 1000);
  const target = { url: 'http://127.0.0.1:9/in', timeout_seconds: 5 };
  const base = { revisionId, createdBy: { type: 'user' as const, id: ctx.userId }, invocationTargetType: 'http', invocationTarget: target, nextFireAt: due, cronExpression: '0 0 1 1 ? *' };
  const ids = await insertSchedules(w.db, Array.from({ length: 20 }, () => base));
  // Made in the reverse of id order: what lists them by creation (pause all) meets them in another
  // order than what locks them by id.
  for (const [i, id] of [...ids].sort().reverse().entries()) await w.db.schedule.update({ where: { id }, data: { createdAt: new Date(due.getTime() - 3_600_000 + i) } });
  const now = new Date(due.getTime() + 1_000);
  const attempts: InFlightAttempt[] = (await fireDue({ db: w.db, now, limit: 20, limits: TEST_LIMITS })).flatMap((o) => (o.kind === 'delivering' ? [o.delivery] : []));
  expect(attempts.length).toBe(20);
  const delivered = shuffled(attempts, round + 3).map((a): DeliveredAttempt => ({ attempt: a, outcome: { runId: a.runId, status: 'success', result: { http_status: 200, response_excerpt: '' }, executionId: null, request: null, retryable: false } }));
  return { ids, now, delivered };
}

/** The worker records `delivered` in chunks of 5, each its own transaction, all at once; a failure is noted in `failures`. */
const recordInChunks = (delivered: DeliveredAttempt[], now: Date, failures: string[]) =>
  [0, 5, 10, 15].map((i) => recordDelivered(w.db, delivered.slice(i, i + 5), now).catch(note(failures, 'record')));

it('recording delivered attempts while their schedules are deleted, concurrently and in every order, never deadlocks; each attempt is recorded or gone with its schedule', async () => {
  const revision = await w.scheduler();
  const failures: string[] = [];
  for (let round = 0; round < 12; round++) {
    const { ids, now, delivered } = await deliveredRound(round);
    const doomed = shuffled(ids, round + 5).slice(0, 10);
    await Promise.all([
      ...recordInChunks(delivered, now, failures),
      ...doomed.map((id) => deleteSchedule({ db: w.db, actor: w.actor(), revision, scheduleRef: id, now }).catch(note(failures, 'delete'))),
    ]);
    expect(failures, `round ${round}`).toEqual([]);
    // Every attempt ended: recorded (one run), or gone with its deleted schedule (no run, no row).
    const runs = await w.db.run.findMany({ where: { scheduleId: { in: ids } }, select: { scheduleId: true } });
    expect(runs.map((r) => r.scheduleId).sort()).toEqual(ids.filter((id) => !doomed.includes(id)).sort());
    expect(await w.db.pendingAttempt.count({ where: { scheduleId: { in: ids } } })).toBe(0);
  }
}, 120_000);

it('recording delivered attempts while the scheduler is paused and resumed (pause all, resume all) never deadlocks; every attempt is recorded once', async () => {
  const revision = await w.scheduler();
  const failures: string[] = [];
  for (let round = 100; round < 106; round++) {
    const { ids, now, delivered } = await deliveredRound(round);
    await Promise.all([
      ...recordInChunks(delivered, now, failures),
      setAllEnabled({ db: w.db, actor: w.actor(), revision, enabled: round % 2 === 0 ? false : true, now }).catch(note(failures, 'pause/resume all')),
    ]);
    expect(failures, `round ${round}`).toEqual([]);
    expect(await w.db.run.count({ where: { scheduleId: { in: ids } } })).toBe(20);
    expect(await w.db.pendingAttempt.count({ where: { scheduleId: { in: ids }, inFlight: true } })).toBe(0);
  }
}, 120_000);

it('recording delivered attempts while their scheduler is deleted (its schedules cascade) never deadlocks; nothing is left in flight', async () => {
  const failures: string[] = [];
  for (let round = 200; round < 208; round++) {
    const blob = await w.db.blob.create({ data: { orgId: w.ctx.orgId, alias: `doomed-${round}`, type: 'scheduler', name: `Doomed ${round}` } });
    const revision = await w.db.revision.create({ data: { blobId: blob.id, state: 'managed' } });
    await w.db.blob.update({ where: { id: blob.id }, data: { defaultRevisionId: revision.id } });
    const { ids, now, delivered } = await deliveredRound(round, revision.id);
    await Promise.all([
      ...recordInChunks(delivered, now, failures),
      deleteBlob(w.db, { actor: w.actor(), blobId: blob.id }).catch(note(failures, 'delete scheduler')),
    ]);
    expect(failures, `round ${round}`).toEqual([]);
    expect(await w.db.schedule.count({ where: { id: { in: ids } } })).toBe(0);
    expect(await w.db.pendingAttempt.count({ where: { scheduleId: { in: ids } } })).toBe(0);
  }
}, 120_000);

it('deleting schedules with several attempts in flight while their sends are counted and their leases renewed never deadlocks; their rows go with them', async () => {
  const { ctx } = w;
  const revision = await w.scheduler();
  const target = { url: 'http://127.0.0.1:9/in', timeout_seconds: 5 };
  const failures: string[] = [];
  for (let round = 300; round < 312; round++) {
    const base = { revisionId: ctx.schedulerRevisionId, createdBy: { type: 'user' as const, id: ctx.userId }, invocationTargetType: 'http', invocationTarget: target, nextFireAt: null, cronExpression: '0 0 1 1 ? *' };
    const ids = await insertSchedules(w.db, Array.from({ length: 10 }, () => base));
    // Four occurrences of each in flight at once (overlap allow_all, a backfill, run now).
    const rows = ids.flatMap((scheduleId) =>
      [0, 1, 2, 3].map((k) => ({ id: randomUUID(), scheduleId, scheduledFor: new Date(Date.UTC(2030, 0, 1, 0, k)), trigger: 'schedule', attempt: 1, dueAt: new Date(Date.UTC(2030, 0, 2)), inFlight: true, runId: randomUUID() })),
    );
    await w.db.pendingAttempt.createMany({ data: rows });
    const pendingIds = rows.map((r) => r.id);
    const doomed = shuffled(ids, round).slice(0, 5);
    const now = new Date();
    await Promise.all([
      inTransaction(w.db, (tx) => renewInFlight(tx, shuffled(pendingIds, round + 1), new Date(Date.UTC(2030, 0, 3)))).catch(note(failures, 'renew')),
      inTransaction(w.db, (tx) => markSendsStarted(tx, shuffled(pendingIds, round + 2).slice(0, 20))).catch(note(failures, 'mark')),
      inTransaction(w.db, (tx) => markSendsStarted(tx, shuffled(pendingIds, round + 3).slice(0, 20))).catch(note(failures, 'mark')),
      ...doomed.map((id) => deleteSchedule({ db: w.db, actor: w.actor(), revision, scheduleRef: id, now }).catch(note(failures, 'delete'))),
    ]);
    expect(failures, `round ${round}`).toEqual([]);
    expect(await w.db.pendingAttempt.count({ where: { scheduleId: { in: doomed } } })).toBe(0);
    expect(await w.db.pendingAttempt.count({ where: { scheduleId: { in: ids } } })).toBe(20);
    await w.db.schedule.deleteMany({ where: { id: { in: ids } } });
  }
}, 120_000);

it('deleting schedules while the worker fires their backfills never deadlocks; the backfills go with them', async () => {
  const { ctx } = w;
  const revision = await w.scheduler();
  const target = { url: 'http://127.0.0.1:9/in', timeout_seconds: 5 };
  const failures: string[] = [];
  for (let round = 400; round < 410; round++) {
    const base = { revisionId: ctx.schedulerRevisionId, createdBy: { type: 'user' as const, id: ctx.userId }, invocationTargetType: 'http', invocationTarget: target, nextFireAt: null, cronExpression: '* * * * ? *' };
    const ids = await insertSchedules(w.db, Array.from({ length: 6 }, () => base));
    const now = new Date();
    const to = new Date(Math.floor(now.getTime() / MINUTE) * MINUTE - 60 * MINUTE);
    for (const id of ids) await backfillSchedule({ db: w.db, actor: w.actor(), revision, scheduleRef: id, from: new Date(to.getTime() - 40 * MINUTE), to, maxConcurrency: 20, now });
    const doomed = shuffled(ids, round).slice(0, 3);
    await Promise.all([
      fireBackfills({ db: w.db, now, limit: 200, limits: TEST_LIMITS }).catch(note(failures, 'fire backfills')),
      fireBackfills({ db: w.db, now, limit: 200, limits: TEST_LIMITS }).catch(note(failures, 'fire backfills')),
      ...doomed.map((id) => deleteSchedule({ db: w.db, actor: w.actor(), revision, scheduleRef: id, now }).catch(note(failures, 'delete'))),
    ]);
    expect(failures, `round ${round}`).toEqual([]);
    expect(await w.db.backfill.count({ where: { scheduleId: { in: doomed } } })).toBe(0);
    await w.db.schedule.deleteMany({ where: { id: { in: ids } } });
  }
}, 120_000);

/** Push `what: <message>` to `failures` (a `.catch` handler). */
function note(failures: string[], what: string) {
  return (e: unknown) => void failures.push(`${what}: ${(e as Error).message}`);
}
