/**
 * STYLE §7, docs/architecture.md "Adding a target type": a target type no engine file names — the
 * test-only `memory` type (lib/testing/memory-target.ts), registered here — is fired by the real
 * engine in both delivery modes, on the dialect of TEST_DATABASE:
 * - in-transaction: made in the claim's transaction, recorded with it (exactly one run and one
 *   delivery per occurrence), its failures retried and exhausted into dead letters that keep what it
 *   sent through its own `redact`;
 * - after-commit: stored in flight with a lease, delivered after commit through the process's pool,
 *   recorded by the transaction that deletes the in-flight row; an interrupted delivery is recovered
 *   once the lease ends and delivered once more, saying so on its run.
 * (worker/__tests__/worker.target-driver-sigkill.int.test.ts kills a real worker process mid-delivery.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { deliverAndRecord, fireDue, type FireOutcome } from '../../schedules';
import { occurrenceId, registerTargetDriver } from '../../targets';
import { testDelivery } from '../../testing/fire-and-deliver';
import { insertSchedules } from '../../testing/insert-schedules';
import { TEST_LIMITS } from '../../testing/limits';
import { MEMORY_TARGET, memoryDriver, type MemoryDelivery } from '../../testing/memory-target';
import { SEEDED_TARGET, useSeededScheduler } from '../../testing/seeded-scheduler';

const w = useSeededScheduler();
const MINUTE = 60_000;
let unregister: (() => void) | null = null;
afterEach(() => {
  unregister?.();
  unregister = null;
});

/** Register the memory driver in `mode`; its deliveries land in the array returned. */
function register(mode: 'in-transaction' | 'after-commit'): MemoryDelivery[] {
  const deliveries: MemoryDelivery[] = [];
  unregister = registerTargetDriver(memoryDriver({ mode, record: (d) => deliveries.push(d) }));
  return deliveries;
}

/** `n` yearly memory schedules (one occurrence in this test's reach), due at `due`. */
async function memorySchedules(n: number, due: Date, target: Record<string, unknown>): Promise<string[]> {
  const { ctx } = w;
  return insertSchedules(
    w.db,
    Array.from({ length: n }, () => ({
      revisionId: ctx.schedulerRevisionId,
      createdBy: { type: 'user' as const, id: ctx.userId },
      invocationTargetType: MEMORY_TARGET.type,
      invocationTarget: target,
      cronExpression: '0 0 1 1 ? *',
      nextFireAt: due,
    })),
  );
}

const fired = (outcomes: FireOutcome[], ids: string[]) => outcomes.filter((o): o is Extract<FireOutcome, { kind: 'fired' }> => o.kind === 'fired' && ids.includes(o.scheduleId));

