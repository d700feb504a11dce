/**
 * The seam between the scheduler and the workflow catalog (STYLE §3.7, SPEC §6, §8, §8.1). The
 * scheduler's fire path and save path call ONLY this interface, so a remote catalog can replace the
 * embedded one without touching the worker. This is the only code that knows how `create_execution`
 * fails: it answers with the SPEC §8.1 error names, and callers switch on those names, never on text.
 *
 * Whose standing counts: at a fire, the schedule's `created_by` (`actorFromEntity`, SPEC §2, §8); at a
 * save, the saver (SPEC §6.3). The save path maps ANY failure to one identical
 * `400 invalid_invocation_target` (see `checkInvocationTarget`), so its messages never reach a client.
 *
 * Non-disclosure choice: a target or source blob that EXISTS but that the actor cannot reach (no role
 * at all, or too low a role) is `access_denied`; a blob that does not exist is `target_not_found`
 * (following) or `session_not_found` (pinned). Existence is checked first, then access, right after the
 * blob is found and before anything inside it is looked at. A fire's run record is read by the
 * schedule's readers, who already saw the target when it was saved, so this discloses nothing new.
 */
import { findFireTargets, type FireTargetKey, type Tx } from '../db';
import { type Actor, actorKey, blobsWithAccess, hasBlobAccess } from '../auth';
import { isDomainError } from '../errors';
import { isIdShape, normalizeRef } from '../ids';
import type { InvocationError, TargetRef, WorkflowRef } from './contract';
import { findBlobByRef } from './blobs/find-blob-by-ref';
import { resolveWorkflowReference } from './definitions/resolve-workflow-reference';
import {
  createExecution as createExecutionInCatalog,
  EXECUTIONS_LIMIT_NAME,
  type CheckedExecution,
  type CreateExecutionOptions,
  type ExecutionLimits,
} from './executions/create-execution';
import { createExecutions as createExecutionsInCatalog } from './executions/create-executions';
import type { DomainError } from '../errors';
import { findSessionByRef } from './sessions/find-session-by-ref';

export type { TargetRef, WorkflowRef } from './contract';
export type { CheckedExecution } from './executions/create-execution';

/** The SPEC §8.1 `invocation_error` names a resolution can produce (`INVOCATION_ERRORS` but `internal_error`). */
export type ResolveError = Exclude<InvocationError, 'internal_error'>;

export interface ResolveFailure {
  ok: false;
  error: ResolveError;
  message: string;
  /**
   * Set on `session_not_found` when everything before the session resolved (the blob, the actor's
   * access, the revision): the revision the session alias was looked up in, and its state.
   */
  sessionLookedUpIn?: { revisionId: string; revisionState: 'draft' | 'committed' };
}

export interface ResolvedTarget {
  ok: true;
  blobId: string;
  orgId: string;
  revisionId: string;
  sessionId: string;
  /** True when `target.revision` was a revision id, false for `default`. */
  pinned: boolean;
  /** State of the resolved revision. Always `draft` when following; a pinned one may be `committed`. */
  revisionState: 'draft' | 'committed';
}

export interface ResolvedWorkflow {
  ok: true;
  definitionId: string;
  revisionId: string;
  blobId: string;
}

/** A fire's execution: exactly the catalog's `createExecution` options (SPEC §8 step 2). */
export type CreateExecutionRequest = CreateExecutionOptions;

export type CreateExecutionOutcome =
  | { ok: true; executionId: string }
  | { ok: false; status: 'limit_exceeded'; limit: typeof EXECUTIONS_LIMIT_NAME; message: string }
  | {
      ok: false;
      status: 'invocation_error';
      error: Extract<ResolveError, 'invocation_failed' | 'session_not_open' | 'session_not_found'>;
      message: string;
    };

