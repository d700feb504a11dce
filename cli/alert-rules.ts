/**
 * A scheduler's alert rules in the manifest (SPEC §17, docs/cli.md): the optional top-level `alerts:`
 * list, each rule in the API's fields with its schedule by alias and its channels by name. `deploy`
 * creates the listed rules the scheduler does not have (each first as a dry run); a deployed rule the
 * manifest does not list is drift, reported and left alone, as schedules are. `pull` writes them.
 */
import { alertRuleKey, type AlertRule, type ManifestAlertRule, type Schedule } from '../lib/schedules/contract';
import type { ApiClient } from './client';

/**
 * The manifest form of a deployed rule (schedule alias, channel names); null when the manifest cannot
 * express it: its schedule has no alias, or it names no channel (only a rule from before channels in
 * use were kept from deletion, decision 340). Such a rule is drift: `pull` leaves it out and says so.
 */
export function manifestRuleOf(r: AlertRule, schedules: readonly Schedule[]): ManifestAlertRule | null {
  if (r.channels.length === 0) return null;
  let schedule: string | undefined;
  if (r.schedule_id) {
    const s = schedules.find((x) => x.id === r.schedule_id);
    if (!s?.alias) return null;
    schedule = s.alias;
  }
  return {
    ...(schedule ? { schedule } : {}),
    events: r.events,
    channels: r.channels.map((c) => c.name),
    ...(r.failure_tolerance !== 1 ? { failure_tolerance: r.failure_tolerance } : {}),
    ...(r.silence_seconds !== undefined ? { silence_seconds: r.silence_seconds } : {}),
    ...(r.realert_interval_seconds !== undefined ? { realert_interval_seconds: r.realert_interval_seconds } : {}),
    ...(r.enabled ? {} : { enabled: false }),
  };
}

/** What deploy would do with the manifest's rules: the ones to create (by manifest index), how many match, the drift. */
export interface AlertPlan {
  create: { index: number; rule: ManifestAlertRule }[];
  unchanged: number;
  drift: AlertRule[];
}

/** Compare the manifest's `rules` with the deployed ones (`deployed`, over `schedules`). Pure. */
export function planAlerts(rules: readonly ManifestAlertRule[], deployed: readonly AlertRule[], schedules: readonly Schedule[]): AlertPlan {
  const have = new Map<string, AlertRule[]>();
  for (const r of deployed) {
    const m = manifestRuleOf(r, schedules);
    const key = m ? alertRuleKey(m) : `unkeyed:${r.id}`;
    have.set(key, [...(have.get(key) ?? []), r]);
  }
  const create: AlertPlan['create'] = [];
  let unchanged = 0;
  rules.forEach((rule, index) => {
    const same = have.get(alertRuleKey(rule));
    if (same?.length) {
      same.shift();
      unchanged++;
    } else create.push({ index, rule });
  });
  return { create, unchanged, drift: [...have.values()].flat() };
}

/** The API parameters of a manifest rule (`create_alert_rule`; the server resolves the alias and the names). */
export function ruleParams(rule: ManifestAlertRule): Record<string, unknown> {
  const { schedule, ...rest } = rule;
  return { ...rest, ...(schedule ? { schedule_id: schedule } : {}) };
}

/** The scheduler's deployed rules. */
export async function listRules(client: ApiClient, revisionId: string): Promise<AlertRule[]> {
  return (await client.command<{ rules: AlertRule[] }>(revisionId, 'scheduler_blobhub', 'list_alert_rules', {})).rules;
}

/** One line per rule, as diff and deploy print them. */
export function showRule(rule: ManifestAlertRule): string {
  return `alert rule on ${rule.schedule ?? 'all schedules'}: ${rule.events.join(', ')} → ${rule.channels.join(', ')}`;
}

/** The drift line of a deployed rule the manifest does not list (`diff`, `pull`). */
export function showRuleDrift(r: AlertRule): string {
  if (r.channels.length === 0) return `! drift: alert rule ${r.id} (${r.events.join(', ')}) names no channel, so it alerts no one: give it a channel or delete it on the scheduler's Alerts page`;
  return `! drift: alert rule ${r.id} (${r.events.join(', ')} → ${r.channels.map((c) => c.name).join(', ')}) is not in the manifest`;
}
