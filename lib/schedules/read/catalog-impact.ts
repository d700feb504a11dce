/**
 * Which schedules a catalog change affects, and how, so the pages can name the consequences before
 * the operator confirms (issue "Operator safety": Commit, Set as default, delete session, delete blob).
 * Read-only: nothing here changes anything. The rules are the fire path's (SPEC §6.1, §6.2, §8.1,
 * `embeddedGateway.resolveTarget` / `resolveWorkflow`), applied to the catalog as it will be:
 * - commit R: schedules following R's blob while R is its default fail `default_revision_committed`;
 *   schedules pinned to R fail `invocation_failed` (a committed revision runs no executions);
 * - set R as default: schedules following the blob fire into R from their next fire (or fail, when R
 *   is committed or lacks their session or definition); qualified workflow references that follow the
 *   blob's default run R's definitions;
 * - delete session S of R: schedules pinned to S, and those following S's alias while R is the
 *   default, fail `session_not_found`;
 * - delete a workflow blob: every schedule aiming at it fails (`target_not_found` following,
 *   `session_not_found` pinned), and those running a workflow from it fail `workflow_not_found`.
 * Only active schedules count (a completed one never fires again). Schedules in schedulers the actor
 * cannot read are counted in `hidden`, never named (SPEC §2).
 */
import { blobRole, roleAtLeast, type Actor } from '../../auth';
import { findSchedulesNamingBlob, type Tx } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';
import type { InvocationError } from '../contract';

/** What becomes of an affected schedule's fires once the change is made. */
export type ImpactOutcome =
  /** Every fire from the next one on records `invocation_error` with this `result.error`. */
  | { kind: 'fails'; error: InvocationError }
  /** Set as default: it fires into this revision's session (its id) from its next fire on. */
  | { kind: 'fires_into'; sessionId: string }
  /** Set as default: its qualified workflow reference runs this revision's definition (its id). */
  | { kind: 'runs_definition'; definitionId: string };

export interface AffectedSchedule {
  id: string;
  /** Its alias, else its id. */
  label: string;
  enabled: boolean;
  /** Its scheduler: name and managed revision (for a link to the schedule's page). */
  scheduler: { name: string; revisionId: string };
  /** How it names the changed object: its target follows the blob's default, is pinned, or its workflow reference names the blob. */
  aim: 'following' | 'pinned' | 'workflow';
  outcome: ImpactOutcome;
}

export interface ScheduleImpact {
  /** The affected schedules the actor can read, by scheduler then creation. */
  schedules: AffectedSchedule[];
  /** Affected schedules in schedulers the actor cannot read: counted only. */
  hidden: number;
}

export const NO_IMPACT: ScheduleImpact = { schedules: [], hidden: 0 };

/** A blob as the rules need it. */
interface BlobInfo {
  id: string;
  alias: string | null;
  orgId: string;
  orgAlias: string | null;
  defaultRevisionId: string | null;
}

/** A stored invocation target (SPEC §6), as far as these rules read it. */
interface StoredTarget {
  target: { org?: string; blob: string; revision: string; session: string };
  workflow: { org?: string; blob?: string; revision?: string; definition: string };
}

/** One active schedule naming the blob, resolved against it. */
interface Candidate {
  id: string;
  label: string;
  enabled: boolean;
  schedulerRevisionId: string;
  /** Its target names the blob. */
  targetsBlob: boolean;
  /** `target.revision` is `default`. */
  following: boolean;
  /** `target.revision` normalized (a revision id when pinned). */
  targetRevision: string;
  /** `target.session` normalized (an id when pinned, an alias when following). */
  session: string;
  /** Its workflow reference is qualified and names the blob. */
  workflowFromBlob: boolean;
  /** The qualified reference's revision, normalized (`default` when omitted). */
  workflowRevision: string;
  /** Bare reference: looked up in the target's own revision. */
  bareWorkflow: boolean;
  definition: string;
}

/**
 * Whether a stored `{org?, blob}` names `blob`, as `findBlobByRef` resolves it: an id (with no org, or
 * the blob's org), or an alias with the blob's org (by id or alias).
 */
function namesBlob(ref: { org?: string; blob?: string }, blob: BlobInfo): boolean {
  if (ref.blob === undefined) return false;
  const b = normalizeRef(ref.blob);
  const org = ref.org !== undefined ? normalizeRef(ref.org) : undefined;
  const orgOk = org === undefined || org === blob.orgId || (blob.orgAlias !== null && org === blob.orgAlias);
  if (isIdShape(b)) return b === blob.id && orgOk;
  return org !== undefined && orgOk && blob.alias !== null && b === blob.alias;
}