/** What the scheduler needs from a workflow catalog. Every method runs inside the caller's transaction. */
export interface WorkflowGateway {
  /**
   * Resolve where a fire runs (SPEC §6.1, §8 step 1). Following: the blob's CURRENT default revision,
   * which must be a draft, then the session alias in it. Pinned: the stored revision id, which must
   * belong to the blob (it may be committed: `createExecution` then refuses), then the session by id
   * (or alias, at save time). The session must be open. `actor` needs `need` on the blob.
   */
  resolveTarget(db: Tx, actor: Actor, target: TargetRef, need: 'write'): Promise<ResolvedTarget | ResolveFailure>;
  /**
   * Resolve what a fire runs (SPEC §6.2): bare `{definition}` in `targetRevisionId`; qualified in the
   * named blob's revision (`default` unless given), with `read` on that blob.
   */
  resolveWorkflow(db: Tx, actor: Actor, workflow: WorkflowRef, targetRevisionId: string): Promise<ResolvedWorkflow | ResolveFailure>;
  /**
   * Create the execution (SPEC §8 step 2) under the caller's `limits` (the worker's, or the web app's
   * and the API's configuration). A limit refusal is `limit_exceeded` (SPEC §9); any other refusal is
   * an `invocation_error`. Refusals write nothing. Unforeseen exceptions propagate (the caller records
   * `internal_error`).
   */
  createExecution(db: Tx, opts: CreateExecutionRequest, limits: ExecutionLimits): Promise<CreateExecutionOutcome>;
  /**
   * `createExecution` for a batch (the fire path, SPEC §8): one outcome per request, in order, each
   * exactly what `createExecution` would answer for it at that point of the sequence; the catalog may
   * share reads between requests and write them together. `verified` maps a request's index to what
   * `resolveForFires` proved for it in this same transaction (`VerifiedFire.checked`): its checks
   * are not read again (only the limit is). Unforeseen exceptions propagate.
   */
  createExecutions(
    db: Tx,
    requests: CreateExecutionRequest[],
    limits: ExecutionLimits,
    verified?: ReadonlyMap<number, CheckedExecution>,
  ): Promise<CreateExecutionOutcome[]>;
  /**
   * The fire path's set-based resolution (SPEC §8 step 1, decisions.md): for each key, either a
   * fire that `resolveTarget` + `resolveWorkflow` would resolve AND whose `create_execution` checks
   * (all but the limit) pass, or null: "not decided here", and the caller asks `resolveTarget` /
   * `resolveWorkflow`, which name any failure exactly. A constant number of statements whatever the
   * number of keys. Never a different success than the general path's.
   */
  resolveForFires(db: Tx, keys: FireKey[]): Promise<(VerifiedFire | null)[]>;
}

/** One distinct fire to resolve: whose standing, where and what (as stored on the schedule). */
export interface FireKey {
  actor: Actor;
  target: TargetRef;
  workflow: WorkflowRef;
}

/** A fire proven by `resolveForFires`: its resolution, and what `create_execution`'s checks found. */
export interface VerifiedFire {
  target: ResolvedTarget;
  workflow: ResolvedWorkflow;
  checked: CheckedExecution;
}

const fail = (error: ResolveError, message: string): ResolveFailure => ({ ok: false, error, message });

/** The catalog in this process's database. */
export const embeddedGateway: WorkflowGateway = {
  async resolveTarget(db, actor, target, need) {
    const following = normalizeRef(target.revision) === 'default';
    // A pinned target never reports target_not_found (SPEC §8.1: following only): a gone blob or
    // revision takes its session with it.
    const gone: ResolveError = following ? 'target_not_found' : 'session_not_found';
    const blob = await findBlobByRef(db, { org: target.org, blob: target.blob });
    if (!blob || blob.type !== 'workflow') return fail(gone, `target blob "${target.blob.trim()}" not found`);
    // Access right after the blob is found, before anything inside it is looked at (SPEC §2, §8.1).
    if (!(await hasBlobAccess(db, actor, blob.id, need))) {
      return fail('access_denied', `no ${need} access to target blob "${target.blob.trim()}"`);
    }
    let revision: { id: string; state: string } | null;
    if (following) {
      revision = blob.defaultRevisionId
        ? await db.revision.findFirst({ where: { id: blob.defaultRevisionId, blobId: blob.id }, select: { id: true, state: true } })
        : null;
      if (!revision) return fail('target_not_found', `target blob "${target.blob.trim()}" has no default revision`);
      if (revision.state !== 'draft') {
        return fail('default_revision_committed', `the default revision ${revision.id} of the target blob is committed, not a draft`);
      }
    } else {
      revision = await db.revision.findFirst({
        where: { id: normalizeRef(target.revision), blobId: blob.id },
        select: { id: true, state: true },
      });
      if (!revision) return fail('session_not_found', `revision ${target.revision.trim()} is not a revision of the target blob`);
    }
    const session = await findSessionByRef(db, { revisionId: revision.id, session: target.session, aliasOnly: following });
    if (!session) {
      return {
        ...fail('session_not_found', `session "${target.session.trim()}" not found in revision ${revision.id}`),
        sessionLookedUpIn: { revisionId: revision.id, revisionState: revision.state === 'draft' ? 'draft' : 'committed' },
      };
    }
    if (session.state !== 'open') return fail('session_not_open', `session "${target.session.trim()}" is ${session.state}`);
    return {
      ok: true,
      blobId: blob.id,
      orgId: blob.orgId,
      revisionId: revision.id,
      sessionId: session.id,
      pinned: !following,
      revisionState: revision.state === 'draft' ? 'draft' : 'committed',
    };
  },

  async resolveWorkflow(db, actor, workflow, targetRevisionId) {
    const resolved = await resolveWorkflowReference(db, { actor, workflow, targetRevisionId });
    if (!resolved.ok) return fail(resolved.error, resolved.message);
    return { ok: true, definitionId: resolved.definition.id, revisionId: resolved.revisionId, blobId: resolved.blobId };
  },

  async createExecution(db, opts, limits) {
    try {
      const execution = await createExecutionInCatalog(db, opts, limits);
      return { ok: true, executionId: execution.id };
    } catch (e) {
      // Only refusals are mapped; they are all thrown before the catalog's one write, so the caller's
      // transaction is still clean and can record the run.
      if (!isDomainError(e)) throw e;
      return refusalOutcome(e);
    }
  },

  resolveForFires: resolveForFiresInCatalog,

  async createExecutions(db, requests, limits, verified) {
    const results = await createExecutionsInCatalog(db, requests, limits, verified);
    return results.map((r) => (r.ok ? { ok: true as const, executionId: r.executionId } : refusalOutcome(r.refusal)));
  },
};

