/**
 * Read models for the web app's schedule grid and schedule form (SPEC §10). Read-only; every function
 * checks the caller's standing in the query (STYLE §2.2) and never reveals what it cannot read.
 *
 * - `targetOptions`: what the New Schedule form offers in its pickers (free entry stays allowed, the
 *   save path is the one that decides, SPEC §6.3).
 * - `lastRunStatuses`: the newest run of each schedule of one page of the grid.
 * - `enabledCounts`: how many active schedules "Pause all" / "Resume all" would change.
 * - `pendingRetries`: the attempts waiting for their turn, for the grid's "retrying" state and the
 *   history's "next attempt at".
 */
import { blobRoles, orgAwsCredentialsMode, readableBy, visibleOrgIds, type Actor } from '../../auth';
import { countEnabled, findLastRuns, findPendingRetries, rawOneOf, type Db } from '../../db';
import { triggerOf } from './serialize';
import { requireSchedulerRole } from '../access';
import { RUN_OUTCOMES, RUN_STATUSES, type PendingRetry, type RunOutcomeState, type RunStatus, type RunTrigger, type TargetOptions } from '../contract';

/** Most sessions and definitions offered in the pickers, so a huge catalog cannot blow up a page. */
const OPTIONS_MAX = 500;

/**
 * The orgs, workflow blobs, revisions, sessions and definitions `actor` can read (SPEC §2), and, with
 * `forOrgId` (the scheduler's org), that org's AWS credentials mode (SPEC §13.5, the AWS target's hints).
 */
export async function targetOptions(db: Db, actor: Actor, forOrgId?: string): Promise<TargetOptions> {
  const orgIds = await visibleOrgIds(db, actor);
  const [orgs, readable] = await Promise.all([
    db.org.findMany({ where: { id: { in: orgIds } }, select: { id: true, alias: true, name: true }, orderBy: { name: 'asc' } }),
    // Scoped in the query: a blob the actor cannot read is simply not listed (SPEC §2).
    db.blob.findMany({
      where: { AND: [{ type: 'workflow' }, readableBy(actor)] },
      include: { org: { select: { alias: true } }, revisions: { select: { id: true, state: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    }),
  ]);
  const roles = await blobRoles(db, actor, readable.map((b) => b.id));
  const blobs: TargetOptions['blobs'] = readable.flatMap((b) => {
    const role = roles.get(b.id);
    // A role that changed between the two reads: leave the blob out rather than guess.
    if (!role) return [];
    return [
      {
        id: b.id,
        alias: b.alias,
        name: b.name,
        orgId: b.orgId,
        orgAlias: b.org.alias,
        role,
        defaultRevisionId: b.defaultRevisionId,
        revisions: b.revisions.map((r) => ({ id: r.id, state: r.state, isDefault: r.id === b.defaultRevisionId })),
      },
    ];
  });
  const revisionIds = blobs.flatMap((b) => b.revisions.map((r) => r.id));
  const draftIds = blobs.flatMap((b) => b.revisions.filter((r) => r.state === 'draft').map((r) => r.id));
  const [sessions, definitions] = await Promise.all([
    db.workflowSession.findMany({
      where: { revisionId: { in: draftIds } },
      select: { revisionId: true, id: true, alias: true, state: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: OPTIONS_MAX,
    }),
    db.definition.findMany({
      where: { revisionId: { in: revisionIds } },
      select: { revisionId: true, id: true, alias: true, name: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: OPTIONS_MAX,
    }),
  ]);
  return { orgs, blobs, sessions, definitions, ...(forOrgId ? { awsCredentials: await orgAwsCredentialsMode(db, forOrgId) } : {}) };
}

/** The newest run of a schedule, as the grid's "Last run" column shows it. */
export interface LastRun {
  status: RunStatus;
  trigger: RunTrigger;
  /** When the fire was recorded (ISO UTC). */
  created_at: string;
  /** Its outcome (SPEC §16.3: the column shows it when there is one), or null. */
  outcome: RunOutcomeState | null;
}

/**
 * The newest run (by `created_at`, then `id`) of each of `scheduleIds` that belongs to scheduler
 * revision `revision.id`; schedules without runs are absent from the answer. Needs `read` on the
 * scheduler (else `404 not_found`).
 */
export async function lastRunStatuses(opts: {
  db: Db;
  actor: Actor;
  revision: { id: string; blobId: string };
  scheduleIds: string[];
}): Promise<Record<string, LastRun>> {
  const { db, actor, revision, scheduleIds } = opts;
  await requireSchedulerRole(db, actor, revision.blobId, 'read');
  const out: Record<string, LastRun> = {};
  for (const [scheduleId, run] of await findLastRuns(db, revision.id, scheduleIds, RUN_STATUSES)) {
    out[scheduleId] = { status: rawOneOf(RUN_STATUSES, 'runs.status', run.status), trigger: triggerOf(run.trigger).trigger, created_at: run.createdAt.toISOString(), outcome: run.outcome === null ? null : rawOneOf(RUN_OUTCOMES, 'runs.outcome', run.outcome) };
  }
  return out;
}

/**
 * How many `active` schedules of the scheduler are enabled (what "Pause all" would change), disabled,
 * and disabled by a Pause all (what "Resume all" would change, `set_all_enabled`, SPEC §3.1, §12.5). Needs `read` (else `404 not_found`).
 */
export async function enabledCounts(opts: { db: Db; actor: Actor; revision: { id: string; blobId: string } }): Promise<{ enabled: number; disabled: number; bulkPaused: number }> {
  const { db, actor, revision } = opts;
  await requireSchedulerRole(db, actor, revision.blobId, 'read');
  return countEnabled(db, revision.id);
}

/**
 * The pending attempts (SPEC §12.2: stored, claimed like occurrences) of each of `scheduleIds` that
 * belongs to scheduler revision `revision.id`, soonest due first; schedules with none are absent. A
 * schedule listed here is "retrying": a failed occurrence's next attempt is due at `due_at`; but one
 * marked `waiting` is a `buffer_one` occurrence waiting for the run in progress (SPEC §16.2), due
 * when that run ends (its `due_at` is then the instant of its release). Needs
 * `read` on the scheduler (else `404 not_found`).
 */
export async function pendingRetries(opts: {
  db: Db;
  actor: Actor;
  revision: { id: string; blobId: string };
  scheduleIds: string[];
}): Promise<Record<string, PendingRetry[]>> {
  const { db, actor, revision, scheduleIds } = opts;
  await requireSchedulerRole(db, actor, revision.blobId, 'read');
  const out: Record<string, PendingRetry[]> = {};
  for (const [scheduleId, list] of await findPendingRetries(db, revision.id, scheduleIds)) {
    out[scheduleId] = list.map((p) => ({ scheduled_for: p.scheduledFor.toISOString(), attempt: p.attempt, due_at: p.dueAt.toISOString(), ...(p.waiting ? { waiting: true as const } : {}) }));
  }
  return out;
}