async function loadBlob(db: Tx, actor: Actor, blobId: string): Promise<BlobInfo> {
  const blob = await db.blob.findUnique({ where: { id: blobId }, include: { org: { select: { alias: true } } } });
  if (!blob || !roleAtLeast(await blobRole(db, actor, blob.id), 'read')) throw new DomainError('not_found', 'blob not found');
  return { id: blob.id, alias: blob.alias, orgId: blob.orgId, orgAlias: blob.org.alias, defaultRevisionId: blob.defaultRevisionId };
}

/** The active schedules whose target or qualified workflow reference names `blob`. */
async function candidatesFor(db: Tx, blob: BlobInfo): Promise<Candidate[]> {
  const rows = await findSchedulesNamingBlob(db, blob.id, blob.alias);
  const out: Candidate[] = [];
  for (const r of rows) {
    const it = r.invocationTarget as StoredTarget;
    if (!it?.target || !it?.workflow) continue;
    const targetsBlob = namesBlob(it.target, blob);
    const workflowFromBlob = it.workflow.blob !== undefined && namesBlob(it.workflow, blob);
    if (!targetsBlob && !workflowFromBlob) continue;
    const targetRevision = normalizeRef(it.target.revision);
    out.push({
      id: r.id,
      label: r.alias ?? r.id,
      enabled: r.enabled,
      schedulerRevisionId: r.revisionId,
      targetsBlob,
      following: targetRevision === 'default',
      targetRevision,
      session: normalizeRef(it.target.session),
      workflowFromBlob,
      workflowRevision: normalizeRef(it.workflow.revision ?? 'default'),
      bareWorkflow: it.workflow.blob === undefined,
      definition: normalizeRef(it.workflow.definition),
    });
  }
  return out;
}

/** Readable schedulers (by managed revision id) → name; the others are counted as hidden. */
async function readableSchedulers(db: Tx, actor: Actor, revisionIds: string[]): Promise<Map<string, string>> {
  const revisions = await db.revision.findMany({ where: { id: { in: [...new Set(revisionIds)] } }, select: { id: true, blob: { select: { id: true, name: true } } } });
  const out = new Map<string, string>();
  for (const r of revisions) if (roleAtLeast(await blobRole(db, actor, r.blob.id), 'read')) out.set(r.id, r.blob.name);
  return out;
}

type Decision = { aim: AffectedSchedule['aim']; outcome: ImpactOutcome } | null;

function collect(candidates: Candidate[], names: Map<string, string>, decide: (c: Candidate) => Decision): ScheduleImpact {
  const impact: ScheduleImpact = { schedules: [], hidden: 0 };
  for (const c of candidates) {
    const d = decide(c);
    if (!d) continue;
    const name = names.get(c.schedulerRevisionId);
    if (name === undefined) impact.hidden++;
    else impact.schedules.push({ id: c.id, label: c.label, enabled: c.enabled, scheduler: { name, revisionId: c.schedulerRevisionId }, aim: d.aim, outcome: d.outcome });
  }
  return impact;
}

/** Catalog contents of a revision that the set-default rule looks up: sessions and definitions. */
interface RevisionContents {
  id: string;
  state: string;
  sessions: { id: string; alias: string | null; state: string }[];
  definitions: { id: string; alias: string | null }[];
}

/** What committing revision `rev` of `blob` does to `c` (see the module comment), or null. */
function commitDecision(c: Candidate, blob: BlobInfo, rev: { id: string }): Decision {
  if (!c.targetsBlob) return null;
  if (c.following && blob.defaultRevisionId === rev.id) return { aim: 'following', outcome: { kind: 'fails', error: 'default_revision_committed' } };
  if (!c.following && c.targetRevision === rev.id) return { aim: 'pinned', outcome: { kind: 'fails', error: 'invocation_failed' } };
  return null;
}

/** A definition reference resolved in `rev` (an id, or an alias), as `resolveWorkflowReference` does. */
function findDefinition(rev: RevisionContents, ref: string) {
  return rev.definitions.find((d) => (isIdShape(ref) ? d.id === ref : d.alias === ref));
}

