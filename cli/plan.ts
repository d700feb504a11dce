/**
 * Everything `deploy` and `diff` need before a write: the deployed schedules, the field-by-field plan,
 * and every reason a write would be refused. The CLI does not re-check the server's rules: each write
 * the plan holds is first sent as a dry run (`dry_run: true`, which validates everything the real save
 * does, with this API key's standing, and writes nothing), and the server's answer decides. Reads only.
 */
import { catalogRefOf, DEFAULT_TARGET_TYPE, type Schedule, type ScheduleCreateInput, type ScheduleDryRunAnswer } from '../lib/schedules/contract';
import { ApiError, type ApiClient } from './client';
import type { SchedulerTarget } from './connection';
import { changedFields, compareSchedule, computePlan, entryPlan, type EntryPlan, type Plan } from './diff';
import { writableFields } from './fields';
import type { Manifest, ManifestProblem } from './manifest';
import { pinnedKey, resolvePinnedSessions } from './pinned-sessions';
import { locate } from './yaml-locate';
import { listRules, planAlerts, ruleParams, type AlertPlan } from './alert-rules';

/** A session `deploy` creates (workflow command `create_session`) before it writes any schedule. */
export interface SessionToCreate {
  /** Revision the session is created in, as the server named it (`missing_session.revision_id`). */
  revisionId: string;
  /** `org/blob` as the manifest names it, for messages. */
  blobLabel: string;
  alias: string;
  /** Manifest entries that need it. */
  forAliases: string[];
}

export interface DeployPlan extends Plan {
  sessionsToCreate: SessionToCreate[];
  /** Reasons `deploy` must not write anything (each with its manifest line). Empty when the plan can run. */
  problems: ManifestProblem[];
  unchangedCount: number;
  /** SPEC §17: the manifest's alert rules against the deployed ones; undefined without `alerts:`. */
  alerts?: AlertPlan;
}

/** The manifest position of `path` (dotted, inside entry `alias`). */
export function entryPos(manifest: Manifest, alias: string, path?: string): { line: number; col: number } {
  return locate(manifest.doc, manifest.lineCounter, ['schedules', alias, ...(path ? path.split('.') : [])]);
}

/** Pinned `[revision, session]` references of the manifest's targets. */
function pinnedRefs(manifest: Manifest): [string, string][] {
  return manifest.entries
    .flatMap((e) => {
      // Only a target that runs in the embedded catalog names a session there (SPEC §6.1).
      const ref = catalogRefOf(e.input);
      return ref ? [ref] : [];
    })
    .filter((t) => t.revision !== 'default')
    .map((t) => [t.revision, t.session]);
}

/**
 * The dry run of the write `entry` plans (create, or update of the differing fields), or, for an
 * unchanged entry, of its target alone (SPEC §11: deploy checks every target). A completed unchanged
 * schedule is read-only and fires no more, so nothing is asked for it.
 */
function dryRunOf(entry: EntryPlan, target: Pick<ScheduleCreateInput, 'invocation_target_type' | 'invocation_target'>, input: Record<string, unknown>): { command: 'create_schedule' | 'update_schedule'; params: Record<string, unknown> } | null {
  if (entry.kind === 'create') return { command: 'create_schedule', params: input };
  if (entry.kind === 'update') return { command: 'update_schedule', params: { schedule_id: entry.schedule.id, expected_version: entry.schedule.version, ...entry.body } };
  if (entry.schedule.state === 'completed') return null;
  return { command: 'update_schedule', params: { schedule_id: entry.schedule.id, invocation_target_type: target.invocation_target_type ?? DEFAULT_TARGET_TYPE, invocation_target: target.invocation_target } };
}

/**
 * Plan the deploy of `manifest` to `scheduler`: list the deployed schedules, compare, then ask the
 * server to dry-run every write (and every unchanged entry's target). A refusal becomes a problem at its
 * manifest line with the server's code, path and message; a `missing_session` answer becomes a session
 * `deploy` creates first.
 * @throws ApiError for refusals that are not about one entry (401, 403: the key cannot write the
 *   scheduler, an unreadable scheduler, 5xx).
 */
