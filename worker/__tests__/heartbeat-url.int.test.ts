/**
 * SPEC §17 dead man's switch: a real worker process with SCHEDULER_HEARTBEAT_URL requests it (GET) once
 * a minute of its clock while it fires normally. The worker's clock runs 20 times faster than real
 * time (`WORKER_TEST_CLOCK`: a minute every 3 s), and a real receiver on loopback counts the requests.
 */
import { expect, it } from 'vitest';
import { startReceiver } from '../../lib/testing/receiver';
import { exited, sleep, spawnWorker, useTestDatabase } from '../../lib/testing/worker-process';

const RATE = 20;
const t = useTestDatabase();

it('§17 SCHEDULER_HEARTBEAT_URL: one GET a minute of the worker\'s clock while it fires normally', async () => {
  const receiver = await startReceiver(() => ({ status: 200, body: 'OK' }));
  const w = spawnWorker(t.url, { WORKER_POLL_INTERVAL_MS: '100', LOG_LEVEL: 'error', WORKER_TEST_CLOCK: `${Date.now()}:${RATE}`, SCHEDULER_HEARTBEAT_URL: receiver.url('/ping/abc') });
  try {
    for (const until = Date.now() + 30_000; Date.now() < until && receiver.requests.length < 1; ) await sleep(50);
    const first = receiver.requests.length;
    expect(first).toBe(1);
    // 7.5 s of real time = 2.5 minutes of the worker's clock: two more, not more.
    await sleep(7_500);
    expect(receiver.requests.length).toBeGreaterThanOrEqual(3);
    expect(receiver.requests.length).toBeLessThanOrEqual(4);
    expect(receiver.requests.every((r) => r.method === 'GET' && r.path === '/ping/abc')).toBe(true);
    // A minute of the worker's clock apart: n requests span at least n − 1 minutes of it (less the
    // first request's own connection time, up to a second of real time = 20 s of its clock).
    const r = receiver.requests;
    expect((r[r.length - 1].at - r[0].at) * RATE).toBeGreaterThanOrEqual((r.length - 1) * 60_000 - 20_000);
  } finally {
    w.kill('SIGKILL');
    await exited(w);
    await receiver.close();
  }
}, 60_000);
