/**
 * Alert rules (SPEC §17) on a scheduler (all its schedules) or on one of its schedules, and the alert
 * log (`list_alerts`). Reading needs `read` on the scheduler; changing rules needs `write` (as
 * changing its schedules does). A rule names channels of the scheduler's org.
 */
import type { Actor } from '../../auth';
import { endIncidents, inTransaction, lockAlertRule, lockAlertRulesOfSchedules, type Db, type Tx } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, newId, normalizeRef } from '../../ids';
import { requireSchedulerRole } from '../access';
import { getScheduleRow } from '../read/find-schedule';
import { alertRuleKey, type AlertChannelType, type AlertEntry, type AlertEvent, type AlertRule, type CreateAlertRuleParams, type UpdateAlertRuleParams } from './contract';
import { alertTitle, type AlertFacts } from './message';

export interface RuleScope {
  db: Db;
  actor: Actor;
  /** The scheduler's managed revision. */
  revision: { id: string; blobId: string };
}

const RULE_INCLUDE = { channels: { select: { channel: { select: { id: true, name: true, type: true } } } } } as const;
type RuleRow = {
  id: string;
  scheduleId: string | null;
  events: string;
  failureTolerance: number;
  silenceSeconds: number | null;
  realertIntervalSeconds: number | null;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
  channels: { channel: { id: string; name: string; type: string } }[];
};

