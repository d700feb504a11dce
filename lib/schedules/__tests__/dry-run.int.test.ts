/**
 * `dry_run: true` on `create_schedule` / `update_schedule` (docs/decisions.md): every check of the real
 * save, with the same codes and messages, and nothing written; the answer is the schedule the save would
 * store. A target session alias that does not exist yet in a draft revision the saver can write is named
 * in `missing_session` (what `scheduler deploy` creates first). Against a real database.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth';
import type { Limits } from '../../config';
import type { Db } from '../../db';
import { createTestDb, type TestDb } from '../../testing/test-db';
import { workflowTargetOf } from '../../testing/workflow-target';
import { closeSession, commitRevision, createSchedulerBlob } from '../../workflows';
import { makeWorld, T0, type World } from '../../testing/catalog-world';
import { createSchedule, dryRunCreateSchedule } from '../save/create-schedule';
import { dryRunUpdateSchedule, updateSchedule } from '../save/update-schedule';

const LIMITS: Limits = { schedulesPerRevision: 1000, minIntervalSeconds: 60, runRetentionDays: 30, catchupWindowSeconds: 300, executionsPerSessionPerMinute: 600, executionRetentionDays: 30 };
/** 2026-03-08T12:00:00Z: every save of this file happens at this instant. */
const NOW = T0;

let t: TestDb;
let db: Db;
let w: World;
let scheduler: { id: string; blobId: string };

beforeAll(async () => {
  t = await createTestDb();
  db = t.db;
});
afterAll(() => t.cleanup());

beforeEach(async () => {
  await db.org.deleteMany();
  await db.user.deleteMany();
  w = await makeWorld(db);
  const blob = await createSchedulerBlob(db, { actor: w.writer, org: 'acme-corp', alias: 'dry-run-scheduler', now: NOW });
  scheduler = { id: blob.default_revision_id!, blobId: blob.id };
});

const following = (session = 'nightly-batch', definition = 'triage') => ({
  target: { org: 'acme-corp', blob: 'support-bot', revision: 'default', session },
  workflow: { definition },
  input_data: [{ alias: 'ticket_window', value: { hours: 24 } }],
});
const cron = (extra: Record<string, unknown> = {}) => ({ alias: 'nightly-report', repeat: 'recurring_cron', cron_expression: '0 9 ? * MON-FRI *', timezone: 'Europe/Berlin', invocation_target: following(), ...extra });
const opts = (input: unknown, actor: Actor = w.writer, limits = LIMITS) => ({ db, actor, revision: scheduler, input, limits, now: NOW });
const count = () => db.schedule.count({ where: { revisionId: scheduler.id } });

/** The refusal `p` rejects with, as `{code, message, path}`. */
async function refusal(p: Promise<unknown>) {
  const e = await p.then(
    () => null,
    (err: { code: string; message: string; path?: string }) => err,
  );
  expect(e, 'expected a refusal').not.toBeNull();
  return { code: e!.code, message: e!.message, path: e!.path };
}

