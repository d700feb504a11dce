/**
 * SPEC §17 beside SPEC §8: alerts are sent beside the worker's loop, not in it. A channel that never
 * answers holds its send for the channel's whole timeout (10 s); meanwhile an in-process worker (real
 * clock) still fires another schedule's occurrence on time. Real database, real loopback receiver.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAlertChannel, createAlertRule, createSchedule } from '../../lib/schedules';
import { testDelivery } from '../../lib/testing/fire-and-deliver';
import { TEST_LIMITS } from '../../lib/testing/limits';
import { startReceiver, type Receiver } from '../../lib/testing/receiver';
import { useSeededScheduler } from '../../lib/testing/seeded-scheduler';
import { Worker } from '../worker';

const w = useSeededScheduler();
const ALLOW = { hosts: ['localhost'], addresses: [], ranges: ['127.0.0.0/8', '::1/128'] };
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver((req) => (req.path === '/hang' ? 'hang' : req.path === '/fail' ? { status: 500, body: 'down' } : { status: 200, body: 'ok' }));
});
afterAll(async () => receiver?.close());

/** A one-time webhook schedule to `path`, due at `at` (whole seconds, UTC), never retried. */
async function oneTime(alias: string, path: string, at: Date) {
  return createSchedule({
    db: w.db, actor: w.actor(), revision: await w.scheduler(), limits: TEST_LIMITS, now: new Date(), httpAllowList: ALLOW,
    input: {
      alias, repeat: 'one_time', invocation_time: at.toISOString().slice(0, 19), timezone: 'UTC',
      invocation_target_type: 'http', invocation_target: { url: receiver.url(path), method: 'POST' },
      retry_policy: { maximum_retry_attempts: 0, maximum_event_age_seconds: 60 },
    },
  });
}

it('§17 a channel that never answers does not hold the worker: the next occurrence fires on time while its alert waits', async () => {
  const { channel } = await createAlertChannel(w.db, { actor: w.actor(), org: 'acme-corp', now: new Date(), allowList: ALLOW, input: { type: 'webhook', name: 'hanging', config: { url: receiver.url('/hang') } } });
  await createAlertRule({ db: w.db, actor: w.actor(), revision: await w.scheduler(), now: new Date(), input: { events: ['failure'], channels: [channel.id] } });
  const base = Math.ceil(Date.now() / 1000) * 1000;
  const failsAt = new Date(base + 2_000);
  const ownAt = new Date(base + 5_000);
  await oneTime('fails-and-alerts', '/fail', failsAt);
  await oneTime('on-time', '/own', ownAt);
  const worker = new Worker({ db: w.db, limits: TEST_LIMITS, batchSize: 100, pollIntervalMs: 100, delivery: testDelivery(), alerts: { publicUrl: 'https://scheduler.example.com' } });
  const running = worker.run();
  try {
    for (const until = Date.now() + 20_000; Date.now() < until && !receiver.requests.some((r) => r.path === '/own'); ) await new Promise((r) => setTimeout(r, 50));
    // The receiver stamps requests with performance.now(): as epoch ms here.
    const at = (path: string) => {
      const r = receiver.requests.find((q) => q.path === path);
      return r ? performance.timeOrigin + r.at : undefined;
    };
    const hung = at('/hang');
    const own = at('/own');
    // The alert's send began (and hangs for the channel's 10 s timeout) before the next occurrence was due.
    expect(hung, 'the alert was sent').toBeLessThan(ownAt.getTime());
    // The next occurrence arrived on time all the same: within 1.5 s of due, not after the alert's timeout.
    expect(own, 'the on-time occurrence arrived').toBeDefined();
    expect(own! - ownAt.getTime()).toBeLessThan(1_500);
  } finally {
    worker.stop('test done');
    await running;
  }
}, 60_000);
