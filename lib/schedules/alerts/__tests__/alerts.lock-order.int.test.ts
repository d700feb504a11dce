/**
 * The lock order of alerting on PostgreSQL (docs/decisions.md 440): an alert rule before its
 * incidents. The fire path's raise holds its rules shared (`FOR KEY SHARE`) before it writes their
 * incidents; a rule's delete holds its rule (`FOR UPDATE`) before it ends the rule's incidents. So a
 * raise never alerts for a rule deleted under it, and a delete and a raise of one rule never deadlock.
 * Real transactions on two connections of a real PostgreSQL; SQLite's writers take turns by
 * themselves (BEGIN IMMEDIATE), so the file runs on PostgreSQL only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../../prisma/seed';
import type { Actor } from '../../../auth';
import type { HttpAllowList } from '../../../config';
import { inTransaction, type Db } from '../../../db';
import { insertSchedules } from '../../../testing/insert-schedules';
import { createTestDb, testDialect } from '../../../testing/test-db';
import { createAlertChannel, createAlertRule, deleteAlertRule, deleteSchedule, updateAlertRule } from '../..';
import { raiseMissedAtSave } from '../raise';

const ALLOW: HttpAllowList = { hosts: ['localhost'], addresses: [], ranges: ['127.0.0.0/8'] };

let db: Db;
let cleanup: () => Promise<void>;
let admin: Actor;
let scheduler: { id: string; blobId: string };
let channelId: string;
let scheduleId: string;
let orgId: string;
const TARGET = { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' } };

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}
type RawTx = { $queryRawUnsafe: (sql: string, ...values: unknown[]) => Promise<unknown> };
/**
 * A transaction on its own connection that runs `first`, then waits (`held` once it has) until
 * `resume()`, then runs `rest` and commits (`done`).
 */
function heldTransaction(first: (tx: RawTx) => Promise<unknown>, rest: (tx: RawTx) => Promise<unknown> = async () => {}) {
  const held = gate();
  const resumed = gate();
  const done = db.$transaction(async (tx) => {
    await first(tx);
    held.open();
    await resumed.opened;
    await rest(tx);
  }, { timeout: 30_000 });
  // A `first` that failed opens `held` too: the test then fails on `done`, not on a wait.
  done.catch(() => held.open());
  return { held: held.opened, resume: resumed.open, done: done.then(() => undefined) };
}
/**
 * True once a backend of this database waits for a lock (`pg_stat_activity`), polled for up to 15 s:
 * the call under test has reached a row another transaction holds, however slow the machine.
 */
async function someoneWaitsOnALock(): Promise<boolean> {
  for (const end = Date.now() + 15_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    const [row] = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
    if (row.n > 0) return true;
  }
  return false;
}
/** 'settled' when `p` settles within `ms`, else 'waiting'. */
const within = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => 'settled', () => 'settled'), new Promise((r) => setTimeout(() => r('waiting'), ms))]);
/** Expect `call` to wait at a lock (PostgreSQL shows a lock wait, and `call` has not settled 200 ms later), then `release` what holds it, pass or fail. */
async function expectWaitingAtLock(call: Promise<unknown>, release: () => unknown): Promise<void> {
  try {
    expect(await someoneWaitsOnALock()).toBe(true);
    expect(await within(call, 200)).toBe('waiting');
  } finally {
    await release();
  }
}

