/**
 * Worker liveness (GET /api/health, the web app's banner): a worker is alive while it is not stopped
 * and seen within 3 × the interval it records; a live worker's heartbeat prunes rows not seen for
 * 10 × their interval; the health report is `degraded` with the reason when no worker is alive.
 * Real SQLite / PostgreSQL; the instants are passed in (no clock).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { healthReport } from '../../api';
import { configureLog } from '../../log';
import { createDb, type Db } from '../../db';
import { createTestDb } from '../../testing/test-db';
import { markWorkerStopped, overdueReason, recordHeartbeat, workerLiveness } from '../operations/worker-heartbeats';

let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
});
afterAll(async () => cleanup());
beforeEach(async () => {
  await db.workerHeartbeat.deleteMany();
});

const T0 = new Date('2030-05-01T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

describe('liveness: 3 × the recorded interval', () => {
  it('a worker beating every 5 s is alive 15 s after its heartbeat and gone 15.001 s after', async () => {
    await recordHeartbeat(db, { workerId: 'w1', startedAt: T0, intervalMs: 5000, now: T0 });
    expect(await workerLiveness(db, at(15_000))).toEqual({ alive: 1, lastSeenAt: T0, lastSeenAgeSeconds: 15 });
    expect((await workerLiveness(db, at(15_001))).alive).toBe(0);
  });

  it('the interval is per worker: a 60 s poller is alive 120 s after its heartbeat, a 5 s one is not', async () => {
    await recordHeartbeat(db, { workerId: 'slow', startedAt: T0, intervalMs: 60_000, now: T0 });
    await recordHeartbeat(db, { workerId: 'fast', startedAt: T0, intervalMs: 5000, now: T0 });
    const l = await workerLiveness(db, at(120_000));
    expect(l.alive).toBe(1);
    expect(l.lastSeenAt?.toISOString()).toBe('2030-05-01T12:00:00.000Z');
  });

  it('a gracefully stopped worker is gone at once, and its stop is when a worker was last seen', async () => {
    await recordHeartbeat(db, { workerId: 'w1', startedAt: T0, intervalMs: 5000, now: T0 });
    await markWorkerStopped(db, 'w1', at(2000));
    expect(await workerLiveness(db, at(2001))).toEqual({ alive: 0, lastSeenAt: at(2000), lastSeenAgeSeconds: 0.001 });
    // Starting again under the same id clears the stop.
    await recordHeartbeat(db, { workerId: 'w1', startedAt: T0, intervalMs: 5000, now: at(3000) });
    expect((await workerLiveness(db, at(3000))).alive).toBe(1);
  });

  it('no row at all: nobody ever reported', async () => {
    expect(await workerLiveness(db, T0)).toEqual({ alive: 0, lastSeenAt: null, lastSeenAgeSeconds: null });
  });
});

describe('pruning: a live heartbeat deletes rows not seen for 10 × their interval', () => {
  it('deletes the dead (SIGKILLed 50.001 s ago at 5 s) and keeps the recent and itself', async () => {
    await recordHeartbeat(db, { workerId: 'killed', startedAt: T0, intervalMs: 5000, now: T0 });
    await recordHeartbeat(db, { workerId: 'stopped', startedAt: T0, intervalMs: 5000, now: at(10_000) });
    await markWorkerStopped(db, 'stopped', at(10_000));
    await recordHeartbeat(db, { workerId: 'slow', startedAt: T0, intervalMs: 60_000, now: T0 });
    const { pruned } = await recordHeartbeat(db, { workerId: 'live', startedAt: T0, intervalMs: 5000, now: at(50_001) });
    expect(pruned).toBe(1);
    const ids = (await db.workerHeartbeat.findMany({ orderBy: { id: 'asc' } })).map((r) => r.id);
    expect(ids).toEqual(['live', 'slow', 'stopped']);
    // 60.001 s: the stopped one (last seen at 10 s) goes too; the 60 s poller stays until 600 s.
    expect((await recordHeartbeat(db, { workerId: 'live', startedAt: T0, intervalMs: 5000, now: at(60_001) })).pruned).toBe(1);
    expect((await recordHeartbeat(db, { workerId: 'live', startedAt: T0, intervalMs: 5000, now: at(600_001) })).pruned).toBe(1);
    expect(await db.workerHeartbeat.count()).toBe(1);
  });
});

describe('GET /api/health report', () => {
  it('ok with a live worker; degraded with the reason once it has been silent 3 × its interval', async () => {
    await recordHeartbeat(db, { workerId: 'w1', startedAt: T0, intervalMs: 5000, now: T0 });
    expect(await healthReport(at(4000), db)).toEqual({
      status: 'ok',
      database: 'reachable',
      storage: 'ok',
      workers_alive: 1,
      worker_last_seen_at: '2030-05-01T12:00:00.000Z',
      worker_heartbeat_age_seconds: 4,
      alerts: 'ok',
    });
    const stale = await healthReport(at(63_000), db);
    expect(stale).toMatchObject({ status: 'degraded', database: 'reachable', workers_alive: 0, worker_heartbeat_age_seconds: 63 });
    expect(stale.reason).toBe(
      'no worker is alive: one was last seen 63 s ago (a worker counts as gone after 3 × its heartbeat interval without a heartbeat); schedules do not fire',
    );
  });

  it('degraded when the database is unreachable (nothing listens on 127.0.0.1:1)', async () => {
    const gone = createDb('postgresql://scheduler:scheduler@127.0.0.1:1/scheduler');
    try {
      const r = await healthReport(T0, gone);
      expect(r).toMatchObject({ status: 'degraded', database: 'unreachable', workers_alive: 0, reason: 'the database is unreachable' });
      // Storage and alerts were not asked: unknown, never a claimed `ok`.
      expect(r).toMatchObject({ storage: 'unknown', alerts: 'unknown' });
      // The driver's text goes to the log only (it can name hosts and users).
      expect(Object.keys(r)).not.toContain('error');
      expect(JSON.stringify(r)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|scheduler@/);
    } finally {
      await gone.$disconnect().catch(() => undefined);
    }
  });

  it('alerts `unknown` (status unchanged) when the alert channels cannot be read, logged once; `ok` again once they can', async () => {
    await recordHeartbeat(db, { workerId: 'w1', startedAt: T0, intervalMs: 5000, now: T0 });
    const lines: string[] = [];
    configureLog({ write: (l) => lines.push(l) });
    await db.$executeRawUnsafe('ALTER TABLE alert_channels RENAME TO alert_channels_away');
    try {
      // Probed every few seconds by a load balancer: the failure is logged when it starts, not each time.
      for (let i = 0; i < 3; i++) expect(await healthReport(at(4000), db)).toMatchObject({ status: 'ok', storage: 'ok', workers_alive: 1, alerts: 'unknown' });
    } finally {
      await db.$executeRawUnsafe('ALTER TABLE alert_channels_away RENAME TO alert_channels');
    }
    expect((await healthReport(at(4000), db)).alerts).toBe('ok');
    expect((await healthReport(at(4000), db)).alerts).toBe('ok');
    configureLog({ write: (l) => void process.stdout.write(`${l}\n`) });
    const msgs = lines.map((l) => (JSON.parse(l) as { msg: string }).msg).filter((m) => m.includes('alert channels'));
    expect(msgs).toEqual(['health: reading the alert channels failed', 'health: the alert channels can be read again']);
  });

  it('degraded when no worker ever reported', async () => {
    const r = await healthReport(T0, db);
    expect(r).toMatchObject({ status: 'degraded', workers_alive: 0, worker_last_seen_at: null, worker_heartbeat_age_seconds: null });
    expect(r.reason).toMatch(/^no worker has ever reported a heartbeat/);
  });
});

describe('overdue next fires', () => {
  it('with no worker alive a past next fire is overdue at once; with one alive only 30 s past', () => {
    const next = '2030-05-01T12:00:00.000Z';
    expect(overdueReason(next, { alive: 0 }, at(1))).toBe('no_worker');
    expect(overdueReason(next, { alive: 0 }, at(0))).toBeUndefined();
    expect(overdueReason(next, { alive: 2 }, at(30_000))).toBeUndefined();
    expect(overdueReason(next, { alive: 2 }, at(30_001))).toBe('behind');
    expect(overdueReason(null, { alive: 0 }, at(60_000))).toBeUndefined();
  });
});
