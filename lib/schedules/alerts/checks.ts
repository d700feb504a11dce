/**
 * The worker's minute checks of alerts (SPEC §17), whether or not anything fires:
 * - `silence`: an enabled, active schedule in a silence rule's scope with no successful occurrence
 *   for the rule's `silence_seconds`. Its clock starts at the latest of its last success, its own
 *   creation or last change (an enable included), and the rule's creation or last change, so a
 *   schedule just enabled or a rule just made does not alert at once. A disabled schedule never does.
 * - re-alerts: each open incident of a rule with `realert_interval_seconds` alerts every event it
 *   alerted (but `recovered`) again, one round per interval, while it lasts; a channel several of a
 *   schedule's incidents name gets one alert per event and round (decision 345).
 * Each raise locks its schedules first (`lockFiringSchedules`), re-reads what it decides on, and
 * commits its alerts with its incident change: exactly once, whichever worker runs the check.
 */
import { endIncidents, inTransaction, lockFiringSchedules, lockAlertRulesShared, type Db } from '../../db';
import { newId } from '../../ids';
import type { AlertEvent } from './contract';
import { eventsOf, raiseAlerts, type AlertInsert, type IncidentRounds, type SilenceFact } from './raise';
import type { AlertFacts } from './message';

/** Raise `silence` for the schedules silent at `now`. Returns how many schedules it alerted for. */
export async function checkSilence(db: Db, now: Date): Promise<number> {
  const rules = (await db.alertRule.findMany({ where: { enabled: true, events: { contains: 'silence' } }, select: { id: true, revisionId: true, scheduleId: true, events: true, silenceSeconds: true, updatedAt: true } })).filter(
    (r) => eventsOf(r).includes('silence') && r.silenceSeconds !== null,
  );
  let raised = 0;
  for (const rule of rules) {
    const seconds = rule.silenceSeconds!;
    const schedules = await db.schedule.findMany({
      where: { revisionId: rule.revisionId, ...(rule.scheduleId ? { id: rule.scheduleId } : {}), enabled: true, state: 'active' },
      select: { id: true, createdAt: true, updatedAt: true },
    });
    if (schedules.length === 0) continue;
    const ids = schedules.map((s) => s.id);
    const states = new Map((await db.alertScheduleState.findMany({ where: { scheduleId: { in: ids } } })).map((s) => [s.scheduleId, s.lastSuccessAt]));
    const alerted = new Set(
      (await db.alertIncident.findMany({ where: { openKey: { in: ids.map((id) => `${rule.id}:${id}`) } }, select: { scheduleId: true, rounds: true } }))
        .filter((i) => (i.rounds as IncidentRounds).silence)
        .map((i) => i.scheduleId),
    );
    const since = (s: (typeof schedules)[number]) => Math.max(states.get(s.id)?.getTime() ?? 0, s.createdAt.getTime(), s.updatedAt.getTime(), rule.updatedAt.getTime());
    const silent = schedules.filter((s) => !alerted.has(s.id) && since(s) + seconds * 1000 <= now.getTime());
    if (silent.length === 0) continue;
    raised += await inTransaction(db, async (tx) => {
      const locked = await lockFiringSchedules(tx, silent.map((s) => s.id));
      // Re-read under the lock: still enabled, still silent, still not alerted.
      const rows = await tx.schedule.findMany({ where: { id: { in: [...locked.keys()] }, enabled: true, state: 'active' }, select: { id: true, createdAt: true, updatedAt: true } });
      const lastSuccess = new Map((await tx.alertScheduleState.findMany({ where: { scheduleId: { in: rows.map((r) => r.id) } } })).map((s) => [s.scheduleId, s.lastSuccessAt]));
      const still = rows.filter((s) => Math.max(lastSuccess.get(s.id)?.getTime() ?? 0, s.createdAt.getTime(), s.updatedAt.getTime(), rule.updatedAt.getTime()) + seconds * 1000 <= now.getTime());
      const facts: SilenceFact[] = still.map((s) => ({ kind: 'silence', schedule: locked.get(s.id)!, scheduledFor: null, ruleId: rule.id, silenceSeconds: seconds, lastSuccessAt: lastSuccess.get(s.id) ?? null }));
      return (await raiseAlerts(tx, facts, now)) > 0 ? still.length : 0;
    });
  }
  return raised;
}

/**
 * Re-alert the open incidents whose interval passed at `now`. Returns how many alerts it raised.
 * One transaction per schedule, its incidents in their rules' order (oldest first, as `raiseAlerts`):
 * a channel several of them name gets one alert per event at `now` (decision 345); the other
 * incidents still count the round, so they do not send it a minute later.
 */