/** What making `rev` the default of `blob` does to `c` (see the module comment), or null. */
function setDefaultDecision(c: Candidate, blob: BlobInfo, rev: RevisionContents): Decision {
  if (blob.defaultRevisionId === rev.id) return null;
  if (c.targetsBlob && c.following) {
    if (rev.state !== 'draft') return { aim: 'following', outcome: { kind: 'fails', error: 'default_revision_committed' } };
    const session = rev.sessions.find((s) => s.alias === c.session);
    if (!session) return { aim: 'following', outcome: { kind: 'fails', error: 'session_not_found' } };
    if (session.state !== 'open') return { aim: 'following', outcome: { kind: 'fails', error: 'session_not_open' } };
    const definitionHere = c.bareWorkflow || (c.workflowFromBlob && c.workflowRevision === 'default');
    if (definitionHere && !findDefinition(rev, c.definition)) return { aim: 'following', outcome: { kind: 'fails', error: 'workflow_not_found' } };
    return { aim: 'following', outcome: { kind: 'fires_into', sessionId: session.id } };
  }
  if (c.workflowFromBlob && c.workflowRevision === 'default') {
    const definition = findDefinition(rev, c.definition);
    return { aim: 'workflow', outcome: definition ? { kind: 'runs_definition', definitionId: definition.id } : { kind: 'fails', error: 'workflow_not_found' } };
  }
  return null;
}

export interface RevisionChangeImpact {
  /** Committing the revision (drafts only). */
  commit: ScheduleImpact;
  /** Making it the default (not the current default). */
  setDefault: ScheduleImpact;
}

/**
 * For the blob page: what Commit and Set as default would do to schedules, for every revision of
 * blob `blobId` (keyed by revision id). Needs `read` on the blob (else `404 not_found`, SPEC §2).
 * One pass over the schedules naming the blob, whatever the number of revisions.
 */
export async function revisionChangeImpacts(db: Tx, opts: { actor: Actor; blobId: string }): Promise<Map<string, RevisionChangeImpact>> {
  const blob = await loadBlob(db, opts.actor, opts.blobId);
  const [candidates, revisions] = await Promise.all([
    candidatesFor(db, blob),
    db.revision.findMany({
      where: { blobId: blob.id },
      select: { id: true, state: true, sessions: { select: { id: true, alias: true, state: true } }, definitions: { select: { id: true, alias: true } } },
    }),
  ]);
  const names = await readableSchedulers(db, opts.actor, candidates.map((c) => c.schedulerRevisionId));
  const out = new Map<string, RevisionChangeImpact>();
  for (const rev of revisions) {
    out.set(rev.id, {
      commit: rev.state === 'draft' ? collect(candidates, names, (c) => commitDecision(c, blob, rev)) : NO_IMPACT,
      setDefault: collect(candidates, names, (c) => setDefaultDecision(c, blob, rev)),
    });
  }
  return out;
}

/**
 * For a revision's page: what deleting each of its sessions would do to schedules (keyed by session
 * id; a session no schedule aims at maps to NO_IMPACT). Needs `read` on the revision's blob.
 */
export async function sessionDeleteImpacts(db: Tx, opts: { actor: Actor; revisionId: string }): Promise<Map<string, ScheduleImpact>> {
  const rev = await db.revision.findUnique({ where: { id: opts.revisionId }, select: { id: true, blobId: true, sessions: { select: { id: true, alias: true } } } });
  if (!rev) throw new DomainError('not_found', 'revision not found');
  const blob = await loadBlob(db, opts.actor, rev.blobId);
  const candidates = await candidatesFor(db, blob);
  const names = await readableSchedulers(db, opts.actor, candidates.map((c) => c.schedulerRevisionId));
  const isDefault = blob.defaultRevisionId === rev.id;
  const out = new Map<string, ScheduleImpact>();
  for (const s of rev.sessions) {
    out.set(
      s.id,
      collect(candidates, names, (c): Decision => {
        if (!c.targetsBlob) return null;
        if (!c.following && c.targetRevision === rev.id && c.session === s.id) return { aim: 'pinned', outcome: { kind: 'fails', error: 'session_not_found' } };
        if (c.following && isDefault && s.alias !== null && c.session === s.alias) return { aim: 'following', outcome: { kind: 'fails', error: 'session_not_found' } };
        return null;
      }),
    );
  }
  return out;
}

/**
 * What deleting workflow blob `blobId` would do to schedules: every one aiming at it fails from its
 * next fire (`target_not_found` following, `session_not_found` pinned), every one running a workflow
 * from it fails `workflow_not_found`. Needs `read` on the blob.
 */
export async function blobDeleteImpact(db: Tx, opts: { actor: Actor; blobId: string }): Promise<ScheduleImpact> {
  const blob = await loadBlob(db, opts.actor, opts.blobId);
  const candidates = await candidatesFor(db, blob);
  const names = await readableSchedulers(db, opts.actor, candidates.map((c) => c.schedulerRevisionId));
  return collect(candidates, names, (c): Decision => {
    if (c.targetsBlob) return c.following ? { aim: 'following', outcome: { kind: 'fails', error: 'target_not_found' } } : { aim: 'pinned', outcome: { kind: 'fails', error: 'session_not_found' } };
    return { aim: 'workflow', outcome: { kind: 'fails', error: 'workflow_not_found' } };
  });
}
