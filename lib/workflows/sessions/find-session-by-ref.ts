import type { Tx, WorkflowSession } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';

export interface FindSessionByRefOptions {
  /** The revision the session must belong to. */
  revisionId: string;
  /** Session id or alias; trimmed and lowercased before lookup (SPEC §3.1, §4). */
  session: string;
  /** Accept only an alias (a following target's session, SPEC §6.1): an id-shaped ref finds nothing. */
  aliasOnly?: boolean;
}

/**
 * The session of `revisionId` named by id or alias, or null. Ids and aliases share one namespace and
 * are told apart by shape (SPEC §4). No access check: callers have checked the revision.
 */
export async function findSessionByRef(db: Tx, opts: FindSessionByRefOptions): Promise<WorkflowSession | null> {
  const ref = normalizeRef(opts.session);
  if (!ref) return null;
  if (isIdShape(ref)) {
    if (opts.aliasOnly) return null;
    return db.workflowSession.findFirst({ where: { id: ref, revisionId: opts.revisionId } });
  }
  return db.workflowSession.findUnique({ where: { revisionId_alias: { revisionId: opts.revisionId, alias: ref } } });
}

/**
 * `findSessionByRef` that throws; `path` names the request field that carried the reference.
 * @throws `404 session_not_found` when the revision holds no such session.
 */
export async function requireSessionByRef(
  db: Tx,
  opts: FindSessionByRefOptions & { path?: string },
): Promise<WorkflowSession> {
  const session = await findSessionByRef(db, opts);
  if (!session) {
    throw new DomainError('session_not_found', 'session not found', { path: opts.path ?? 'session_id' });
  }
  return session;
}