describe.skipIf(testDialect() !== 'postgresql')('alerting lock order: the rule before its incidents (PostgreSQL)', () => {
  beforeAll(async () => {
    ({ db, cleanup } = await createTestDb());
    const ctx = await seed(db, undefined);
    admin = { type: 'user', id: ctx.userId, roleCap: null };
    const rev = await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } });
    scheduler = { id: rev.id, blobId: rev.blobId };
    const made = await createAlertChannel(db, { actor: admin, org: 'acme-corp', now: new Date(), allowList: ALLOW, input: { type: 'webhook', name: 'lock-order-hook', config: { url: 'http://127.0.0.1:9/hook' } } });
    channelId = made.channel.id;
    orgId = ctx.orgId;
    [scheduleId] = await insertSchedules(db, [{ revisionId: rev.id, alias: 'lock-order-job', createdBy: { type: 'org', id: orgId }, invocationTarget: TARGET, nextFireAt: null }]);
  });
  afterAll(async () => cleanup?.());

  /** A rule on the schedule alerting `missed` (and `extra`: two rules must differ, decision 345). */
  const newRule = async (extra: ('paused' | 'dead_letter')[] = [], on = scheduleId) =>
    (await createAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input: { schedule_id: on, events: ['missed', ...extra], channels: [channelId] } })).id;
  const raiseMissed = (at: Date, on = scheduleId) => inTransaction(db, (tx) => raiseMissedAtSave(tx, on, at, new Date()));

  it('a raise waits for a delete of its rule in progress, then raises nothing for the deleted rule', async () => {
    const ruleId = await newRule();
    // A delete of the rule, not yet committed (the row lock a rule's delete holds).
    const deleting = heldTransaction((tx) => tx.$queryRawUnsafe('DELETE FROM alert_rules WHERE id = $1', ruleId));
    await deleting.held;
    const raising = raiseMissed(new Date('2031-01-01T00:00:00Z'));
    // The raise read the rule (the delete is not committed) and now waits at the rule's lock.
    await expectWaitingAtLock(raising, async () => { deleting.resume(); await deleting.done; });
    await raising;
    expect(await db.alertIncident.count({ where: { ruleId } })).toBe(0);
    expect(await db.alert.count({ where: { ruleId } })).toBe(0);
  });

  it('a rule\'s delete waits at the rule behind a raise holding it, and both commit: no deadlock on the incident', async () => {
    const ruleId = await newRule(['paused']);
    await raiseMissed(new Date('2031-02-01T00:00:00Z'));
    const incident = await db.alertIncident.findFirstOrThrow({ where: { ruleId, openKey: { not: null } } });
    // A raise in the lock order: its rule shared, then (once the delete below is under way) its incident.
    const raising = heldTransaction(
      (tx) => tx.$queryRawUnsafe('SELECT id FROM alert_rules WHERE id = $1 FOR KEY SHARE', ruleId),
      (tx) => tx.$queryRawUnsafe(`UPDATE alert_incidents SET rounds = '{"missed":{"round":0,"at":"2031-02-01T00:01:00.000Z"}}' WHERE id = $1`, incident.id),
    );
    await raising.held;
    const deleting = deleteAlertRule({ db, actor: admin, revision: scheduler, ruleRef: ruleId });
    // The delete waits at the rule (it must not have ended the incident yet: that row is the raise's next write).
    await expectWaitingAtLock(deleting, raising.resume);
    await expect(raising.done).resolves.toBeUndefined();
    await expect(deleting).resolves.toBeUndefined();
    expect(await db.alertRule.count({ where: { id: ruleId } })).toBe(0);
    const ended = await db.alertIncident.findUniqueOrThrow({ where: { id: incident.id } });
    expect([ended.openKey, ended.resolvedAt !== null, ended.rounds]).toEqual([null, true, { missed: { round: 0, at: '2031-02-01T00:01:00.000Z' } }]);
  });
  it('a schedule\'s delete takes the rules on it before their incidents, as a rule\'s delete: the two never deadlock', async () => {
    const [doomed] = await insertSchedules(db, [{ revisionId: scheduler.id, alias: 'lock-order-doomed', createdBy: { type: 'org', id: orgId }, invocationTarget: TARGET, nextFireAt: null }]);
    const ruleId = await newRule([], doomed);
    await raiseMissed(new Date('2031-03-01T00:00:00Z'), doomed);
    const incident = await db.alertIncident.findFirstOrThrow({ where: { ruleId, openKey: { not: null } } });
    // A rule's delete in its lock order: the rule, then (once the schedule's delete is under way) its incident.
    const deletingRule = heldTransaction(
      (tx) => tx.$queryRawUnsafe('SELECT id FROM alert_rules WHERE id = $1 FOR UPDATE', ruleId),
      async (tx) => {
        await tx.$queryRawUnsafe('UPDATE alert_incidents SET open_key = NULL, resolved_at = $2::timestamp(3) WHERE id = $1', incident.id, '2031-03-01 00:02:00');
        await tx.$queryRawUnsafe('DELETE FROM alert_rules WHERE id = $1', ruleId);
      },
    );
    await deletingRule.held;
    const deletingSchedule = deleteSchedule({ db, actor: admin, revision: scheduler, scheduleRef: doomed, now: new Date('2031-03-01T00:03:00Z') });
    // The schedule's delete waits at the rule: the incident stays free for the rule's delete.
    await expectWaitingAtLock(deletingSchedule, deletingRule.resume);
    await expect(deletingRule.done).resolves.toBeUndefined();
    await expect(deletingSchedule).resolves.toBeUndefined();
    expect(await db.schedule.count({ where: { id: doomed } })).toBe(0);
    expect(await db.alertRule.count({ where: { id: ruleId } })).toBe(0);
    const ended = await db.alertIncident.findUniqueOrThrow({ where: { id: incident.id } });
    expect([ended.openKey, ended.resolvedAt?.toISOString()]).toEqual([null, '2031-03-01T00:02:00.000Z']);
  });
  it('a change of a rule\'s channels waits at the rule behind its delete, then answers not_found: no deadlock on the channels', async () => {
    const ruleId = await newRule(['dead_letter']);
    const other = (await createAlertChannel(db, { actor: admin, org: 'acme-corp', now: new Date(), allowList: ALLOW, input: { type: 'webhook', name: 'lock-order-hook-2', config: { url: 'http://127.0.0.1:9/hook-2' } } })).channel.id;
    // A rule's delete in its lock order: the rule, then (once the change is under way) the row, whose cascade takes its channels.
    const deleting = heldTransaction(
      (tx) => tx.$queryRawUnsafe('SELECT id FROM alert_rules WHERE id = $1 FOR UPDATE', ruleId),
      (tx) => tx.$queryRawUnsafe('DELETE FROM alert_rules WHERE id = $1', ruleId),
    );
    await deleting.held;
    const changing = updateAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input: { rule_id: ruleId, channels: [channelId, other] } });
    // The change waits at the rule, before it replaced any channel row the delete's cascade takes next.
    await expectWaitingAtLock(changing, deleting.resume);
    await expect(deleting.done).resolves.toBeUndefined();
    await expect(changing).rejects.toMatchObject({ code: 'not_found', message: 'alert rule not found' });
    expect(await db.alertRuleChannel.count({ where: { ruleId } })).toBe(0);
  });
});
