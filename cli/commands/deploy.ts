/**
 * `scheduler deploy`: make the scheduler match the manifest (SPEC §11). Order, so that nothing is
 * written unless everything checkable passes:
 *   1. the manifest, every entry, through the API's schema (local);
 *   2. every planned write, and every unchanged entry's target, as a server dry run (`dry_run: true`:
 *      all of SPEC §5.2 and the §6.3 target checks with this key's standing; nothing written);
 *   3. writes: missing sessions (as the dry runs named them), then updates (only the differing
 *      fields), then creates.
 * A deployed schedule the manifest does not list is drift: reported, never touched.
 * SPEC §15: each update sends the `version` the plan read (`expected_version`: a change made since is
 * refused, not overwritten); each create sends its own `client_token`, so the one retry after a lost
 * answer (a network failure, not a refusal) answers the first create instead of making a second one.
 */
import { randomUUID } from 'node:crypto';
import { ApiError, type ApiClient } from '../client';
import { connect, resolveScheduler, type ConnectionFlags } from '../connection';
import { EXIT, loadManifest, reportError, type Io } from '../io';
import type { Schedule } from '../../lib/schedules/contract';
import { formatProblem } from '../manifest';
import { entryPos, hasChanges, planDeploy } from '../plan';
import { showDrift, showProblems } from '../render';
import { changedFields } from '../diff';
import { ruleParams, showRule, showRuleDrift } from '../alert-rules';

export interface DeployOptions {
  file: string;
  flags: ConnectionFlags;
  io: Io;
}

/** Run `deploy`. Returns the exit code: 0 deployed (or nothing to do), 1 error (with what, if anything, was written). */
export async function deploy(opts: DeployOptions): Promise<number> {
  const { io } = opts;
  let manifest;
  try {
    manifest = loadManifest(opts.file);
  } catch (e) {
    return reportError(io, e);
  }
  let written = 0;
  let current = '';
  try {
    const client = connect(opts.flags);
    const scheduler = await resolveScheduler(client, opts.flags, manifest.scheduler);
    const plan = await planDeploy(client, manifest, scheduler);
    if (plan.problems.length) {
      for (const line of showProblems(manifest.file, plan.problems)) io.err(line);
      io.err(`deploy aborted: ${plan.problems.length} problem${plan.problems.length === 1 ? '' : 's'}; nothing was written`);
      return EXIT.error;
    }
    for (const s of plan.drift) io.out(showDrift(s));
    if (!hasChanges(plan)) {
      io.out(`Nothing to do: ${plan.unchangedCount} schedule${plan.unchangedCount === 1 ? '' : 's'} in ${scheduler.label} match the manifest.`);
      return EXIT.ok;
    }

    for (const s of plan.sessionsToCreate) {
      current = `session ${s.alias}`;
      await client.command(s.revisionId, 'workflow_blobhub', 'create_session', { alias: s.alias });
      written++;
      io.out(`+ created session ${s.alias} in ${s.blobLabel} (revision ${s.revisionId})`);
    }
    const entries = new Map(manifest.entries.map((e) => [e.alias, e]));
    let updated = 0;
    let created = 0;
    for (const e of plan.entries) {
      if (e.kind !== 'update') continue;
      current = e.alias;
      await client.command(scheduler.revisionId, 'scheduler_blobhub', 'update_schedule', { schedule_id: e.schedule.id, expected_version: e.schedule.version, ...e.body });
      written++;
      updated++;
      io.out(`~ updated ${e.alias}: ${changedFields(e.changes).join(', ')}`);
    }
    for (const e of plan.entries) {
      if (e.kind !== 'create') continue;
      current = e.alias;
      const entry = entries.get(e.alias);
      if (!entry) continue;
      const res = await createWithToken(client, scheduler.revisionId, { ...entry.input, client_token: `deploy-${randomUUID()}` });
      written++;
      created++;
      io.out(`+ created ${e.alias} (${res.schedule.id}), next fire ${res.schedule.next_fire_at ?? 'none'}`);
    }
    // SPEC §17: the manifest's alert rules the scheduler does not have yet (their schedules exist now).
    for (const { rule } of plan.alerts?.create ?? []) {
      current = 'alerts';
      await client.command(scheduler.revisionId, 'scheduler_blobhub', 'create_alert_rule', ruleParams(rule));
      written++;
      io.out(`+ created ${showRule(rule)}`);
    }
    for (const r of plan.alerts?.drift ?? []) io.out(`${showRuleDrift(r)}; left alone`);
    const sessions = plan.sessionsToCreate.length;
    io.out(
      `Deployed to ${scheduler.label}: ${created} created, ${updated} updated, ${plan.unchangedCount} unchanged` +
        `${sessions ? `, ${sessions} session${sessions === 1 ? '' : 's'} created` : ''}${plan.alerts?.create.length ? `, ${plan.alerts.create.length} alert rule${plan.alerts.create.length === 1 ? '' : 's'} created` : ''}${plan.drift.length ? `, ${plan.drift.length} drift left alone` : ''}.`,
    );
    return EXIT.ok;
  } catch (e) {
    if (e instanceof ApiError && manifest.entries.some((x) => x.alias === current)) {
      const pos = entryPos(manifest, current, e.path);
      io.err(formatProblem(manifest.file, { ...pos, alias: current, code: e.code, path: e.path, message: `${e.path ? `${e.path}: ` : ''}${e.message}` }));
    } else {
      reportError(io, e);
    }
    if (written > 0) io.err(`deploy stopped at ${current}: ${written} earlier write${written === 1 ? ' was' : 's were'} applied; run diff to see what is left`);
    else if (current) io.err(`deploy stopped at ${current}: nothing was written`);
    return EXIT.error;
  }
}

/** `create_schedule` with a `client_token`, sent again once when its answer was lost (never after a refusal). */
async function createWithToken(client: ApiClient, revisionId: string, params: Record<string, unknown>): Promise<{ schedule: Schedule }> {
  try {
    return await client.command<{ schedule: Schedule }>(revisionId, 'scheduler_blobhub', 'create_schedule', params);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    // Same token, same body: the server answers the first create if it was made (SPEC §15).
    return client.command<{ schedule: Schedule }>(revisionId, 'scheduler_blobhub', 'create_schedule', params);
  }
}
