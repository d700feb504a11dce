/**
 * Delivery benchmark (issue "targets beyond the catalog", acceptance 4, for the delivery layer on
 * its own): do 1,000 webhook deliveries in flight against a slow receiver (200 ms an answer) delay
 * workflow fires due at the same time in the same process?
 *
 *   npx tsx bench/delivery.ts            (TEST_PORT_BASE picks the receiver's loopback port)
 *
 * Each round inserts 100 one-time workflow schedules due now into a fresh SQLite database (seeded catalog)
 * and fires them with `fireDue` (the worker's batch: claim, advance, create executions, record runs,
 * commit). Lateness = commit instant − due instant. Baseline rounds fire with nothing else running;
 * loaded rounds first start 1,000 signed webhook deliveries (through the bounded pool,
 * SCHEDULER_DELIVERY_CONCURRENCY, default 64) and fire while they are in flight. Also printed: the
 * event loop's delay (p99) during the loaded rounds and the time the 1,000 deliveries took.
 *
 * Medians and ratios against the baseline of the same run; never a pass/fail on time. The fire path
 * does not call `deliver` yet (docs/architecture.md, "Wiring delivery into the fire path"): this
 * measures the layer's cost to everything else in the process, which is what wiring it keeps.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig, type Limits } from '../lib/config';
import { createDeliveryPool, deliverHttp, generateSigningSecret } from '../lib/delivery';
import { fireDue } from '../lib/schedules';
import { testFire } from '../lib/testing/fire-context';
import { insertSchedules } from '../lib/testing/insert-schedules';
import { startReceiver } from '../lib/testing/receiver';
import { createTestDb } from '../lib/testing/test-db';
import { seed } from '../prisma/seed';

const ROUNDS = 7;
const FIRES = 100;
const DELIVERIES = 1_000;
// No per-session limit in the way: the bench measures the fire path, not the limit's refusals.
process.env.WORKFLOW_EXECUTIONS_PER_SESSION_PER_MINUTE = '1000000000';
const LIMITS: Limits = loadConfig().limits;
/** The process's one delivery pool, as the worker's edge would make it. */
const pool = createDeliveryPool(loadConfig().delivery.concurrency);
const TARGET = {
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
  input_data: [],
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const t = await createTestDb('sqlite');
  const receiver = await startReceiver(() => ({ status: 200, body: 'ok', delayMs: 200 }));
  const secret = generateSigningSecret();
  try {
    const ctx = await seed(t.db, undefined);
    const round = async (): Promise<number> => {
      const due = new Date();
      await insertSchedules(
        t.db,
        Array.from({ length: FIRES }, () => ({
          revisionId: ctx.schedulerRevisionId,
          createdBy: { type: 'user' as const, id: ctx.userId },
          invocationTarget: TARGET,
          // One-time: each fires once and completes, so no earlier round's schedule is due again.
          repeat: 'one_time' as const,
          invocationTime: due.toISOString().slice(0, 19),
          timezone: 'UTC',
          nextFireAt: due,
        })),
      );
      const outcomes = await fireDue({ db: t.db, now: new Date(), limit: 500, limits: LIMITS, clock: () => new Date() });
      const late = Date.now() - due.getTime();
      const fired = outcomes.filter((o) => o.kind === 'fired' && o.run.status === 'success').length;
      if (fired !== FIRES) throw new Error(`expected ${FIRES} successful fires, got ${fired}`);
      return late;
    };

    await round(); // warm-up (statement caches, JIT)
    const baseline: number[] = [];
    for (let i = 0; i < ROUNDS; i++) baseline.push(await round());

    const loaded: number[] = [];
    const drains: number[] = [];
    const loop = monitorEventLoopDelay({ resolution: 10 });
    for (let i = 0; i < ROUNDS; i++) {
      const started = performance.now();
      const deliveries = Array.from({ length: DELIVERIES }, () =>
        deliverHttp({
          target: { url: receiver.url('/hook'), body: { n: i } },
          fire: testFire('us-east-1', new Date()),
          signingSecrets: [secret],
          allowList: { hosts: [], addresses: [], ranges: ['127.0.0.0/8'] },
          pool,
        }),
      );
      loop.enable();
      loaded.push(await round());
      const done = await Promise.all(deliveries);
      loop.disable();
      drains.push(performance.now() - started);
      const ok = done.filter((d) => d.status === 'success').length;
      if (ok !== DELIVERIES) throw new Error(`expected ${DELIVERIES} delivered, got ${ok}`);
    }

    const b = median(baseline);
    const l = median(loaded);
    console.log(`workflow fires: ${FIRES} due at once, ${ROUNDS} rounds each; deliveries: ${DELIVERIES} webhooks, receiver 200 ms, pool ${loadConfig().delivery.concurrency}`);
    console.log(`fire lateness (due → commit), baseline:           median ${b} ms, max ${Math.max(...baseline)} ms`);
    console.log(`fire lateness with ${DELIVERIES} deliveries in flight: median ${l} ms, max ${Math.max(...loaded)} ms (ratio ${(l / b).toFixed(2)})`);
    console.log(`event loop delay during loaded rounds: p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms`);
    console.log(`1,000 deliveries took: median ${Math.round(median(drains))} ms (pool-bound floor: ${Math.ceil(DELIVERIES / loadConfig().delivery.concurrency) * 200} ms)`);
  } finally {
    await receiver.close();
    await t.cleanup();
  }
}

await main();
