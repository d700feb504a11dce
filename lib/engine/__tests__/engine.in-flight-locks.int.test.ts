/**
 * The three statements that wait for in-flight rows' locks (SPEC §13: counting a send, renewing a
 * lease, taking a delivered attempt to record it) lock them in one order, by id, on PostgreSQL
 * (lib/db/sql/in-flight.ts). One worker runs them concurrently on different connections: its loop
 * renews every lease in hand while its delivery pool counts sends and records deliveries. Before the
 * order, two of them could each hold a row the other waited for, and PostgreSQL ended one as a
 * deadlock victim: a failed count failed its group's deliveries (`internal_error`, never sent).
 * Runs on the dialect of TEST_DATABASE (SQLite has one writer: nothing to order).
 */
import { expect, it } from 'vitest';
import { inTransaction, markSendsStarted, renewInFlight, takeInFlight } from '../../db';
import { fireDue } from '../../schedules';
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
  const note = (what: string) => (e: unknown) => void failures.push(`${what}: ${(e as Error).message}`);
  for (let round = 0; round < ROUNDS; round++) {
    const all = shuffled(ids, round + 1);
    const some = shuffled(ids, round + 7).slice(0, 20);
    const others = shuffled(ids, round + 13).slice(0, 20);
    await Promise.all([
      // The loop renews every lease in hand.
      inTransaction(w.db, (tx) => renewInFlight(tx, all, new Date(now.getTime() + 90_000))).catch(note('renew')),
      // The pool counts a group of sends.
      inTransaction(w.db, (tx) => markSendsStarted(tx, some)).catch(note('mark')),
      // A recorder takes a chunk of rows (rolled back here, so the rows stay for the next round).
      inTransaction(w.db, async (tx) => {
        await takeInFlight(tx, others);
        throw new RollBack();
      }).catch((e) => (e instanceof RollBack ? undefined : note('take')(e))),
    ]);
  }
  expect(failures).toEqual([]);
  // Every count committed: each row was counted once per round it was in.
  const counted = await w.db.pendingAttempt.aggregate({ where: { id: { in: ids } }, _sum: { deliveries: true } });
  expect(counted._sum.deliveries).toBe(ROUNDS * 20);
}, 120_000);

class RollBack extends Error {}
