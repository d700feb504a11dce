/**
 * Raising alerts (SPEC §17), always in the transaction of the fact they report — the fire path's
 * (an occurrence ended, a dead letter, a skipped occurrence, an automatic pause: `EngineDeps.raise`)
 * or the worker's silence and re-alert checks (silence.ts) — so an alert commits with its fact or not
 * at all: exactly one row per (incident, event, channel, round), which the worker then sends.
 *
 * Incidents are per rule and schedule: the first alerted event opens one, the schedule's next
 * successful occurrence resolves it (with `recovered` when the rule asks for it and the incident
 * alerted `failure` or `silence`). Within an incident each event alerts once per channel; re-alert
 * rounds (checks.ts) add the rest. Rules that overlap (several covering one schedule and naming one
 * channel) send that channel one alert per fact and event, carried by the oldest rule's incident
 * (decision 345). Callers hold the schedules' rows locked (the fire path's claim,
 * `lockFiringSchedules`), so two transactions never raise for one schedule at once.
 */
import type { ScheduleFact } from '../../engine';
import { anyEnabledAlertRule, lockFiringSchedules, lockAlertRulesShared, type FiringSchedule, type Tx } from '../../db';
import { newId } from '../../ids';
import type { AlertEvent } from './contract';
import type { AlertFacts } from './message';

/** A fact of the worker's own checks: a schedule silent for a rule's `silence_seconds`. */
export type SilenceFact = { kind: 'silence'; schedule: FiringSchedule; scheduledFor: null; ruleId: string; silenceSeconds: number; lastSuccessAt: Date | null };
export type AlertFact = ScheduleFact | SilenceFact;

/** `alert_incidents.rounds`: per alerted event, its last round and when it was raised (ISO UTC). */
export type IncidentRounds = Partial<Record<AlertEvent, { round: number; at: string }>>;

type RuleRow = { id: string; revisionId: string; scheduleId: string | null; events: string; failureTolerance: number; silenceSeconds: number | null; channels: { channelId: string }[] };
type Incident = { id: string; rounds: IncidentRounds; resolved: boolean };

/** An alert row to insert (`alerts`). */
export interface AlertInsert {
  id: string;
  revisionId: string;
  scheduleId: string;
  incidentId: string;
  ruleId: string;
  channelId: string;
  event: AlertEvent;
  round: number;
  facts: AlertFacts;
  status: 'pending';
  dueAt: Date;
  createdAt: Date;
}

const openKeyOf = (ruleId: string, scheduleId: string) => `${ruleId}:${scheduleId}`;
export const eventsOf = (r: { events: string }) => r.events.split(',').filter(Boolean) as AlertEvent[];

/** The schedulers' names (alias, else the blob's name) by managed revision id. */
async function schedulerNames(tx: Tx, revisionIds: string[]): Promise<Map<string, { id: string; name: string }>> {
  const rows = await tx.revision.findMany({ where: { id: { in: revisionIds } }, select: { id: true, blob: { select: { id: true, alias: true, name: true } } } });
  return new Map(rows.map((r) => [r.id, { id: r.blob.id, name: r.blob.alias ?? r.blob.name }]));
}

/** The facts a message names (SPEC §17), from a fact and its schedule. */
export function factsOf(f: AlertFact, scheduler: { id: string; name: string } | undefined, rule: RuleRow): AlertFacts {
  const s = f.schedule;
  const base: AlertFacts = {
    schedule: { id: s.id, name: s.alias ?? s.name ?? s.id, ...(s.alias ? { alias: s.alias } : {}), ...(s.description ? { description: s.description } : {}), timezone: s.timezone },
    scheduler: { id: scheduler?.id ?? s.revisionId, name: scheduler?.name ?? s.revisionId, revision_id: s.revisionId },
    ...(f.scheduledFor ? { scheduled_for: f.scheduledFor.toISOString() } : {}),
  };
  const errorOf = (result: Record<string, unknown> | null) => ({
    ...(typeof result?.error === 'string' ? { error: result.error } : {}),
    ...(typeof result?.message === 'string' ? { message: result.message.slice(0, 500) } : {}),
  });
  switch (f.kind) {
    case 'ended':
      return { ...base, ...(f.status ? { status: f.status } : {}), ...errorOf(f.result), ...(f.outcome ? { outcome: f.outcome } : {}), attempts: f.attempt, consecutive_failures: f.consecutiveFailures, failure_tolerance: rule.failureTolerance };
    case 'dead_letter':
      return { ...base, status: f.status, ...errorOf(f.result), attempts: f.attempt, consecutive_failures: f.consecutiveFailures, note: `exhausted: ${f.exhausted}` };
    case 'missed':
      return { ...base, skipped: f.skipped, reason: f.reason };
    case 'paused':
      return { ...base, consecutive_failures: f.consecutiveFailures, ...(f.note ? { note: f.note } : {}) };
    case 'silence':
      return { ...base, silence_seconds: f.silenceSeconds, ...(f.lastSuccessAt ? { last_success_at: f.lastSuccessAt.toISOString() } : {}), consecutive_failures: s.consecutiveFailures };
  }
}