/**
 * `resolveForFires` of the embedded catalog: one lookup statement for every key (findFireTargets),
 * then one access query per distinct actor (`blobsWithAccess`, the same rule as `hasBlobAccess`).
 * Decided here, only the plain success: a bare workflow reference, references the general path reads
 * the same way (a following target's session by alias, a pinned revision by id), a workflow blob the
 * actor can write, a draft revision, an open session, the definition in that revision. Those are
 * exactly `resolveTarget`'s and `resolveWorkflowReference`'s steps for such a key, and they imply
 * every check of `checkExecution` (the revision's blob is the target blob, written by the actor; the
 * definition is in the execution's own revision). Anything else is null (the general path).
 */
async function resolveForFiresInCatalog(db: Tx, keys: FireKey[]): Promise<(VerifiedFire | null)[]> {
  const lookups: FireTargetKey[] = [];
  const following = new Map<string, boolean>();
  keys.forEach((key, i) => {
    let lookup: FireTargetKey | null;
    try {
      lookup = fireTargetKey(String(i), key);
    } catch {
      // A stored reference of an unexpected shape: the general path records what it meets.
      lookup = null;
    }
    if (lookup) {
      lookups.push(lookup);
      following.set(lookup.k, lookup.revisionId === null);
    }
  });
  const rows = await findFireTargets(db, lookups);
  const actorOf = (k: string) => keys[Number(k)].actor;
  // One access query per distinct actor (its role cap included in the key: it narrows the rule).
  const blobsOf = new Map<string, { actor: Actor; blobIds: Set<string> }>();
  for (const r of rows) {
    const actor = actorOf(r.k);
    const ak = actorKey(actor);
    const entry = blobsOf.get(ak) ?? { actor, blobIds: new Set<string>() };
    entry.blobIds.add(r.blobId);
    blobsOf.set(ak, entry);
  }
  const writable = new Map<string, Set<string>>();
  // Serialization is desired: one transaction client runs one statement at a time.
  for (const [ak, { actor, blobIds }] of blobsOf) writable.set(ak, await blobsWithAccess(db, actor, [...blobIds], 'write'));
  const out: (VerifiedFire | null)[] = keys.map(() => null);
  for (const r of rows) {
    const canWrite = writable.get(actorKey(actorOf(r.k)))?.has(r.blobId) ?? false;
    if (r.blobType !== 'workflow' || !canWrite || r.revisionState !== 'draft' || r.sessionState !== 'open') continue;
    out[Number(r.k)] = {
      target: { ok: true, blobId: r.blobId, orgId: r.orgId, revisionId: r.revisionId, sessionId: r.sessionId, pinned: !following.get(r.k), revisionState: 'draft' },
      workflow: { ok: true, definitionId: r.definitionId, revisionId: r.revisionId, blobId: r.blobId },
      checked: { revision: { id: r.revisionId, blobId: r.blobId }, session: { id: r.sessionId, alias: r.sessionAlias } },
    };
  }
  return out;
}

/**
 * The lookup of one key in the forms `resolveTarget` and `resolveWorkflowReference` read it, or null
 * when the key is not one `resolveForFires` decides (a qualified workflow reference; a reference the
 * general path finds nothing for by its shape alone, e.g. a blob alias without an org).
 */
