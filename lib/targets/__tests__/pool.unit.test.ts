/**
 * The delivery pool's bounds (SPEC §13) and fairness between tenants (SPEC §2): the total, per-org and
 * per-schedule caps, round-robin between orgs, FIFO within a schedule, and cancelling waiting deliveries.
 * Deliveries here are promises the test settles by hand, so each assertion reads the exact state.
 */
import { describe, expect, it } from 'vitest';
import { createDeliveryPool, DeliveryCancelled, type DeliveryKey } from '..';

/** A delivery the test settles: `started` once its slot was taken. */
function gate() {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return { release, done };
}

function harness(caps: Parameters<typeof createDeliveryPool>[0]) {
  const pool = createDeliveryPool(caps);
  const started: string[] = [];
  const gates = new Map<string, () => void>();
  const settled = new Map<string, 'ok' | 'cancelled' | 'error'>();
  const submit = (key: DeliveryKey | undefined, name = key?.attempt ?? 'unkeyed') => {
    const g = gate();
    gates.set(name, g.release);
    const p = pool.run(async () => {
      started.push(name);
      await g.done;
      return name;
    }, key);
    p.then(
      () => settled.set(name, 'ok'),
      (e) => settled.set(name, e instanceof DeliveryCancelled ? 'cancelled' : 'error'),
    );
    return p;
  };
  const finish = async (name: string) => {
    gates.get(name)!();
    // Let the settle and the next start run.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { pool, started, settled, submit, finish };
}

const k = (org: string, schedule: string, attempt: string): DeliveryKey => ({ org, schedule, attempt });
const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('delivery pool caps (fair delivery)', () => {
  it('one org holds at most perOrg slots; another org takes a free slot at once although the first has many waiting', async () => {
    const h = harness({ concurrency: 4, perOrg: 2, perSchedule: 2 });
    for (let i = 0; i < 20; i++) void h.submit(k('globex', `g${i}`, `g${i}`));
    await flush();
    expect(h.started).toEqual(['g0', 'g1']);
    void h.submit(k('acme', 'canary', 'a1'));
    await flush();
    expect(h.started).toEqual(['g0', 'g1', 'a1']);
    expect(h.pool.load()).toEqual({ active: 3, pending: 18 });
  });

  it('a plain number is a total bound only (no per-org cap): the behaviour without caps, where one org fills the pool', async () => {
    const h = harness(4);
    for (let i = 0; i < 20; i++) void h.submit(k('globex', `g${i}`, `g${i}`));
    void h.submit(k('acme', 'canary', 'a1'));
    await flush();
    expect(h.started).toEqual(['g0', 'g1', 'g2', 'g3']);
  });

  it('one schedule holds at most perSchedule slots and its deliveries start in the order they came (FIFO)', async () => {
    const h = harness({ concurrency: 8, perOrg: 8, perSchedule: 2 });
    for (let i = 1; i <= 5; i++) void h.submit(k('acme', 'nightly', `n${i}`));
    void h.submit(k('acme', 'other', 'o1'));
    await flush();
    expect(h.started).toEqual(['n1', 'n2', 'o1']);
    await h.finish('n2');
    expect(h.started).toEqual(['n1', 'n2', 'o1', 'n3']);
    await h.finish('n1');
    await h.finish('n3');
    expect(h.started).toEqual(['n1', 'n2', 'o1', 'n3', 'n4', 'n5']);
  });

  it('free slots go round-robin between orgs with deliveries waiting', async () => {
    const h = harness({ concurrency: 1, perOrg: 1, perSchedule: 1 });
    void h.submit(k('x', 'x-s', 'x1'));
    void h.submit(k('a', 'a-s', 'a1'));
    void h.submit(k('a', 'a-t', 'a2'));
    void h.submit(k('a', 'a-u', 'a3'));
    void h.submit(k('b', 'b-s', 'b1'));
    void h.submit(k('b', 'b-t', 'b2'));
    await flush();
    for (const name of ['x1', 'a1', 'b1', 'a2', 'b2']) await h.finish(name);
    expect(h.started).toEqual(['x1', 'a1', 'b1', 'a2', 'b2', 'a3']);
  });

  it('unkeyed deliveries (dead letters) count against the total only', async () => {
    const h = harness({ concurrency: 3, perOrg: 1, perSchedule: 1 });
    void h.submit(undefined, 'd1');
    void h.submit(undefined, 'd2');
    void h.submit(k('a', 's', 'a1'));
    void h.submit(k('a', 's2', 'a2'));
    await flush();
    expect(h.started).toEqual(['d1', 'd2', 'a1']);
  });

  it('cancel rejects the named waiting deliveries without running them; running ones and others are untouched', async () => {
    const h = harness({ concurrency: 2, perOrg: 2, perSchedule: 2 });
    for (let i = 1; i <= 5; i++) void h.submit(k('globex', 'g', `g${i}`));
    void h.submit(k('acme', 'a', 'a1'));
    await flush();
    expect(h.started).toEqual(['g1', 'g2']);
    expect(h.pool.cancel(new Set(['g1', 'g3', 'g4', 'g5']))).toBe(3);
    await flush();
    expect([...h.settled.entries()].sort()).toEqual([
      ['g3', 'cancelled'],
      ['g4', 'cancelled'],
      ['g5', 'cancelled'],
    ]);
    expect(h.pool.load()).toEqual({ active: 2, pending: 1 });
    await h.finish('g1');
    expect(h.started).toEqual(['g1', 'g2', 'a1']);
    expect(h.settled.get('g1')).toBe('ok');
  });

  it('a send that throws releases its slots', async () => {
    const pool = createDeliveryPool({ concurrency: 1, perOrg: 1, perSchedule: 1 });
    await expect(pool.run(() => Promise.reject(new Error('boom')), k('a', 's', 'x'))).rejects.toThrow('boom');
    await expect(pool.run(async () => 'next', k('a', 's', 'y'))).resolves.toBe('next');
    expect(pool.load()).toEqual({ active: 0, pending: 0 });
  });
});