export function toAlertRule(r: RuleRow): AlertRule {
  return {
    id: r.id,
    ...(r.scheduleId ? { schedule_id: r.scheduleId } : {}),
    events: r.events.split(',').filter(Boolean) as AlertEvent[],
    channels: r.channels.map((c) => ({ id: c.channel.id, name: c.channel.name, type: c.channel.type as AlertChannelType })).sort((a, b) => a.name.localeCompare(b.name)),
    failure_tolerance: r.failureTolerance,
    ...(r.silenceSeconds !== null ? { silence_seconds: r.silenceSeconds } : {}),
    ...(r.realertIntervalSeconds !== null ? { realert_interval_seconds: r.realertIntervalSeconds } : {}),
    enabled: r.enabled,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/** The rules of the scheduler (or only those on schedule `scheduleRef` and the scheduler-wide ones), oldest first. */
export async function listAlertRules(opts: RuleScope & { scheduleRef?: string }): Promise<AlertRule[]> {
  const { db, revision } = opts;
  await requireSchedulerRole(db, opts.actor, revision.blobId, 'read');
  const scheduleId = opts.scheduleRef ? (await getScheduleRow(db, revision.id, opts.scheduleRef)).id : undefined;
  const rows = await db.alertRule.findMany({
    where: { revisionId: revision.id, ...(scheduleId ? { OR: [{ scheduleId }, { scheduleId: null }] } : {}) },
    include: RULE_INCLUDE,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map(toAlertRule);
}

/**
 * The ids of channels `refs` (each an id or a name) of the scheduler's org.
 * @throws `400 invalid_request_body` (path `channels`) naming the first that is not one.
 */
async function requireChannels(tx: Tx, blobId: string, refs: string[]): Promise<string[]> {
  const blob = await tx.blob.findUniqueOrThrow({ where: { id: blobId }, select: { orgId: true } });
  const rows = await tx.alertChannel.findMany({ where: { orgId: blob.orgId, OR: [{ id: { in: refs.map(normalizeRef).filter(isIdShape) } }, { name: { in: refs } }] }, select: { id: true, name: true } });
  const ids = refs.map((ref) => rows.find((r) => r.id === normalizeRef(ref))?.id ?? rows.find((r) => r.name === ref)?.id);
  const missing = refs.find((_, i) => ids[i] === undefined);
  if (missing !== undefined) throw new DomainError('invalid_request_body', `"${missing}" is not an alert channel of the scheduler's org`, { path: 'channels' });
  return [...new Set(ids as string[])];
}

/** A rule's fields as `alertRuleKey` compares them (ids for the schedule and channels). */
type RuleShape = { scheduleId: string | null; events: string[]; channelIds: string[]; failureTolerance: number; silenceSeconds: number | null; realertIntervalSeconds: number | null; enabled: boolean };
const shapeKey = (r: RuleShape) =>
  alertRuleKey({ schedule: r.scheduleId, events: [...new Set(r.events)], channels: [...new Set(r.channelIds)], failure_tolerance: r.failureTolerance, silence_seconds: r.silenceSeconds, realert_interval_seconds: r.realertIntervalSeconds, enabled: r.enabled });

/**
 * Refuse a rule identical to another of the scheduler's (but `exceptId`) — same scope (schedule or
 * scheduler-wide), events, channels, failure_tolerance, silence_seconds, realert_interval_seconds and
 * enabled, the CLI's identity (`alertRuleKey`): it would only open a second incident per schedule.
 * @throws `409 duplicate_alert_rule` naming the existing rule (decision 345).
 */
async function refuseDuplicateRule(tx: Tx, revisionId: string, shape: RuleShape, exceptId?: string): Promise<void> {
  const rows = await tx.alertRule.findMany({
    where: { revisionId, scheduleId: shape.scheduleId, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { id: true, scheduleId: true, events: true, failureTolerance: true, silenceSeconds: true, realertIntervalSeconds: true, enabled: true, channels: { select: { channelId: true } } },
  });
  const key = shapeKey(shape);
  const same = rows.find((r) => shapeKey({ ...r, events: r.events.split(',').filter(Boolean), channelIds: r.channels.map((c) => c.channelId) }) === key);
  if (same) throw new DomainError('duplicate_alert_rule', `alert rule ${same.id} already does this (same schedule, events, channels and settings): change or delete that rule instead`);
}

/**
 * Create a rule. @throws `400` (path named), `404 schedule_not_found` for a schedule not in the
 * scheduler, `409 duplicate_alert_rule` for a rule identical to one it has (decision 345).
 */
export async function createAlertRule(opts: RuleScope & { input: CreateAlertRuleParams; now: Date }): Promise<AlertRule> {
  const { input, revision, now } = opts;
  return inTransaction(opts.db, async (tx) => {
    await requireSchedulerRole(tx, opts.actor, revision.blobId, 'write');
    const scheduleId = input.schedule_id ? (await getScheduleRow(tx, revision.id, input.schedule_id)).id : null;
    const channels = await requireChannels(tx, revision.blobId, input.channels);
    await refuseDuplicateRule(tx, revision.id, { scheduleId, events: input.events, channelIds: channels, failureTolerance: input.failure_tolerance ?? 1, silenceSeconds: input.silence_seconds ?? null, realertIntervalSeconds: input.realert_interval_seconds ?? null, enabled: input.enabled ?? true });
    if (input.dry_run) {
      // Every check passed; nothing is written (the CLI's deploy asks before it writes anything).
      const names = await tx.alertChannel.findMany({ where: { id: { in: channels } }, select: { id: true, name: true, type: true } });
      return toAlertRule({ id: newId(), scheduleId, events: input.events.join(','), failureTolerance: input.failure_tolerance ?? 1, silenceSeconds: input.silence_seconds ?? null, realertIntervalSeconds: input.realert_interval_seconds ?? null, enabled: input.enabled ?? true, createdAt: now, updatedAt: now, channels: names.map((channel) => ({ channel })) });
    }
    const row = await tx.alertRule.create({
      data: {
        id: newId(),
        revisionId: revision.id,
        scheduleId,
        events: input.events.join(','),
        failureTolerance: input.failure_tolerance ?? 1,
        silenceSeconds: input.silence_seconds ?? null,
        realertIntervalSeconds: input.realert_interval_seconds ?? null,
        enabled: input.enabled ?? true,
        createdAt: now,
        updatedAt: now,
        channels: { create: channels.map((channelId) => ({ channelId })) },
      },
      include: RULE_INCLUDE,
    });
    return toAlertRule(row);
  });
}

async function requireRule(tx: Tx, revisionId: string, ref: string) {
  const id = normalizeRef(ref);
  const row = isIdShape(id) ? await tx.alertRule.findFirst({ where: { id, revisionId }, include: RULE_INCLUDE }) : null;
  if (!row) throw new DomainError('not_found', 'alert rule not found');
  return row;
}

/**
 * Change the fields sent. A rule with `silence` keeps needing `silence_seconds`.
 * @throws `409 duplicate_alert_rule` when the change makes it identical to another rule (decision 345).
 */
export async function updateAlertRule(opts: RuleScope & { input: UpdateAlertRuleParams; now: Date }): Promise<AlertRule> {
  const { input, revision, now } = opts;
  return inTransaction(opts.db, async (tx) => {
    await requireSchedulerRole(tx, opts.actor, revision.blobId, 'write');
    const row = await requireRule(tx, revision.id, input.rule_id);
    // Lock order (decision 440): the rule before its channels' rows, as its delete takes them (the
    // delete's cascade to the channels against this change's foreign-key check on the rule).
    if (!(await lockAlertRule(tx, row.id, 'change'))) throw new DomainError('not_found', 'alert rule not found');
    const events = input.events ?? (row.events.split(',') as AlertEvent[]);
    const silence = input.silence_seconds !== undefined ? input.silence_seconds : row.silenceSeconds;
    if (events.includes('silence') && silence === null) throw new DomainError('invalid_request_body', 'the silence event needs silence_seconds', { path: 'silence_seconds' });
    const scheduleId = input.schedule_id === undefined ? undefined : input.schedule_id === null ? null : (await getScheduleRow(tx, revision.id, input.schedule_id)).id;
    const channels = input.channels ? await requireChannels(tx, revision.blobId, input.channels) : row.channels.map((c) => c.channel.id);
    await refuseDuplicateRule(
      tx,
      revision.id,
      {
        scheduleId: scheduleId === undefined ? row.scheduleId : scheduleId,
        events,
        channelIds: channels,
        failureTolerance: input.failure_tolerance ?? row.failureTolerance,
        silenceSeconds: silence,
        realertIntervalSeconds: input.realert_interval_seconds !== undefined ? input.realert_interval_seconds : row.realertIntervalSeconds,
        enabled: input.enabled ?? row.enabled,
      },
      row.id,
    );
    if (input.channels) {
      await tx.alertRuleChannel.deleteMany({ where: { ruleId: row.id } });
      await tx.alertRuleChannel.createMany({ data: channels.map((channelId) => ({ ruleId: row.id, channelId })) });
    }
    const updated = await tx.alertRule.update({
      where: { id: row.id },
      data: {
        ...(scheduleId !== undefined ? { scheduleId } : {}),
        ...(input.events ? { events: input.events.join(',') } : {}),
        ...(input.failure_tolerance !== undefined ? { failureTolerance: input.failure_tolerance } : {}),
        ...(input.silence_seconds !== undefined ? { silenceSeconds: input.silence_seconds } : {}),
        ...(input.realert_interval_seconds !== undefined ? { realertIntervalSeconds: input.realert_interval_seconds } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        updatedAt: now,
      },
      include: RULE_INCLUDE,
    });
    return toAlertRule(updated);
  });
}

/** Delete a rule; its open incidents end with it, its log entries stay. */
export async function deleteAlertRule(opts: RuleScope & { ruleRef: string }): Promise<void> {
  await inTransaction(opts.db, async (tx) => {
    await requireSchedulerRole(tx, opts.actor, opts.revision.blobId, 'write');
    const row = await requireRule(tx, opts.revision.id, opts.ruleRef);
    // Lock order (decision 440): the rule before its incidents, as the fire path's raise takes them;
    // a delete that ended first leaves nothing to delete.
    if (!(await lockAlertRule(tx, row.id, 'delete'))) throw new DomainError('not_found', 'alert rule not found');
    await endIncidents(tx, ['ruleIds', [row.id]], new Date());
    await tx.alertRule.delete({ where: { id: row.id } });
  });
}

/**
 * The alerting of deleted schedules `scheduleIds` ends with them (decision 344), in the caller's
 * transaction (the delete's): their open incidents (of any rule) end at `now`, and the rules on them
 * are deleted. Their alert log stays (decision 287).
 */
export async function endAlertingOfSchedules(tx: Tx, scheduleIds: string[], now: Date): Promise<void> {
  if (scheduleIds.length === 0) return;
  // Lock order (decision 440): the rules on these schedules before any incident, as a rule's delete.
  await lockAlertRulesOfSchedules(tx, scheduleIds);
  await endIncidents(tx, ['scheduleIds', scheduleIds], now);
  await tx.alertRule.deleteMany({ where: { scheduleId: { in: scheduleIds } } });
}

/**
 * The minute check's catch-all (decision 344): rules on schedules that no longer exist — deleted by
 * `action_after_completion: "delete"` in the fire path, which knows no rule — go as `delete_schedule`
 * makes them go. Answers how many schedules it ended the alerting of.
 */
export async function endAlertingOfDeletedSchedules(db: Db, now: Date): Promise<number> {
  const on = [...new Set((await db.alertRule.findMany({ where: { scheduleId: { not: null } }, select: { scheduleId: true } })).map((r) => r.scheduleId!))];
  if (on.length === 0) return 0;
  const alive = new Set((await db.schedule.findMany({ where: { id: { in: on } }, select: { id: true } })).map((s) => s.id));
  const gone = on.filter((id) => !alive.has(id));
  if (gone.length > 0) await inTransaction(db, (tx) => endAlertingOfSchedules(tx, gone, now));
  return gone.length;
}

/** Page size of `list_alerts`. */
export const ALERTS_PAGE_SIZE = 20;

type AlertRow = {
  id: string;
  scheduleId: string;
  incidentId: string;
  ruleId: string;
  channelId: string;
  event: string;
  round: number;
  facts: unknown;
  status: string;
  sends: number;
  dueAt: Date | null;
  answer: unknown;
  createdAt: Date;
  sentAt: Date | null;
};

export function toAlertEntry(r: AlertRow, channel: { id: string; name: string; type: string } | undefined): AlertEntry {
  const f = r.facts as AlertFacts;
  const answer = r.answer as { status?: number; message?: string } | null;
  const event = r.event as AlertEvent;
  return {
    id: r.id,
    schedule_id: r.scheduleId,
    schedule_name: f.schedule?.name ?? r.scheduleId,
    incident_id: r.incidentId,
    rule_id: r.ruleId,
    channel: channel ? { id: channel.id, name: channel.name, type: channel.type as AlertChannelType } : null,
    event,
    round: r.round,
    ...(f.scheduled_for ? { scheduled_for: f.scheduled_for } : {}),
    summary: alertTitle(event, f) + (r.round > 0 ? ` (reminder ${r.round})` : ''),
    status: r.status as AlertEntry['status'],
    sends: r.sends,
    ...(r.status === 'pending' && r.dueAt ? { next_send_at: r.dueAt.toISOString() } : {}),
    ...(answer && typeof answer.message === 'string' ? { answer: { ...(typeof answer.status === 'number' ? { status: answer.status } : {}), message: answer.message } } : {}),
    created_at: r.createdAt.toISOString(),
    ...(r.sentAt ? { sent_at: r.sentAt.toISOString() } : {}),
  };
}

/** `list_alerts` (SPEC §17): every notification of the scheduler, 20 a page, newest first, with its channel's answer. */
export async function listAlerts(opts: RuleScope & { startAlertId?: string | null }): Promise<{ alerts: AlertEntry[]; last_alert_id: string | null }> {
  const { db, revision } = opts;
  await requireSchedulerRole(db, opts.actor, revision.blobId, 'read');
  let cursor: { createdAt: Date; id: string } | null = null;
  if (opts.startAlertId) {
    const id = normalizeRef(opts.startAlertId);
    cursor = isIdShape(id) ? await db.alert.findFirst({ where: { id, revisionId: revision.id }, select: { createdAt: true, id: true } }) : null;
    if (!cursor) throw new DomainError('invalid_request_body', 'start_alert_id is not an alert of this scheduler', { path: 'start_alert_id' });
  }
  const rows = await db.alert.findMany({
    where: { revisionId: revision.id, ...(cursor ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: ALERTS_PAGE_SIZE + 1,
  });
  const page = rows.slice(0, ALERTS_PAGE_SIZE);
  const channels = new Map((await db.alertChannel.findMany({ where: { id: { in: [...new Set(page.map((r) => r.channelId))] } }, select: { id: true, name: true, type: true } })).map((c) => [c.id, c]));
  return { alerts: page.map((r) => toAlertEntry(r, channels.get(r.channelId))), last_alert_id: rows.length > ALERTS_PAGE_SIZE ? page[page.length - 1].id : null };
}

/** The failing channels (last send failed) the scheduler's rules name (SPEC §17: flagged on its page). */
export async function failingAlertChannels(db: Db, revisionId: string): Promise<{ id: string; name: string; message: string }[]> {
  const rows = await db.alertChannel.findMany({ where: { lastStatus: 'failing', rules: { some: { rule: { revisionId } } } }, select: { id: true, name: true, lastAnswer: true } });
  return rows.map((r) => ({ id: r.id, name: r.name, message: String((r.lastAnswer as { message?: string } | null)?.message ?? '') }));
}

/** Whether any channel's last send failed (GET /api/health `"alerts": "failing"`). */
export async function anyAlertChannelFailing(db: Db): Promise<boolean> {
  return (await db.alertChannel.findFirst({ where: { lastStatus: 'failing' }, select: { id: true } })) !== null;
}

/** The channels a rule of this scheduler may name (its org's), for the rule form: names and types only. Needs `read`. */
export async function alertChannelChoices(opts: RuleScope): Promise<{ id: string; name: string; type: AlertChannelType; failing: boolean }[]> {
  const { db, revision } = opts;
  await requireSchedulerRole(db, opts.actor, revision.blobId, 'read');
  const blob = await db.blob.findUniqueOrThrow({ where: { id: revision.blobId }, select: { orgId: true } });
  const rows = await db.alertChannel.findMany({ where: { orgId: blob.orgId }, select: { id: true, name: true, type: true, lastStatus: true }, orderBy: { name: 'asc' } });
  return rows.map((r) => ({ id: r.id, name: r.name, type: r.type as AlertChannelType, failing: r.lastStatus === 'failing' }));
}