describe('a target type registered by a test is fired by the real engine', () => {
  it('in-transaction: made and recorded in the claim transaction, one run and one delivery per occurrence, the result the driver answered', async () => {
    const deliveries = register('in-transaction');
    const due = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE);
    const ids = await memorySchedules(3, due, { inbox: 'reports' });

    const outcomes = fired(await fireDue({ db: w.db, now: new Date(due.getTime() + 1_000), limit: 100, limits: TEST_LIMITS }), ids);
    expect(outcomes.map((o) => o.run.status)).toEqual(['success', 'success', 'success']);
    const runs = await w.db.run.findMany({ where: { scheduleId: { in: ids } } });
    expect(runs.map((r) => [r.scheduledFor.toISOString(), r.attempt, r.invocationTargetType, r.status])).toEqual(ids.map(() => [due.toISOString(), 1, 'memory', 'success']));
    // Made inside the transaction that recorded them: one delivery per run, under the run's id and the occurrence's id.
    expect(deliveries.map((d) => d.runId).sort()).toEqual(runs.map((r) => r.id).sort());
    for (const r of runs) {
      const id = occurrenceId({ scheduleId: r.scheduleId, scheduledFor: r.scheduledFor, trigger: 'schedule' });
      expect(r.result).toEqual({ inbox: 'reports', delivery_id: id });
    }
    // Exactly once: the same instant again claims nothing of them (next_fire_at moved on).
    expect(fired(await fireDue({ db: w.db, now: new Date(due.getTime() + 2_000), limit: 100, limits: TEST_LIMITS }), ids)).toEqual([]);
    expect(deliveries).toHaveLength(3);
  });

  it('in-transaction: a failing attempt is retried per the schedule\'s policy, then exhausted into a dead letter that keeps its request redacted by the driver', async () => {
    const deliveries = register('in-transaction');
    const due = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - 2 * MINUTE);
    const [id] = await memorySchedules(1, due, { inbox: 'audit', fail: true, secret: 's3cr3t' });
    await w.db.schedule.update({ where: { id }, data: { retryMaximumAttempts: 1, retryMaximumEventAgeSeconds: 3_600 } });

    const first = fired(await fireDue({ db: w.db, now: new Date(due.getTime() + 1_000), limit: 100, limits: TEST_LIMITS }), [id]);
    expect(first.map((o) => [o.attempt, o.run.status, o.nextAttemptAt?.toISOString(), o.exhausted])).toEqual([[1, 'invocation_error', new Date(due.getTime() + 61_000).toISOString(), null]]);
    const second = fired(await fireDue({ db: w.db, now: new Date(due.getTime() + 61_000), limit: 100, limits: TEST_LIMITS }), [id]);
    expect(second.map((o) => [o.attempt, o.run.status, o.exhausted])).toEqual([[2, 'invocation_error', 'maximum_retry_attempts']]);

    expect(deliveries.map((d) => [d.attempt, d.secret])).toEqual([
      [1, 's3cr3t'],
      [2, 's3cr3t'],
    ]);
    const letter = await w.db.deadLetter.findFirstOrThrow({ where: { scheduleId: id } });
    expect(letter.lastRequest).toEqual({ ...deliveries[1], secret: '[redacted]' });
    expect(letter.lastResult).toEqual({ error: 'inbox_refused', message: 'inbox audit refuses every delivery' });
  });

  it('after-commit: stored in flight with a lease, delivered after commit, recorded once by the transaction that deletes the in-flight row', async () => {
    const deliveries = register('after-commit');
    const due = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - 3 * MINUTE);
    const ids = await memorySchedules(2, due, { inbox: 'ops' });
    const claimedAt = new Date(due.getTime() + 500);

    const outcomes = (await fireDue({ db: w.db, now: claimedAt, limit: 100, limits: TEST_LIMITS })).filter((o) => ids.includes(o.scheduleId));
    expect(outcomes.map((o) => o.kind)).toEqual(['delivering', 'delivering']);
    // Nothing sent, nothing recorded yet: the attempts wait in flight, leased for the driver's attempt (1 s) + 60 s.
    expect(deliveries).toEqual([]);
    expect(await w.db.run.count({ where: { scheduleId: { in: ids } } })).toBe(0);
    const inFlight = await w.db.pendingAttempt.findMany({ where: { scheduleId: { in: ids } } });
    expect(inFlight.map((p) => [p.inFlight, p.deliveries, p.dueAt.toISOString()])).toEqual(ids.map(() => [true, 0, new Date(claimedAt.getTime() + 61_000).toISOString()]));

    const attempts = outcomes.flatMap((o) => (o.kind === 'delivering' ? [o.delivery] : []));
    const recorded = await deliverAndRecord(w.db, attempts, testDelivery(), () => new Date(claimedAt.getTime() + 1_000));
    expect(recorded.map((o) => (o.kind === 'fired' ? o.run.status : o.kind))).toEqual(['success', 'success']);
    expect(deliveries).toHaveLength(2);
    expect(await w.db.pendingAttempt.count({ where: { scheduleId: { in: ids } } })).toBe(0);
    const runs = await w.db.run.findMany({ where: { scheduleId: { in: ids } } });
    expect(runs.map((r) => r.id).sort()).toEqual(deliveries.map((d) => d.runId).sort());
    // Recorded exactly once: recording the same deliveries again finds no in-flight row and records nothing.
    expect(await deliverAndRecord(w.db, attempts, testDelivery(), () => new Date(claimedAt.getTime() + 2_000))).toEqual([]);
    expect(await w.db.run.count({ where: { scheduleId: { in: ids } } })).toBe(2);
  });

  it('after-commit: a dead letter keeps the request redacted by the driver that sent it, also when the schedule moved to another target type meanwhile', async () => {
    const deliveries = register('after-commit');
    const due = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - 5 * MINUTE);
    const [id] = await memorySchedules(1, due, { inbox: 'vault', fail: true, secret: 'hunter2' });
    await w.db.schedule.update({ where: { id }, data: { retryMaximumAttempts: 0 } });
    const claimedAt = new Date(due.getTime() + 500);
    const [claimed] = (await fireDue({ db: w.db, now: claimedAt, limit: 100, limits: TEST_LIMITS })).filter((o) => o.scheduleId === id);
    expect(claimed.kind).toBe('delivering');
    // While the attempt is in flight, the schedule's target becomes a workflow (whose driver knows no `secret`).
    await w.db.schedule.update({ where: { id }, data: { invocationTargetType: 'workflow', invocationTarget: SEEDED_TARGET } });

    const [run] = await deliverAndRecord(w.db, [claimed.kind === 'delivering' ? claimed.delivery : null!], testDelivery(), () => new Date(claimedAt.getTime() + 1_000));
    expect(run.kind === 'fired' ? [run.run.status, run.exhausted] : run.kind).toEqual(['invocation_error', 'maximum_retry_attempts']);
    expect(deliveries.map((d) => d.secret)).toEqual(['hunter2']);
    const letter = await w.db.deadLetter.findFirstOrThrow({ where: { scheduleId: id } });
    expect(letter.lastRequest).toEqual({ ...deliveries[0], secret: '[redacted]' });
  });

  it('after-commit: an attempt whose process died after sending is claimed again when its lease ends, delivered once more and recorded repeated_delivery', async () => {
    const deliveries = register('after-commit');
    const due = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - 4 * MINUTE);
    const [id] = await memorySchedules(1, due, { inbox: 'billing' });
    const claimedAt = new Date(due.getTime() + 500);
    const [claimed] = (await fireDue({ db: w.db, now: claimedAt, limit: 100, limits: TEST_LIMITS })).filter((o) => o.scheduleId === id);
    expect(claimed.kind).toBe('delivering');
    // The process counted its send, then died before recording it: the row stays, its lease runs out.
    await w.db.pendingAttempt.updateMany({ where: { scheduleId: id }, data: { deliveries: 1 } });

    const afterLease = new Date(claimedAt.getTime() + 61_000);
    const [recovered] = (await fireDue({ db: w.db, now: afterLease, limit: 100, limits: TEST_LIMITS })).filter((o) => o.scheduleId === id);
    expect(recovered.kind).toBe('delivering');
    const attempt = recovered.kind === 'delivering' ? recovered.delivery : null;
    expect(attempt?.deliveries).toBe(1);
    const [run] = await deliverAndRecord(w.db, [attempt!], testDelivery(), () => afterLease);
    const deliveryId = occurrenceId({ scheduleId: id, scheduledFor: due, trigger: 'schedule' });
    expect(run.kind === 'fired' ? run.run.result : null).toEqual({ inbox: 'billing', delivery_id: deliveryId, repeated_delivery: true });
    expect(deliveries.map((d) => d.deliveryId)).toEqual([deliveryId]);
    expect(await w.db.run.count({ where: { scheduleId: id } })).toBe(1);
  });

  it('a type with no driver registered fires as unsupported_target; a built-in type\'s driver cannot be replaced', async () => {
    const due = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - 5 * MINUTE);
    const [id] = await memorySchedules(1, due, { inbox: 'nowhere' });
    const [out] = fired(await fireDue({ db: w.db, now: new Date(due.getTime() + 1_000), limit: 100, limits: TEST_LIMITS }), [id]);
    expect(out.run.result).toEqual({ error: 'unsupported_target', message: "no driver makes memory attempts in the claim's transaction" });
    expect(() => registerTargetDriver({ ...memoryDriver({ mode: 'in-transaction', record: () => undefined }), contract: { ...MEMORY_TARGET, type: 'http' } } as never)).toThrow('target type "http" already has a driver');
  });
});
