/**
 * SPEC §8 guarantees of the fire path, against a real SQLite file:
 * exactly once per occurrence, run + execution + advance in one transaction, catch-up window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../lib/db';
import type { Limits } from '../../lib/config';
import { createSchedule, fireOccurrence, listDueOccurrences } from '../../lib/schedules';
import { seed } from '../../prisma/seed';
import { createTestDb } from '../../lib/testing/sqlite-db';
import { Worker } from '../worker';

const LIMITS: Limits = {
  schedulesPerRevision: 1000,
  minIntervalSeconds: 60,
  runRetentionDays: 30,
  catchupWindowSeconds: 300,
  executionsPerSessionPerMinute: 600,
};

const TARGET = {
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
  input_data: [{ alias: 'ticket_window', value: { hours: 24 } }],
};

let db: Db;
let cleanup: () => Promise<void>;
let ctx: Awaited<ReturnType<typeof seed>>;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  ctx = await seed(db, undefined);
});
afterAll(async () => cleanup());

function actor() {
  return { type: 'user' as const, id: ctx.userId, roleCap: null };
}

async function schedulerRevision() {
  const rev = await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } });
  return { id: rev.id, blobId: rev.blobId };
}

describe('fireOccurrence', () => {
  it('§8 a one_time schedule fires once, records a success run, and completes', async () => {
    const now = new Date('2030-01-15T10:00:00Z');
    const s = await createSchedule({
      db, actor: actor(), revision: await schedulerRevision(), limits: LIMITS, now,
      input: { repeat: 'one_time', invocation_time: '2030-01-15T15:30:15', timezone: 'Asia/Kolkata', description: 'one-time e2e', invocation_target: TARGET },
    });
    expect(s.next_fire_at).toBe('2030-01-15T10:00:15.000Z'); // 15:30:15 IST = 10:00:15 UTC
    const scheduledFor = new Date(s.next_fire_at!);
    const out = await fireOccurrence({ db, scheduleId: s.id, scheduledFor, now: new Date('2030-01-15T10:00:16Z'), limits: LIMITS });
    expect(out.kind).toBe('fired');
    if (out.kind !== 'fired') return;
    expect(out.run.status).toBe('success');
    expect(out.completed).toBe(true);
    expect(out.lateMs).toBe(1000);
    const execution = await db.execution.findUniqueOrThrow({ where: { id: out.run.executionId! } });
    expect(execution.description).toBe('one-time e2e');
    expect(execution.scheduleId).toBe(s.id);
    const row = await db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.state).toBe('completed');
    expect(row.nextFireAt).toBeNull();

    // The same occurrence again (a stale listing, a restarted worker): nothing is written.
    const again = await fireOccurrence({ db, scheduleId: s.id, scheduledFor, now: new Date('2030-01-15T10:00:17Z'), limits: LIMITS });
    expect(again.kind).toBe('lost-race');
    expect(await db.run.count({ where: { scheduleId: s.id } })).toBe(1);
  });

  it('§8 two workers on one due occurrence record one run', async () => {
    const now = new Date('2030-02-01T00:00:00Z');
    const s = await createSchedule({
      db, actor: actor(), revision: await schedulerRevision(), limits: LIMITS, now,
      input: { repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', invocation_target: TARGET },
    });
    expect(s.next_fire_at).toBe('2030-02-01T00:01:00.000Z');
    // Both workers share one connection here: better-sqlite3 is synchronous, so two connections in
    // one process would block each other's event loop. Separate processes: worker.sigkill test.
    try {
      const at = new Date('2030-02-01T00:01:00.500Z');
      const w1 = new Worker({ db, limits: LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => at });
      const w2 = new Worker({ db, limits: LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => at });
      await Promise.all([w1.tick(at), w2.tick(at), w1.tick(at), w2.tick(at)]);
      const runs = await db.run.findMany({ where: { scheduleId: s.id } });
      expect(runs.map((r) => r.scheduledFor.toISOString())).toEqual(['2030-02-01T00:01:00.000Z']);
      expect(await db.execution.count({ where: { scheduleId: s.id } })).toBe(1);
      const row = await db.schedule.findUniqueOrThrow({ where: { id: s.id } });
      expect(row.nextFireAt?.toISOString()).toBe('2030-02-01T00:02:00.000Z');
    } finally {
      await db.schedule.delete({ where: { id: s.id } });
    }
  });

  it('§8 catch-up: after 10 minutes down with a 5-minute window, older occurrences are skipped and counted, the last 5 fire late', async () => {
    const created = new Date('2030-03-01T00:00:30Z');
    const s = await createSchedule({
      db, actor: actor(), revision: await schedulerRevision(), limits: LIMITS, now: created,
      input: { repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', invocation_target: TARGET },
    });
    expect(s.next_fire_at).toBe('2030-03-01T00:01:00.000Z');
    // The worker comes back at 00:11:30: occurrences 00:01 … 00:11 are due; the window starts at 00:06:30.
    const now = new Date('2030-03-01T00:11:30Z');
    const worker = new Worker({ db, limits: LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => now });
    for (let i = 0; i < 20 && (await listDueOccurrences(db, now, 100)).some((d) => d.scheduleId === s.id); i++) await worker.tick(now);
    const runs = await db.run.findMany({ where: { scheduleId: s.id }, orderBy: { scheduledFor: 'asc' } });
    expect(runs.map((r) => r.scheduledFor.toISOString().slice(11, 16))).toEqual(['00:07', '00:08', '00:09', '00:10', '00:11']);
    const row = await db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.skippedOccurrences).toBe(6); // 00:01 … 00:06
    expect(row.nextFireAt?.toISOString()).toBe('2030-03-01T00:12:00.000Z');
    await db.schedule.delete({ where: { id: s.id } });
  });
});