describe('dry-run create_schedule', () => {
  it('answers what the real create then stores (under another id) and writes nothing', async () => {
    const dry = await dryRunCreateSchedule(opts(cron({ start_date: '2026-04-01T00:00:00+02:00' })));
    expect(dry.dry_run).toBe(true);
    expect(dry.missing_session).toBeUndefined();
    expect(dry.schedule).toMatchObject({
      alias: 'nightly-report',
      start_date: '2026-03-31T22:00:00.000Z',
      state: 'active',
      next_fire_at: '2026-04-01T07:00:00.000Z', // Wed 09:00 CEST
      created_by: { type: 'user', id: w.writer.id },
      created_at: '2026-03-08T12:00:00.000Z',
    });
    expect(await count()).toBe(0);
    expect(await db.schedule.findUnique({ where: { id: dry.schedule.id } })).toBeNull();

    const real = await createSchedule(opts(cron({ start_date: '2026-04-01T00:00:00+02:00' })));
    expect(real.id).not.toBe(dry.schedule.id);
    expect(real).toEqual({ ...dry.schedule, id: real.id });
  });

  it('a pinned target answers its session rewritten to the id, as stored (SPEC §6.1)', async () => {
    const pinned = { ...following(), target: { ...following().target, revision: w.revisionId } };
    const dry = await dryRunCreateSchedule(opts(cron({ invocation_target: pinned })));
    expect(workflowTargetOf(dry.schedule).target.session).toBe(w.sessionId);
  });

  it('refuses exactly as the real create: code, message and path', async () => {
    await createSchedule(opts(cron()));
    const cases: [unknown, Actor, Limits][] = [
      [cron(), w.writer, LIMITS], // alias_taken
      [cron({ alias: 'other-report' }), w.writer, { ...LIMITS, schedulesPerRevision: 1 }], // schedule_limit_reached
      [cron({ alias: 'fast-report', cron_expression: '* * * * ? *' }), w.writer, { ...LIMITS, minIntervalSeconds: 120 }], // interval_too_short
      [cron({ alias: 'past-report', repeat: 'one_time', cron_expression: undefined, invocation_time: '2026-03-08T12:00:00' }), w.writer, LIMITS], // 12:00 CET = 11:00Z, before NOW
      [cron({ alias: 'no-such-definition', invocation_target: following('nightly-batch', 'no-such-definition') }), w.writer, LIMITS],
      [cron({ alias: 'reader-report' }), w.reader, LIMITS], // forbidden on the scheduler
      [cron({ alias: 'cron-typo', cron_expression: '0 9 ? * 8 *' }), w.writer, LIMITS],
    ];
    const codes: string[] = [];
    for (const [input, actor, limits] of cases) {
      const dry = await refusal(dryRunCreateSchedule(opts(input, actor, limits)));
      const real = await refusal(createSchedule(opts(input, actor, limits)));
      expect(dry).toEqual(real);
      codes.push(dry.code);
    }
    expect(codes).toEqual(['alias_taken', 'schedule_limit_reached', 'interval_too_short', 'invalid_invocation_time', 'invalid_invocation_target', 'forbidden', 'invalid_cron_expression']);
    expect(await count()).toBe(1);
  });

  it('§6.3 a target the saver cannot write is the one identical refusal, even when its session is missing', async () => {
    // The reader may read support-bot but not write it: a save needs write on the target (SPEC §6.3).
    await db.blobGrant.create({ data: { blobId: scheduler.blobId, granteeType: 'user', granteeId: w.reader.id, role: 'write' } });
    const asReader = await refusal(dryRunCreateSchedule(opts(cron({ invocation_target: following('not-yet-there') }), w.reader)));
    const unknownBlob = await refusal(dryRunCreateSchedule(opts(cron({ invocation_target: { ...following(), target: { ...following().target, blob: 'no-such-blob' } } }))));
    expect(asReader).toEqual(unknownBlob);
    expect(asReader).toMatchObject({ code: 'invalid_invocation_target', path: 'invocation_target' });
  });
});

