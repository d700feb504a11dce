/**
 * Fair delivery (SPEC §2 tenants apart, §12.2, §13) through the real worker (its injected clock), a
 * real database of the TEST_DATABASE dialect and a real HTTP receiver on loopback: one org's hanging
 * webhooks hold at most its share of the delivery pool, so another org's delivery leaves at once; one
 * schedule holds at most its share, its occurrences still sent in order; deleting or disabling a
 * schedule cancels its attempts waiting for a slot within a second: never sent, recorded `cancelled`
 * (disabled) or gone with the schedule (deleted), none lost, none delivered twice, also when the worker
 * that held them stopped renewing their leases and another worker recovered them.
 * Small caps and short webhook timeouts keep each case to a few seconds.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createDeliveryDeps, deleteSchedule, setAllEnabled } from '../../lib/schedules';
import { insertSchedules } from '../../lib/testing/insert-schedules';
import { TEST_LIMITS } from '../../lib/testing/limits';
import { startReceiver, type Receiver } from '../../lib/testing/receiver';
import { createTenant, type Tenant } from '../../lib/testing/tenant';
import { useSeededScheduler } from '../../lib/testing/seeded-scheduler';
import { Worker } from '../worker';

const w = useSeededScheduler();
const LOOPBACK = { hosts: [], addresses: [], ranges: ['127.0.0.0/8'] };
/** A hanging receiver holds each request until the webhook's timeout (s): the slot is held that long. */
const HANG_TIMEOUT_S = 3;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver((req) => (req.path.startsWith('/hang') ? 'hang' : { status: 200, body: 'ok' }));
});
afterAll(async () => receiver?.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const plus = (d: Date, ms: number) => new Date(d.getTime() + ms);
const received = (prefix: string) => receiver.requests.filter((r) => r.path.startsWith(prefix));

/** Poll (every 20 ms, at most `ms`) until `ok()`; returns the time it took, in ms. */
async function until(ok: () => boolean | Promise<boolean>, ms: number): Promise<number> {
  const started = performance.now();
  while (!(await ok())) {
    if (performance.now() - started > ms) throw new Error(`condition not met within ${ms} ms`);
    await sleep(20);
  }
  return performance.now() - started;
}

/** `n` webhook schedules of `t` to `path/<i>`: one-time at `at`, or every minute from `at` (`cron`). */
function hooks(t: Pick<Tenant, 'orgId' | 'revision'>, n: number, path: string, at: Date, cron = false): Promise<string[]> {
  return insertSchedules(
    w.db,
    Array.from({ length: n }, (_, i) => ({
      revisionId: t.revision.id,
      createdBy: { type: 'org' as const, id: t.orgId },
      invocationTargetType: 'http',
      invocationTarget: { url: receiver.url(`${path}/${i}`), timeout_seconds: HANG_TIMEOUT_S },
      ...(cron ? { repeat: 'recurring_cron' as const, cronExpression: '* * * * ? *' } : { repeat: 'one_time' as const, invocationTime: at.toISOString().slice(0, 19) }),
      timezone: 'UTC',
      nextFireAt: at,
    })),
    plus(at, -60_000),
  );
}

/** A worker on the injected clock with the given pool caps; `cancelled` counts the waiting deliveries it cancelled. */
function workerWith(caps: { concurrency: number; perOrg: number; perSchedule: number }, start: Date) {
  const clock = { at: start };
  const delivery = createDeliveryDeps({ delivery: { ...caps, httpAllowList: LOOPBACK, awsWorkerCredentialsOrgs: [] } });
  const worker = new Worker({ db: w.db, limits: TEST_LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => clock.at, delivery });
  const cancelled: number[] = [];
  worker.events.on('deliveries:cancelled', (p) => cancelled.push(p.cancelled));
  return {
    worker,
    delivery,
    cancelled,
    /** One loop of the worker at `at`: its delivery step (lease renewal, cancels), then ticks until nothing is due. */
    async tickAt(at: Date) {
      clock.at = at;
      await worker.deliveryStep(at);
      for (let i = 0; i < 20 && (await worker.tick(at)) > 0; i++);
    },
    async stepAt(at: Date) {
      clock.at = at;
      await worker.deliveryStep(at);
    },
  };
}

const runsOf = (scheduleIds: string[]) => w.db.run.findMany({ where: { scheduleId: { in: scheduleIds } } });

describe('fair delivery: caps per org and per schedule inside the pool', () => {
  it("org B's hanging webhooks fill only B's share of the pool: org A's webhook due with them leaves at once", async () => {
    const acme = { orgId: w.ctx.orgId, revision: await w.scheduler() };
    const globex = await createTenant(w.db, 'globex-fair');
    const at = new Date('2031-06-01T10:00:00Z');
    // B's webhooks first: on equal next_fire_at the claim takes them first, A's last.
    const bIds = await hooks(globex, 8, '/hang/b1', at);
    const [canary] = await hooks(acme, 1, '/ok/a1', at);
    const h = workerWith({ concurrency: 4, perOrg: 2, perSchedule: 2 }, at);
    await h.tickAt(plus(at, 100));
    const tookMs = await until(() => received('/ok/a1').length === 1, HANG_TIMEOUT_S * 1000 + 2000);
    // Without the caps B's 8 hanging webhooks hold all 4 slots for their 3 s timeout; A waits behind them.
    expect(tookMs).toBeLessThan(1500);
    await until(() => received('/hang/b1').length === 2, 2000);
    await sleep(200);
    expect(received('/hang/b1')).toHaveLength(2);
    await until(async () => (await runsOf([canary])).length === 1, 2000);
    const [run] = await runsOf([canary]);
    expect([run.status, (run.result as { http_status?: number }).http_status]).toEqual(['success', 200]);
    // Cleanup: B's waiting attempts are cancelled by its disable; its two hanging ones time out.
    await setAllEnabled({ db: w.db, actor: globex.actor, revision: globex.revision, enabled: false, now: plus(at, 200) });
    await h.stepAt(plus(at, 2000));
    await h.worker.deliveries.drain();
    expect(received('/hang/b1')).toHaveLength(2);
    expect(await runsOf(bIds)).toHaveLength(8);
  });

  it("one schedule holds at most its share of slots; its occurrences are sent in occurrence order", async () => {
    const t = await createTenant(w.db, 'initech-fair');
    const at = new Date('2031-06-02T10:00:00Z');
    const [id] = await hooks(t, 1, '/hang/s1', at, true);
    onTestFinished(() => deleteSchedule({ db: w.db, actor: t.actor, revision: t.revision, scheduleRef: id, now: plus(at, 300_000) }));
    const h = workerWith({ concurrency: 8, perOrg: 8, perSchedule: 2 }, at);
    // Four occurrences claimed a minute apart (the injected clock), all four hanging in hand at once;
    // each tick's attempt reaches the pool before the next tick (as ticks seconds apart do).
    for (let m = 0; m < 4; m++) {
      await h.tickAt(plus(at, m * 60_000 + 100));
      await until(() => h.delivery.pool.load().active + h.delivery.pool.load().pending === m + 1, 2000);
    }
    await until(() => received('/hang/s1').length === 2, 2000);
    await sleep(300);
    expect(received('/hang/s1')).toHaveLength(2);
    expect(h.delivery.pool.load()).toEqual({ active: 2, pending: 2 });
    // Once the first two time out, the next two are sent: never more than 2 of this schedule at once.
    await until(() => received('/hang/s1').length === 4, HANG_TIMEOUT_S * 1000 + 2000);
    // Two at a time, in occurrence order (within a pair they leave together: arrival order is the network's).
    const times = received('/hang/s1').map((r) => (JSON.parse(r.body) as { time: string }).time);
    expect([times.slice(0, 2).sort(), times.slice(2).sort()]).toEqual([
      ['2031-06-02T10:00:00Z', '2031-06-02T10:01:00Z'],
      ['2031-06-02T10:02:00Z', '2031-06-02T10:03:00Z'],
    ]);
    await h.worker.deliveries.drain();
    const runs = await runsOf([id]);
    expect(runs.map((r) => (r.result as { error?: string }).error).sort()).toEqual(['timeout', 'timeout', 'timeout', 'timeout']);
  });
});

/** A new tenant's 6 hanging webhooks due at `at`, claimed by a worker whose org cap is 2: 2 sent and hanging, 4 waiting. */
async function twoSentFourWaiting(alias: string, path: string, at: Date) {
  const t = await createTenant(w.db, alias);
  const ids = await hooks(t, 6, path, at);
  const h = workerWith({ concurrency: 4, perOrg: 2, perSchedule: 2 }, at);
  await h.tickAt(plus(at, 100));
  await until(() => received(path).length === 2 && h.delivery.pool.load().pending === 4, 2000);
  return { t, ids, h };
}

describe('deleting or disabling a schedule cancels its attempts waiting for a slot', () => {
  it('disable: the waiting attempts are cancelled within a second, never sent, each recorded `cancelled`; the ones already sent end with their real outcome', async () => {
    const at = new Date('2031-06-03T10:00:00Z');
    const { t, ids, h } = await twoSentFourWaiting('umbrella-fair', '/hang/d1', at);
    await setAllEnabled({ db: w.db, actor: t.actor, revision: t.revision, enabled: false, now: plus(at, 500) });
    const started = performance.now();
    // The worker's next loop (at most a second later on its clock) cancels them.
    await h.stepAt(plus(at, 1500));
    expect(h.cancelled).toEqual([4]);
    await until(async () => (await runsOf(ids)).length === 4, 2000);
    expect(performance.now() - started).toBeLessThan(1000);
    const cancelled = await runsOf(ids);
    expect(cancelled.map((r) => [r.status, (r.result as { error?: string }).error, r.exhausted, r.nextAttemptAt])).toEqual(Array(4).fill(['invocation_error', 'cancelled', 'cancelled', null]));
    expect(await w.db.pendingAttempt.count({ where: { scheduleId: { in: cancelled.map((r) => r.scheduleId) } } })).toBe(0);
    await h.worker.deliveries.drain();
    // Nothing lost: one run per attempt; nothing delivered that was cancelled: the receiver saw the 2 sent ones only.
    const runs = await runsOf(ids);
    expect(runs).toHaveLength(6);
    expect(runs.map((r) => (r.result as { error?: string }).error).sort()).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled', 'timeout', 'timeout']);
    expect(received('/hang/d1')).toHaveLength(2);
    expect(await w.db.pendingAttempt.count({ where: { scheduleId: { in: ids } } })).toBe(0);
  });

  it('delete: the waiting attempts are cancelled within a second and never sent; nothing is left in flight', async () => {
    const at = new Date('2031-06-04T10:00:00Z');
    const { t, ids, h } = await twoSentFourWaiting('hooli-fair', '/hang/x1', at);
    for (const id of ids) await deleteSchedule({ db: w.db, actor: t.actor, revision: t.revision, scheduleRef: id, now: plus(at, 500) });
    await h.stepAt(plus(at, 1500));
    expect(h.cancelled).toEqual([4]);
    expect(h.delivery.pool.load()).toEqual({ active: 2, pending: 0 });
    await h.worker.deliveries.drain();
    expect(received('/hang/x1')).toHaveLength(2);
    expect(await w.db.pendingAttempt.count({ where: { scheduleId: { in: ids } } })).toBe(0);
    expect(await runsOf(ids)).toHaveLength(0);
  });

  it('a waiting attempt whose worker stopped renewing its lease: recovered by another worker as `cancelled` once disabled, and never sent by either', async () => {
    const t = await createTenant(w.db, 'stark-fair');
    const at = new Date('2031-06-05T10:00:00Z');
    const [hanging] = await hooks(t, 1, '/hang/r1', at);
    const [waiting] = await hooks(t, 1, '/ok/r1', at);
    // Worker 1 has one slot: the hanging webhook takes it, the other waits. Its leases are never renewed here.
    const first = workerWith({ concurrency: 1, perOrg: 1, perSchedule: 1 }, at);
    await first.tickAt(plus(at, 100));
    await until(() => received('/hang/r1').length === 1 && first.delivery.pool.load().pending === 1, 2000);
    await setAllEnabled({ db: w.db, actor: t.actor, revision: t.revision, enabled: false, now: plus(at, 500) });
    // Worker 2, past the leases' end: recovers both in-flight rows (the sent one is interrupted, the unsent one cancelled).
    const second = workerWith({ concurrency: 4, perOrg: 4, perSchedule: 4 }, at);
    await second.tickAt(plus(at, 10 * 60_000));
    await second.worker.deliveries.drain();
    // Worker 1's waiting attempt then takes its slot: the send count refuses it (its row was recovered), so it is not sent.
    await first.worker.deliveries.drain();
    expect(received('/ok/r1')).toHaveLength(0);
    const runs = await runsOf([hanging, waiting]);
    expect(runs.map((r) => [r.scheduleId === waiting ? 'waiting' : 'hanging', (r.result as { error?: string }).error, r.exhausted]).sort()).toEqual([
      ['hanging', 'delivery_interrupted', null],
      ['waiting', 'cancelled', 'cancelled'],
    ]);
    expect(await w.db.pendingAttempt.count({ where: { scheduleId: { in: [hanging, waiting] } } })).toBe(0);
  });
});