/**
 * SPEC §17 `missed` for an occurrence a save found already beyond the catch-up window (an EventBridge
 * `at()` in the past, SPEC §14: the schedule is saved completed with it skipped), in the save's
 * transaction at `now`, as the fire path raises the skips it records.
 */
export async function raiseMissedAtSave(tx: Tx, scheduleId: string, scheduledFor: Date, now: Date): Promise<void> {
  const schedule = (await lockFiringSchedules(tx, [scheduleId])).get(scheduleId);
  if (schedule) await raiseAlerts(tx, [{ kind: 'missed', schedule, scheduledFor, skipped: 1, reason: 'catch_up_window' }], now);
}

/**
 * Raise the alerts `facts` call for, in `tx` at instant `now` (facts in the order they happened);
 * returns how many alert rows it inserted.
 * One indexed probe for an enabled rule of these schedulers (none: nothing else is read or written),
 * then one read of the matching enabled rules (none: nothing else either), then the plan
 * (`planAlerts`) and, when it writes anything, its rules held shared and its writes (decision 440).
 */
export async function raiseAlerts(tx: Tx, facts: AlertFact[], now: Date): Promise<number> {
  if (facts.length === 0) return 0;
  const scheduleIds = [...new Set(facts.map((f) => f.schedule.id))];
  const revisionIds = [...new Set(facts.map((f) => f.schedule.revisionId))];
  // The common case, no rule in these schedulers: one indexed probe on the driver connection, not the rules' read.
  if (!(await anyEnabledAlertRule(tx, revisionIds))) return 0;
  const read: RuleRow[] = await tx.alertRule.findMany({
    where: { enabled: true, revisionId: { in: revisionIds }, OR: [{ scheduleId: null }, { scheduleId: { in: scheduleIds } }] },
    select: { id: true, revisionId: true, scheduleId: true, events: true, failureTolerance: true, silenceSeconds: true, channels: { select: { channelId: true } } },
    // Oldest rule first: when several rules name one channel, the oldest rule's incident carries the alert.
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  if (read.length === 0) return 0;
  const schedulers = await schedulerNames(tx, revisionIds);
  // SPEC §17 silence: the last success of each schedule a silence rule watches.
  const watched = new Set(facts.filter((f) => f.kind === 'ended' && f.ok && rulesIn(read, f.schedule).some((r) => eventsOf(r).includes('silence'))).map((f) => f.schedule.id));
  for (const scheduleId of watched) {
    await tx.alertScheduleState.upsert({ where: { scheduleId }, create: { scheduleId, lastSuccessAt: now }, update: { lastSuccessAt: now } });
  }
  // Lock order (decision 440): a rule before its incidents. The writes are planned on what was read,
  // then only the rules they name are held shared (in id order) before the first write. A rule a
  // delete removed meanwhile is gone from the lock's answer: plan again without it (its incidents were
  // ended by that delete), so no incident or alert is written for a rule that no longer exists.
  let rules = read;
  for (;;) {
    const planned = await planAlerts(tx, facts, rules, schedulers, now);
    const named = [...new Set([...planned.created.map((c) => c.rule.id), ...planned.changed.values(), ...planned.alerts.map((a) => a.ruleId)])];
    if (named.length === 0) return 0;
    const kept = await lockAlertRulesShared(tx, named);
    if (kept.size === named.length) return writeAlerts(tx, planned, now);
    rules = rules.filter((r) => kept.has(r.id) || !named.includes(r.id));
  }
}

/** The incidents and alerts a raise writes, planned on the rules and open incidents it read. */
interface PlannedAlerts {
  created: { key: string; rule: RuleRow; schedule: FiringSchedule; incident: Incident }[];
  /** Incidents read open and changed (their rounds, or resolved), each with its rule's id. */
  changed: Map<Incident, string>;
  alerts: AlertInsert[];
}

/** The rules of `rules` that apply to schedule `s`: its scheduler's, on the whole scheduler or on `s`. */
const rulesIn = (rules: RuleRow[], s: FiringSchedule) => rules.filter((r) => r.revisionId === s.revisionId && (r.scheduleId === null || r.scheduleId === s.id));

/**
 * Plan `raiseAlerts`' writes (reads only): per fact and rule (oldest first), open or resolve the
 * incident, and one pending alert per channel for each event the incident has not alerted yet (a
 * channel an older rule already alerted for this fact and event is skipped, decision 345).
 */
async function planAlerts(tx: Tx, facts: AlertFact[], rules: RuleRow[], schedulers: Map<string, { id: string; name: string }>, now: Date): Promise<PlannedAlerts> {
  const rulesOf = (s: FiringSchedule) => rulesIn(rules, s);
  const keys = [...new Set(facts.flatMap((f) => rulesOf(f.schedule).map((r) => openKeyOf(r.id, f.schedule.id))))];
  const open = new Map<string, Incident>();
  for (const row of keys.length ? await tx.alertIncident.findMany({ where: { openKey: { in: keys } }, select: { id: true, openKey: true, rounds: true } }) : []) {
    open.set(row.openKey!, { id: row.id, rounds: (row.rounds ?? {}) as IncidentRounds, resolved: false });
  }
  const created: PlannedAlerts['created'] = [];
  const changed = new Map<Incident, string>();
  const alerts: AlertInsert[] = [];
  const incidentFor = (rule: RuleRow, s: FiringSchedule): Incident => {
    const key = openKeyOf(rule.id, s.id);
    let inc = open.get(key);
    if (!inc) {
      inc = { id: newId(), rounds: {}, resolved: false };
      open.set(key, inc);
      created.push({ key, rule, schedule: s, incident: inc });
    }
    return inc;
  };
  // SPEC §17 "once per incident and channel" (decision 345): per fact, the `event:channel` pairs already
  // alerted in this call. A later rule naming the same channel records the event on its own incident
  // (its recovery and re-alert rounds follow it) but raises no second alert for that channel.
  let alertedForFact = new Set<string>();
  const alert = (inc: Incident, rule: RuleRow, f: AlertFact, event: AlertEvent) => {
    inc.rounds[event] = { round: 0, at: now.toISOString() };
    changed.set(inc, rule.id);
    const facts = factsOf(f, schedulers.get(f.schedule.revisionId), rule);
    for (const { channelId } of rule.channels) {
      if (alertedForFact.has(`${event}:${channelId}`)) continue;
      alertedForFact.add(`${event}:${channelId}`);
      alerts.push({ id: newId(), revisionId: f.schedule.revisionId, scheduleId: f.schedule.id, incidentId: inc.id, ruleId: rule.id, channelId, event, round: 0, facts, status: 'pending', dueAt: now, createdAt: now });
    }
  };

  for (const f of facts) {
    alertedForFact = new Set();
    for (const rule of rulesOf(f.schedule)) {
      if (f.kind === 'silence' && f.ruleId !== rule.id) continue;
      const events = eventsOf(rule);
      const key = openKeyOf(rule.id, f.schedule.id);
      if (f.kind === 'ended' && f.ok) {
        // The first success resolves the incident; `recovered` follows an alerted failure or silence.
        const inc = open.get(key);
        if (!inc) continue;
        if (events.includes('recovered') && (inc.rounds.failure || inc.rounds.silence)) alert(inc, rule, f, 'recovered');
        inc.resolved = true;
        changed.set(inc, rule.id);
        open.delete(key);
        continue;
      }
      const event: AlertEvent = f.kind === 'ended' ? 'failure' : f.kind;
      if (!events.includes(event)) continue;
      // `failure`: the failure_tolerance-th consecutive failed occurrence (or later, once per incident).
      if (f.kind === 'ended' && f.consecutiveFailures < rule.failureTolerance) continue;
      const inc = incidentFor(rule, f.schedule);
      if (inc.rounds[event]) continue; // each event alerts once per incident and channel (re-alerts are rounds)
      alert(inc, rule, f, event);
    }
  }

  return { created, changed, alerts };
}

/** Write a plan whose rules are held (`raiseAlerts`); answers how many alert rows it inserted. */
async function writeAlerts(tx: Tx, { created, changed, alerts }: PlannedAlerts, now: Date): Promise<number> {
  const fresh = new Set(created.map((c) => c.incident));
  for (const c of created) {
    if (c.incident.resolved && Object.keys(c.incident.rounds).length === 0) continue;
    await tx.alertIncident.create({
      data: { id: c.incident.id, ruleId: c.rule.id, scheduleId: c.schedule.id, revisionId: c.schedule.revisionId, openKey: c.incident.resolved ? null : c.key, rounds: c.incident.rounds as object, openedAt: now, resolvedAt: c.incident.resolved ? now : null },
    });
  }
  for (const inc of changed.keys()) {
    if (fresh.has(inc)) continue;
    await tx.alertIncident.update({ where: { id: inc.id }, data: { rounds: inc.rounds as object, ...(inc.resolved ? { openKey: null, resolvedAt: now } : {}) } });
  }
  // Exactly once: UNIQUE (incident, event, channel, round) refuses a second row for one notification.
  if (alerts.length > 0) await tx.alert.createMany({ data: alerts.map((a) => ({ ...a, facts: a.facts as object })) });
  return alerts.length;
}