export async function planDeploy(client: ApiClient, manifest: Manifest, scheduler: SchedulerTarget): Promise<DeployPlan> {
  const deployed: Schedule[] = await client.listAllSchedules(scheduler.revisionId);
  const pinned = await resolvePinnedSessions(client, pinnedRefs(manifest));
  const plan = computePlan(manifest.entries, deployed, (revision, ref, storedId) => pinned.get(pinnedKey(revision, ref)) === storedId);

  const byAlias = new Map(manifest.entries.map((e) => [e.alias, e]));
  const problems: ManifestProblem[] = [];
  const sessions = new Map<string, SessionToCreate>();
  const entries: EntryPlan[] = [];
  for (const compared of plan.entries) {
    let entry = compared;
    entries.push(entry);
    const input = byAlias.get(entry.alias)?.input;
    const ask = input ? dryRunOf(entry, input, { ...input }) : null;
    if (!input || !ask) continue;
    let answer: ScheduleDryRunAnswer;
    try {
      answer = await client.command<ScheduleDryRunAnswer>(scheduler.revisionId, 'scheduler_blobhub', ask.command, { ...ask.params, dry_run: true });
    } catch (e) {
      // Refusals about the whole scheduler (no credentials, no write access, gone) stop the plan.
      if (!(e instanceof ApiError) || e.status >= 500 || e.status === 401 || e.status === 403 || e.code === 'not_found') throw e;
      problems.push({ ...entryPos(manifest, entry.alias, e.path), alias: entry.alias, code: e.code, path: e.path, message: `${e.path ? `${e.path}: ` : ''}${e.message}` });
      continue;
    }
    if (entry.kind === 'update') {
      // The server decides what a value means: a field the dry run would store exactly as deployed is
      // another spelling of it (a default the API fills in, a partial retry_policy), not a change.
      const effective = new Set<unknown>(changedFields(compareSchedule(writableFields(answer.schedule), entry.schedule, () => false)));
      entry = entryPlan(entry.alias, input, entry.schedule, entry.changes.filter((c) => effective.has(c.path[0])));
      entries[entries.length - 1] = entry;
    }
    const missing = answer.missing_session;
    const t = catalogRefOf(input);
    if (missing && t) {
      const key = pinnedKey(missing.revision_id, missing.alias);
      const planned = sessions.get(key) ?? { revisionId: missing.revision_id, blobLabel: `${t.org ? `${t.org}/` : ''}${t.blob}`, alias: missing.alias, forAliases: [] };
      planned.forAliases.push(entry.alias);
      sessions.set(key, planned);
    }
  }
  const alerts = manifest.alerts ? planAlerts(manifest.alerts, await listRules(client, scheduler.revisionId), deployed) : undefined;
  const creating = new Set(entries.filter((e) => e.kind === 'create').map((e) => e.alias));
  for (const { index, rule } of alerts?.create ?? []) {
    // A rule on a schedule this deploy creates cannot be asked about before the schedule exists; the
    // manifest's own check (schema) has passed, and the schedule's dry run above.
    if (rule.schedule && creating.has(rule.schedule)) continue;
    try {
      await client.command(scheduler.revisionId, 'scheduler_blobhub', 'create_alert_rule', { ...ruleParams(rule), dry_run: true });
    } catch (e) {
      if (!(e instanceof ApiError) || e.status >= 500 || e.status === 401 || e.status === 403 || e.code === 'not_found') throw e;
      const path = e.path === 'schedule_id' ? 'schedule' : e.path;
      problems.push({ ...locate(manifest.doc, manifest.lineCounter, ['alerts', index, ...(path ? path.split('.') : [])]), code: e.code, path, message: `${path ? `${path}: ` : ''}${e.message}` });
    }
  }
  problems.sort((a, b) => a.line - b.line || a.col - b.col);
  return {
    ...(alerts ? { alerts } : {}),
    entries,
    drift: plan.drift,
    sessionsToCreate: [...sessions.values()],
    problems,
    unchangedCount: entries.filter((e) => e.kind === 'unchanged').length,
  };
}

/** True when `deploy` would write something (a schedule or a session). Drift alone writes nothing. */
export function hasChanges(plan: DeployPlan): boolean {
  return plan.sessionsToCreate.length > 0 || plan.entries.some((e) => e.kind !== 'unchanged') || (plan.alerts?.create.length ?? 0) > 0;
}
