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
import { createAlertChannel, createAlertRule, deleteAlertRule } from '../..';
import { raiseMissedAtSave } from '../raise';

const ALLOW: HttpAllowList = { hosts: ['localhost'], addresses: [], ranges: ['127.0.0.0/8'] };

let db: Db;
let cleanup: () => Promise<void>;
let admin: Actor;
let scheduler: { id: string; blobId: string };
let channelId: string;
let scheduleId: string;

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}
/** 'settled' when `p` settles within `ms`, else 'waiting'. */
const within = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => 'settled', () => 'settled'), new Promise((r) => setTimeout(() => r('waiting'), ms))]);

describe.skipIf(testDialect() !== 'postgresql')('alerting lock order: the rule before its incidents (PostgreSQL)', () => {
  beforeAll(async () => {
    ({ db, cleanup } = await createTestDb());
    const ctx = await seed(db, undefined);
    admin = { type: 'user', id: ctx.userId, roleCap: null };
    const rev = await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } });
    scheduler = { id: rev.id, blobId: rev.blobId };
    const made = await createAlertChannel(db, { actor: admin, org: 'acme-corp', now: new Date(), allowList: ALLOW, input: { type: 'webhook', name: 'lock-order-hook', config: { url: 'http://127.0.0.1:9/hook' } } });
    channelId = made.channel.id;
    const target = { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' } };
    [scheduleId] = await insertSchedules(db, [{ revisionId: rev.id, alias: 'lock-order-job', createdBy: { type: 'org', id: ctx.orgId }, invocationTarget: target, nextFireAt: null }]);
  });
  afterAll(async () => cleanup?.());

  /** A rule on the schedule alerting `missed` (and `extra`: two rules must differ, decision 345). */
  const newRule = async (extra: ('paused' | 'dead_letter')[] = []) =>
    (await createAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input: { schedule_id: scheduleId, events: ['missed', ...extra], channels: [channelId] } })).id;
  const raiseMissed = (at: Date) => inTransaction(db, (tx) => raiseMissedAtSave(tx, scheduleId, at, new Date()));

  it('a raise waits for a delete of its rule in progress, then raises nothing for the deleted rule', async () => {
    const ruleId = await newRule();
    const deleted = gate();
    const commit = gate();
    // A delete of the rule, not yet committed (the row lock a rule's delete holds).
    const deleting = db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('DELETE FROM alert_rules WHERE id = $1', ruleId);
      deleted.open();
      await commit.opened;
    }, { timeout: 30_000 });
    await deleted.opened;
    const raising = raiseMissed(new Date('2031-01-01T00:00:00Z'));
    try {
      // The raise read the rule (the delete is not committed) and now waits at the rule's lock.
      expect(await within(raising, 1000)).toBe('waiting');
    } finally {
      commit.open();
      await deleting;
    }
    await raising;
    expect(await db.alertIncident.count({ where: { ruleId } })).toBe(0);
    expect(await db.alert.count({ where: { ruleId } })).toBe(0);
  });

  it('a rule\'s delete waits at the rule behind a raise holding it, and both commit: no deadlock on the incident', async () => {
    const ruleId = await newRule(['paused']);
    expect(await raiseMissed(new Date('2031-02-01T00:00:00Z'))).toBeUndefined();
    const incident = await db.alertIncident.findFirstOrThrow({ where: { ruleId, openKey: { not: null } } });
    const held = gate();
    const write = gate();
    // A raise in the lock order: its rule shared, then (once the delete below is under way) its incident.
    const raising = db.$transaction(async (tx) => {
      await tx.$queryRawUnsafe('SELECT id FROM alert_rules WHERE id = $1 FOR KEY SHARE', ruleId);
      held.open();
      await write.opened;
      await tx.$executeRawUnsafe(`UPDATE alert_incidents SET rounds = '{"missed":{"round":0,"at":"2031-02-01T00:01:00.000Z"}}' WHERE id = $1`, incident.id);
    }, { timeout: 30_000 });
    await held.opened;
    const deleting = deleteAlertRule({ db, actor: admin, revision: scheduler, ruleRef: ruleId });
    try {
      // The delete waits at the rule (it must not have ended the incident yet: that row is the raise's next write).
      expect(await within(deleting, 1000)).toBe('waiting');
    } finally {
      write.open();
    }
    await expect(raising).resolves.toBeUndefined();
    await expect(deleting).resolves.toBeUndefined();
    expect(await db.alertRule.count({ where: { id: ruleId } })).toBe(0);
    const ended = await db.alertIncident.findUniqueOrThrow({ where: { id: incident.id } });
    expect([ended.openKey, ended.resolvedAt !== null, ended.rounds]).toEqual([null, true, { missed: { round: 0, at: '2031-02-01T00:01:00.000Z' } }]);
  });
});
