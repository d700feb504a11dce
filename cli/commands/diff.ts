/**
 * `scheduler diff`: what `deploy` would do, field by field, writing nothing (SPEC §11). Exit 0 when
 * nothing differs, 2 when something does (for CI), 1 on an error or a problem `deploy` would stop on.
 * Drift (deployed schedules the manifest does not list) is reported; it makes the exit code 2 only
 * with `--fail-on-drift`, since `deploy` leaves it alone.
 */
import { connect, resolveScheduler, type ConnectionFlags } from '../connection';
import { EXIT, loadManifest, reportError, type Io } from '../io';
import { hasChanges, planDeploy } from '../plan';
import { showPlan, showProblems } from '../render';
import { showRuleDrift, showRule } from '../alert-rules';

export interface DiffOptions {
  file: string;
  flags: ConnectionFlags;
  io: Io;
  /** Exit 2 on drift too. */
  failOnDrift?: boolean;
}

/** Run `diff`. Returns the exit code (0 same, 2 differs, 1 error). */
export async function diff(opts: DiffOptions): Promise<number> {
  const { io } = opts;
  try {
    const manifest = loadManifest(opts.file);
    const client = connect(opts.flags);
    const scheduler = await resolveScheduler(client, opts.flags, manifest.scheduler);
    const plan = await planDeploy(client, manifest, scheduler);
    const changes = hasChanges(plan);
    if (changes || plan.drift.length || plan.alerts?.drift.length) {
      io.out(`Scheduler ${scheduler.label}, manifest ${manifest.file}:`);
      for (const line of showPlan(plan, manifest.entries)) io.out(line);
      for (const { rule } of plan.alerts?.create ?? []) io.out(`+ ${showRule(rule)}`);
      for (const r of plan.alerts?.drift ?? []) io.out(showRuleDrift(r));
    } else {
      io.out(`No differences: ${plan.unchangedCount} schedule${plan.unchangedCount === 1 ? '' : 's'} in ${scheduler.label} match the manifest.`);
    }
    if (plan.problems.length) {
      for (const line of showProblems(manifest.file, plan.problems)) io.err(line);
      io.err(`${plan.problems.length} problem${plan.problems.length === 1 ? '' : 's'}: deploy would stop before writing anything`);
      return EXIT.error;
    }
    return changes || (opts.failOnDrift && plan.drift.length) ? EXIT.differs : EXIT.ok;
  } catch (e) {
    return reportError(io, e);
  }
}
