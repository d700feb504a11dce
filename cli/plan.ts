/**
 * Everything `deploy` and `diff` need before a write: the deployed schedules, every target checked
 * through the workflow API, the field-by-field plan, and every reason a write would be refused that can
 * be known in advance. Reads only.
 */
import type { Schedule } from '../lib/schedules/contract';
import type { ApiClient } from './client';
import type { SchedulerTarget } from './connection';
import { computePlan, type Plan } from './diff';
import type { Manifest, ManifestProblem } from './manifest';
import { checkTargets, pinnedKey, type SessionToCreate } from './targets';
import { checkTiming } from './timing';
import { locate } from './yaml-locate';

export interface DeployPlan extends Plan {
  sessionsToCreate: SessionToCreate[];
  /** Reasons `deploy` must not write anything (each with its manifest line). Empty when the plan can run. */
  problems: ManifestProblem[];
  unchangedCount: number;
}

/** The manifest position of `path` (dotted, inside entry `alias`). */
export function entryPos(manifest: Manifest, alias: string, path?: string): { line: number; col: number } {
  return locate(manifest.doc, manifest.lineCounter, ['schedules', alias, ...(path ? path.split('.') : [])]);
}

/**
 * Plan the deploy of `manifest` to `scheduler` at `now`: list the deployed schedules, check every
 * target (read-only), compare, and collect problems — broken targets, one-time schedules in the past,
 * windows already over, and changes to `completed` schedules (read-only, SPEC §5.3).
 * @throws ApiError for refusals that are not about one entry (401, unreadable scheduler, …).
 */
export async function planDeploy(client: ApiClient, manifest: Manifest, scheduler: SchedulerTarget, now: Date): Promise<DeployPlan> {
  const deployed: Schedule[] = await client.listAllSchedules(scheduler.revisionId);
  const targets = await checkTargets(
    client,
    manifest.entries.map((e) => ({ alias: e.alias, target: e.input.invocation_target })),
    scheduler.orgId,
  );
  const plan = computePlan(manifest.entries, deployed, (revision, ref, storedId) => targets.pinnedSessions.get(pinnedKey(revision, ref)) === storedId);

  const problems: ManifestProblem[] = targets.problems.map((p) => ({ ...entryPos(manifest, p.alias, p.path), alias: p.alias, code: 'invalid_invocation_target', path: p.path, message: `${p.path}: ${p.message}` }));
  const byAlias = new Map(manifest.entries.map((e) => [e.alias, e]));
  for (const entry of plan.entries) {
    if (entry.kind === 'unchanged') continue;
    if (entry.kind === 'update' && entry.schedule.state === 'completed') {
      problems.push({
        ...entryPos(manifest, entry.alias),
        alias: entry.alias,
        code: 'schedule_completed',
        message: `the deployed schedule ${entry.schedule.id} is completed and read-only (SPEC §5.3); delete it or drop the entry to change it`,
      });
      continue;
    }
    const input = byAlias.get(entry.alias)?.input;
    const timing = input ? checkTiming(input, now) : null;
    if (timing) problems.push({ ...entryPos(manifest, entry.alias, timing.path), alias: entry.alias, code: timing.code, path: timing.path, message: `${timing.path}: ${timing.message}` });
  }
  problems.sort((a, b) => a.line - b.line || a.col - b.col);
  return {
    ...plan,
    sessionsToCreate: targets.sessionsToCreate,
    problems,
    unchangedCount: plan.entries.filter((e) => e.kind === 'unchanged').length,
  };
}

/** True when `deploy` would write something (a schedule or a session). Drift alone writes nothing. */
export function hasChanges(plan: DeployPlan): boolean {
  return plan.sessionsToCreate.length > 0 || plan.entries.some((e) => e.kind !== 'unchanged');
}