function fireTargetKey(k: string, { target, workflow }: FireKey): FireTargetKey | null {
  if (workflow.blob !== undefined || workflow.org !== undefined || workflow.revision !== undefined) return null;
  const split = (ref: string) => (isIdShape(ref) ? { id: ref, alias: null } : { id: null, alias: ref });
  const blob = normalizeRef(target.blob);
  const org = target.org === undefined ? null : normalizeRef(target.org);
  const revision = normalizeRef(target.revision);
  const session = normalizeRef(target.session);
  const definition = normalizeRef(workflow.definition);
  if (!blob || org === '' || !session || !definition) return null;
  if (!isIdShape(blob) && org === null) return null;
  const isFollowing = revision === 'default';
  if (!isFollowing && !isIdShape(revision)) return null;
  // A following target's session is an alias (SPEC §6.1): an id finds nothing on the general path.
  if (isFollowing && isIdShape(session)) return null;
  const o = org === null ? { id: null, alias: null } : split(org);
  const b = split(blob);
  const s = split(session);
  const d = split(definition);
  return {
    k,
    orgId: o.id,
    orgAlias: o.alias,
    blobId: b.id,
    blobAlias: b.alias,
    revisionId: isFollowing ? null : revision,
    sessionId: s.id,
    sessionAlias: s.alias,
    definitionId: d.id,
    definitionAlias: d.alias,
  };
}

/** A catalog refusal as the SPEC §8.1 outcome of a fire. */
function refusalOutcome(e: DomainError): Exclude<CreateExecutionOutcome, { ok: true }> {
  switch (e.code) {
    case 'limit_exceeded':
      return { ok: false, status: 'limit_exceeded', limit: EXECUTIONS_LIMIT_NAME, message: e.message };
    case 'session_not_open':
    case 'session_not_found':
      return { ok: false, status: 'invocation_error', error: e.code, message: e.message };
    default:
      return { ok: false, status: 'invocation_error', error: 'invocation_failed', message: e.message };
  }
}

/** A session alias a save needs that does not exist yet (see `checkInvocationTarget`'s `allowMissingSession`). */
export interface MissingTargetSession {
  revisionId: string;
  /** The alias in lookup form (trimmed, lowercased). */
  alias: string;
}

/**
 * The SPEC §6.3 save-time check, with the saver's standing: everything a fire will check, plus that a
 * pinned revision is still a draft. Resolves the target, then the workflow reference in it. The caller
 * maps every failure to the same `400 invalid_invocation_target` (and a pinned target's session to
 * `target.sessionId`, SPEC §6.1). Syntax rules (alias vs id, missing org) belong to the schedule contract.
 *
 * `allowMissingSession` (a dry run, for `scheduler deploy`): a target session ALIAS that does not exist
 * in a draft revision the saver can write is not a failure; the workflow reference is still resolved in
 * that revision, and the answer names the session instead of a resolved target. Nothing is disclosed:
 * the saver can list that revision's sessions anyway.
 */
export async function checkInvocationTarget(
  gateway: WorkflowGateway,
  db: Tx,
  actor: Actor,
  ref: { target: TargetRef; workflow: WorkflowRef },
  opts: { allowMissingSession?: boolean } = {},
): Promise<
  | { ok: true; target: ResolvedTarget; workflow: ResolvedWorkflow }
  | { ok: true; target: null; missingSession: MissingTargetSession; workflow: ResolvedWorkflow }
  | ResolveFailure
> {
  // The plain success in a constant number of statements (the fire path's set-based resolution, which
  // never answers a different success than the steps below): a create's hot path (docs/decisions.md 386).
  // Anything it does not decide (null) goes through the steps below, which name every failure exactly.
  const [plain] = await gateway.resolveForFires(db, [{ actor, target: ref.target, workflow: ref.workflow }]);
  if (plain) return { ok: true, target: plain.target, workflow: plain.workflow };
  const target = await gateway.resolveTarget(db, actor, ref.target, 'write');
  if (!target.ok) {
    const lookedUp = target.sessionLookedUpIn;
    const creatable = opts.allowMissingSession && lookedUp?.revisionState === 'draft' && !isIdShape(ref.target.session);
    if (!creatable || !lookedUp) return target;
    const workflow = await gateway.resolveWorkflow(db, actor, ref.workflow, lookedUp.revisionId);
    if (!workflow.ok) return workflow;
    return { ok: true, target: null, missingSession: { revisionId: lookedUp.revisionId, alias: normalizeRef(ref.target.session) }, workflow };
  }
  if (target.revisionState !== 'draft') {
    return fail('invocation_failed', `revision ${target.revisionId} is committed; only a draft revision runs executions`);
  }
  const workflow = await gateway.resolveWorkflow(db, actor, ref.workflow, target.revisionId);
  if (!workflow.ok) return workflow;
  return { ok: true, target, workflow };
}
