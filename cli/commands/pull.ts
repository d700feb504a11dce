/**
 * `scheduler pull`: write the deployed schedules into the manifest (SPEC §11), editing the parsed
 * document in place (comments and order kept where the YAML library allows; see pull-doc.ts). Creates
 * the file when it does not exist. Entries the scheduler does not hold are removed; schedules without
 * an alias cannot be keyed and are reported, not written. Afterwards `diff` reports no differences.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Document } from 'yaml';
import { connect, parseSchedulerRef, resolveScheduler, type ConnectionFlags } from '../connection';
import { EXIT, reportError, schedulerOfFile, type Io } from '../io';
import { parseManifestSource } from '../manifest';
import { applyPull, renderLike } from '../pull-doc';
import { pinnedKey, resolvePinnedSessions } from '../pinned-sessions';
import { listRules, manifestRuleOf, showRuleDrift } from '../alert-rules';

export interface PullOptions {
  file: string;
  flags: ConnectionFlags;
  io: Io;
}

/** Pinned `[revision, session]` references written in the document's entries (for keeping aliases). */
function pinnedRefs(doc: Document): [string, string][] {
  const root = doc.toJS() as { schedules?: Record<string, { invocation_target?: { target?: { revision?: unknown; session?: unknown } } }> } | null;
  const refs: [string, string][] = [];
  for (const entry of Object.values(root?.schedules ?? {})) {
    const t = entry?.invocation_target?.target;
    if (typeof t?.revision === 'string' && t.revision !== 'default' && typeof t.session === 'string') refs.push([t.revision, t.session]);
  }
  return refs;
}

/** Run `pull`. Returns the exit code (0 written, 1 error; the file is untouched on error). */
export async function pull(opts: PullOptions): Promise<number> {
  const { io, file } = opts;
  try {
    const exists = existsSync(file);
    const original = exists ? readFileSync(file, 'utf8') : '';
    const doc = exists ? parseManifestSource(original, file).doc : new Document({});
    if (!exists) doc.commentBefore = ' Schedules as code: see docs/cli.md. Written by `scheduler pull`.';
    const client = connect(opts.flags);
    const named = opts.flags.scheduler ? parseSchedulerRef(opts.flags.scheduler) : schedulerOfFile(file);
    const scheduler = await resolveScheduler(client, opts.flags, named);
    const deployed = await client.listAllSchedules(scheduler.revisionId);
    const sessions = await resolvePinnedSessions(client, pinnedRefs(doc));
    const result = applyPull(doc, deployed, (revision, ref, storedId) => sessions.get(pinnedKey(revision, ref)) === storedId, opts.flags.revision ? undefined : named);
    // SPEC §17: the alert rules, as a whole list (rules have no key of their own), when any is deployed or listed.
    const deployedRules = await listRules(client, scheduler.revisionId);
    const rules = deployedRules.flatMap((r) => manifestRuleOf(r, deployed) ?? []);
    // A rule naming no channel cannot be written (a manifest rule names at least one): said, not dropped silently.
    for (const r of deployedRules) if (r.channels.length === 0) io.out(showRuleDrift(r));
    const listed = (doc.toJS() as { alerts?: unknown } | null)?.alerts;
    const rulesChanged = JSON.stringify(listed ?? []) !== JSON.stringify(rules) && (rules.length > 0 || listed !== undefined);
    if (rulesChanged) {
      if (rules.length) doc.set('alerts', doc.createNode(rules));
      else doc.delete('alerts');
      io.out(`~ alerts: ${rules.length} rule${rules.length === 1 ? '' : 's'}`);
    }
    const changed = !exists || rulesChanged || result.added.length + result.updated.length + result.removed.length > 0;
    // An unchanged manifest is not rewritten, so its formatting stays exactly as the user wrote it.
    if (changed) writeFileSync(file, renderLike(doc, original));
    for (const a of result.added) io.out(`+ added ${a}`);
    for (const a of result.updated) io.out(`~ updated ${a}`);
    for (const a of result.removed) io.out(`- removed ${a} (not deployed in ${scheduler.label})`);
    for (const s of result.skipped) io.out(`! skipped schedule ${s.id}: it has no alias, so it cannot be a manifest entry`);
    for (const { schedule, problem } of result.unrepresentable) io.out(`! skipped schedule ${schedule.alias} (${schedule.id}): a manifest entry cannot hold it as it is (${problem}); its entry, if any, is left as it was`);
    const pulled = deployed.length - result.skipped.length - result.unrepresentable.length;
    io.out(
      `Pulled ${pulled} schedule${pulled === 1 ? '' : 's'} from ${scheduler.label} into ${file}: ` +
        `${result.added.length} added, ${result.updated.length} updated, ${result.unchanged.length} unchanged, ${result.removed.length} removed${changed ? '' : ' (file left as it was)'}.`,
    );
    return EXIT.ok;
  } catch (e) {
    return reportError(io, e);
  }
}