export async function realertIncidents(db: Db, now: Date): Promise<number> {
  const rules = await db.alertRule.findMany({
    where: { enabled: true, realertIntervalSeconds: { not: null } },
    select: { id: true, realertIntervalSeconds: true, channels: { select: { channelId: true } } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  if (rules.length === 0) return 0;
  const byId = new Map(rules.map((r) => [r.id, r]));
  const order = new Map(rules.map((r, i) => [r.id, i]));
  const incidents = await db.alertIncident.findMany({ where: { openKey: { not: null }, ruleId: { in: [...byId.keys()] } }, select: { id: true, scheduleId: true, ruleId: true } });
  const bySchedule = new Map<string, { ids: string[]; ruleIds: Set<string> }>();
  for (const { id, scheduleId, ruleId } of incidents) {
    const of = bySchedule.get(scheduleId) ?? { ids: [], ruleIds: new Set<string>() };
    of.ids.push(id);
    of.ruleIds.add(ruleId);
    bySchedule.set(scheduleId, of);
  }
  let raised = 0;
  for (const [scheduleId, { ids, ruleIds }] of bySchedule) {
    raised += await inTransaction(db, async (tx) => {
      const locked = await lockFiringSchedules(tx, [scheduleId]);
      const schedule = locked.get(scheduleId);
      // Lock order (decision 440): the schedule, then its incidents' rules (shared), then the incidents,
      // read again after the rules: a rule's delete that went first has ended its incidents by then.
      // Only under the schedule's lock: without it (a deleted schedule) the rules would be the first
      // locks this transaction takes, against a scheduler's delete that takes them after its schedules.
      if (schedule) await lockAlertRulesShared(tx, [...ruleIds]);
      const open = (await tx.alertIncident.findMany({ where: { id: { in: ids }, openKey: { not: null } } })).sort((a, b) => order.get(a.ruleId)! - order.get(b.ruleId)!);
      if (open.length === 0) return 0;
      // A deleted schedule's incident ends with it; a disabled one's silence does not re-alert (it is not silent: it is off).
      // With no schedule to lock first, the incidents are locked in id order (endIncidents), as a scheduler's delete locks them.
      if (!schedule) {
        await endIncidents(tx, ['ids', open.map((i) => i.id)], now);
        return 0;
      }
      // Decision 345: the `event:channel` pairs alerted for this schedule at `now`, across its incidents.
      const alerted = new Set<string>();
      const alerts: AlertInsert[] = [];
      for (const inc of open) {
        const rule = byId.get(inc.ruleId)!;
        const rounds = { ...(inc.rounds as IncidentRounds) };
        const interval = rule.realertIntervalSeconds! * 1000;
        let due = false;
        for (const event of Object.keys(rounds) as AlertEvent[]) {
          const r = rounds[event]!;
          if (event === 'recovered' || new Date(r.at).getTime() + interval > now.getTime()) continue;
          if (event === 'silence' && !schedule.enabled) continue;
          due = true;
          rounds[event] = { round: r.round + 1, at: now.toISOString() };
          const channels = rule.channels.map((c) => c.channelId).filter((c) => !alerted.has(`${event}:${c}`));
          if (channels.length === 0) continue;
          // The first alert's facts as they were (its occurrence, error and count then), and the count now
          // beside them, named as such: a reminder never mixes one occurrence's facts with another's count.
          // An incident whose first alert an older rule's incident carried (decision 345) takes that one's.
          const last =
            (await tx.alert.findFirst({ where: { incidentId: inc.id, event }, orderBy: { round: 'desc' }, select: { facts: true } })) ??
            (await tx.alert.findFirst({ where: { incidentId: { in: open.map((i) => i.id) }, event }, orderBy: [{ createdAt: 'desc' }, { round: 'desc' }], select: { facts: true } }));
          const facts: AlertFacts = { ...((last?.facts ?? {}) as unknown as AlertFacts), consecutive_failures_now: schedule.consecutiveFailures };
          for (const channelId of channels) {
            alerted.add(`${event}:${channelId}`);
            alerts.push({ id: newId(), revisionId: inc.revisionId, scheduleId, incidentId: inc.id, ruleId: rule.id, channelId, event, round: r.round + 1, facts, status: 'pending', dueAt: now, createdAt: now });
          }
        }
        if (due) await tx.alertIncident.update({ where: { id: inc.id }, data: { rounds: rounds as object } });
      }
      // Exactly once: UNIQUE (incident, event, channel, round).
      if (alerts.length > 0) await tx.alert.createMany({ data: alerts.map((a) => ({ ...a, facts: a.facts as object })) });
      return alerts.length;
    });
  }
  return raised;
}

/** Most rows one `sweepAlerts` call deletes of each table. */
const SWEEP_BATCH = 500;

/**
 * The alert log is swept with the runs (SPEC §9 `run_retention_days`, as the activity log, SPEC §15):
 * at most 500 sent or failed alerts raised before `cutoff`, oldest first (through `alerts(created_at)`),
 * and at most 500 incidents resolved before it. A pending alert is never swept (it is at most 24 h
 * old). Returns how many rows went.
 */
export async function sweepAlerts(db: Db, cutoff: Date): Promise<number> {
  const old = await db.alert.findMany({ where: { createdAt: { lt: cutoff }, status: { not: 'pending' } }, orderBy: { createdAt: 'asc' }, take: SWEEP_BATCH, select: { id: true } });
  const alerts = old.length ? (await db.alert.deleteMany({ where: { id: { in: old.map((a) => a.id) }, status: { not: 'pending' } } })).count : 0;
  const ended = await db.alertIncident.findMany({ where: { openKey: null, resolvedAt: { lt: cutoff } }, take: SWEEP_BATCH, select: { id: true } });
  const incidents = ended.length ? (await db.alertIncident.deleteMany({ where: { id: { in: ended.map((i) => i.id) }, openKey: null } })).count : 0;
  return alerts + incidents;
}