describe('dry run: missing_session names a target session deploy must create first', () => {
  it('following target: the alias (lookup form) in the blob\'s default draft revision', async () => {
    const dry = await dryRunCreateSchedule(opts(cron({ invocation_target: following(' Not-Yet-There ') })));
    expect(dry.missing_session).toEqual({ revision_id: w.revisionId, alias: 'not-yet-there' });
    expect(workflowTargetOf(dry.schedule).target.session).toBe(' Not-Yet-There ');
    // The real save is refused until the session exists.
    await expect(createSchedule(opts(cron({ invocation_target: following('not-yet-there') })))).rejects.toMatchObject({ code: 'invalid_invocation_target' });
  });

  it('pinned target: the alias in the pinned revision; a missing session id is refused', async () => {
    const pinned = (session: string) => ({ ...following(), target: { ...following().target, revision: w.revisionId, session } });
    const dry = await dryRunCreateSchedule(opts(cron({ invocation_target: pinned('not-yet-there') })));
    expect(dry.missing_session).toEqual({ revision_id: w.revisionId, alias: 'not-yet-there' });
    expect(workflowTargetOf(dry.schedule).target.session).toBe('not-yet-there');
    await expect(dryRunCreateSchedule(opts(cron({ invocation_target: pinned('8f14e45f-cee4-4b0b-8f8a-8e3b1a2c3d4e') })))).rejects.toMatchObject({ code: 'invalid_invocation_target' });
  });

  it('everything else is still checked: the workflow reference, a closed session, a committed revision', async () => {
    await expect(dryRunCreateSchedule(opts(cron({ invocation_target: following('not-yet-there', 'no-such-definition') })))).rejects.toMatchObject({ code: 'invalid_invocation_target' });
    await closeSession(db, { actor: w.writer, revisionId: w.revisionId, session: 'nightly-batch', now: NOW });
    await expect(dryRunCreateSchedule(opts(cron()))).rejects.toMatchObject({ code: 'invalid_invocation_target' });
    await commitRevision(db, { actor: w.writer, revisionId: w.revisionId, now: NOW });
    const pinned = { ...following('not-yet-there'), target: { ...following().target, revision: w.revisionId, session: 'not-yet-there' } };
    await expect(dryRunCreateSchedule(opts(cron({ invocation_target: pinned })))).rejects.toMatchObject({ code: 'invalid_invocation_target' });
  });
});

describe('dry-run update_schedule', () => {
  it('answers the merged schedule and writes nothing', async () => {
    const saved = await createSchedule(opts(cron({ description: 'before' })));
    const later = new Date(NOW.getTime() + 60_000);
    const dry = await dryRunUpdateSchedule({ ...opts({ description: 'after', cron_expression: '0 10 ? * MON-FRI *' }), scheduleRef: 'nightly-report', now: later });
    expect(dry.schedule).toEqual({ ...saved, description: 'after', cron_expression: '0 10 ? * MON-FRI *', next_fire_at: '2026-03-09T09:00:00.000Z', updated_at: later.toISOString(), version: saved.version + 1 }); // Mon 10:00 CET
    const row = await db.schedule.findUniqueOrThrow({ where: { id: saved.id } });
    expect([row.description, row.cronExpression, row.updatedAt.toISOString()]).toEqual(['before', '0 9 ? * MON-FRI *', saved.updated_at]);
    const real = await updateSchedule({ ...opts({ description: 'after', cron_expression: '0 10 ? * MON-FRI *' }), scheduleRef: 'nightly-report', now: later });
    expect(real).toEqual(dry.schedule);
  });

  it('refuses as the real update; a new target with a missing session is named', async () => {
    const saved = await createSchedule(opts(cron()));
    await createSchedule(opts(cron({ alias: 'other-report' })));
    const clash = await refusal(dryRunUpdateSchedule({ ...opts({ alias: 'other-report' }), scheduleRef: saved.id }));
    expect(clash).toEqual(await refusal(updateSchedule({ ...opts({ alias: 'other-report' }), scheduleRef: saved.id })));
    expect(clash.code).toBe('alias_taken');
    const dry = await dryRunUpdateSchedule({ ...opts({ invocation_target: following('not-yet-there') }), scheduleRef: saved.id });
    expect(dry.missing_session).toEqual({ revision_id: w.revisionId, alias: 'not-yet-there' });
    await db.schedule.update({ where: { id: saved.id }, data: { state: 'completed' } });
    expect(await refusal(dryRunUpdateSchedule({ ...opts({ description: 'x' }), scheduleRef: saved.id }))).toMatchObject({ code: 'schedule_completed' });
  });
});
